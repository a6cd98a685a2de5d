"""Draw of the play-test of toolmaze-v15 under grading version 32 (issue 27's 40 fresh
episodes): seed = first 8 hex digits of sha256 of "<the v15 manifest's SHA-256> play"
(argv[1]: the manifest's digest); per level ten tasks random.Random(seed).sample(range(100),
10) and two rounds of the five modes, each round random.Random(seed).sample of P0..P4, all
drawn in turn from one stream; episode j to player j mod 10 + 1 (one episode per level)."""
import hashlib
import random
import sys

seed = int(hashlib.sha256(f"{sys.argv[1]} play".encode()).hexdigest()[:8], 16)
print("seed", seed)
stream = random.Random(seed)
modes = ["P0", "P1", "P2", "P3", "P4"]
episodes = []
for level in range(1, 5):
    tasks = stream.sample(range(100), 10)
    chosen = stream.sample(modes, 5) + stream.sample(modes, 5)
    episodes += [f"tmz-v15-c{level}-{i:04d} {m}" for i, m in zip(tasks, chosen, strict=True)]
for p in range(10):
    print(f"p{p + 1}", "; ".join(episodes[p::10]))
