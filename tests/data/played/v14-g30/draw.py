"""Draw of the play-test of toolmaze-v14 under grading version 30: seed = first 8 hex digits
of sha256 of "<the v14 manifest's SHA-256> play" (argv[1]: the manifest's digest,
595bb30eb2132c49355982179364e0b9b4ddb8d2f368db19738996673a60721b); per level three tasks
random.Random(seed).sample(range(100), 3) and three modes random.Random(seed).sample of
P0..P4, drawn in turn from one stream; episode j to player j mod 3 + 1 (as v12's draw)."""
import hashlib
import random
import sys

seed = int(hashlib.sha256(f"{sys.argv[1]} play".encode()).hexdigest()[:8], 16)
print("seed", seed)
stream = random.Random(seed)
modes = ["P0", "P1", "P2", "P3", "P4"]
episodes = []
for level in range(1, 5):
    tasks, chosen = stream.sample(range(100), 3), stream.sample(modes, 3)
    episodes += [f"tmz-v14-c{level}-{i:04d} {m}" for i, m in zip(tasks, chosen, strict=True)]
for p in range(3):
    print(f"p{p + 1}", "; ".join(episodes[p::3]))
