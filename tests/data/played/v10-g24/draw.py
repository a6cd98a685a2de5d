"""Draw of the grading-version-24 play-test on toolmaze-v10: seed = first 8 hex digits of
sha256 of the graded commit's id (argv[1]); every task any earlier v10 play-test played
(the file names under tests/data/played/v10*) excluded; per level k the stream
random.Random(seed * 10 + k).sample(range(100), 40), first three not played, modes P3 P4 P0;
draw position j to player (j + k) mod 3 + 1."""
import hashlib
import random
import re
import sys
from pathlib import Path

seed = int(hashlib.sha256(sys.argv[1].encode()).hexdigest()[:8], 16)
print("seed", seed)
played = set()
for f in Path(sys.argv[2]).glob("v10*/**/*.actions"):
    m = re.match(r"tmz-v10-c(\d)-(\d{4})", f.name)
    if m:
        played.add((int(m.group(1)) - 1, int(m.group(2))))
modes = ["P3", "P4", "P0"]
players = {p: [] for p in (1, 2, 3)}
for k in range(4):
    sample = random.Random(seed * 10 + k).sample(range(100), 40)
    draw = [i for i in sample if (k, i) not in played][:3]
    for j, i in enumerate(draw):
        players[(j + k) % 3 + 1].append(f"tmz-v10-c{k+1}-{i:04d} {modes[j]}")
for p, eps in players.items():
    print(f"p{p}", "; ".join(eps))
