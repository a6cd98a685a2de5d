"""Draw of the play-test of toolmaze-v11 under grading version 25: seed = first 8 hex digits
of sha256 of the graded commit's id (argv[1]); the 30 tasks of the v11 blind review (argv[2],
one line of ids per reviewer) excluded; per level k the stream
random.Random(seed * 10 + k).sample(range(100), 40), first three not reviewed, modes
P0..P4 in turn over the whole draw (level k, position j: mode (3k + j) mod 5); draw position
j to player (j + k) mod 3 + 1."""
import hashlib
import random
import re
import sys
from pathlib import Path

seed = int(hashlib.sha256(sys.argv[1].encode()).hexdigest()[:8], 16)
print("seed", seed)
reviewed = {(int(m.group(1)) - 1, int(m.group(2)))
            for m in re.finditer(r"tmz-v11-c(\d)-(\d{4})", Path(sys.argv[2]).read_text())}
modes = ["P0", "P1", "P2", "P3", "P4"]
players = {p: [] for p in (1, 2, 3)}
for k in range(4):
    sample = random.Random(seed * 10 + k).sample(range(100), 40)
    draw = [i for i in sample if (k, i) not in reviewed][:3]
    for j, i in enumerate(draw):
        players[(j + k) % 3 + 1].append(f"tmz-v11-c{k+1}-{i:04d} {modes[(3 * k + j) % 5]}")
for p, eps in players.items():
    print(f"p{p}", "; ".join(eps))
