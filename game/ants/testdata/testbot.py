#!/usr/bin/env python3
"""A test bot for the Ants protocol. Usage: testbot.py MODE [TURN]

Modes: random (moves ants at random), hold (never moves), crash (exits at
TURN), timeout (stops answering at TURN), flood (sends 200000 lines at
TURN), longline (sends a line of 2 MiB at TURN), invalid (sends an order
with a bad direction at TURN), child (starts a sleeping child process and
answers normally), garbage (sends binary noise at TURN), east (moves every
ant one square east each turn).
"""
import os
import random
import subprocess
import sys
import time

mode = sys.argv[1]
at = int(sys.argv[2]) if len(sys.argv) > 2 else 3
rows = cols = 0
water = set()
ants = []
turn = 0
if mode == "child":
    subprocess.Popen(["sleep", "300"])

def out(s):
    sys.stdout.write(s)
    sys.stdout.flush()

for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    key = line.split()[0]
    if key == "turn":
        turn = int(line.split()[1])
        ants = []
    elif key == "rows":
        rows = int(line.split()[1])
    elif key == "cols":
        cols = int(line.split()[1])
    elif key == "player_seed":
        random.seed(int(line.split()[1]))
    elif key == "w":
        _, r, c = line.split()
        water.add((int(r), int(c)))
    elif key == "a":
        _, r, c, o = line.split()
        if o == "0":
            ants.append((int(r), int(c)))
    elif key == "end":
        break
    elif key in ("ready", "go"):
        if turn >= at:
            if mode == "crash":
                sys.exit(3)
            if mode == "timeout":
                time.sleep(60)
            if mode == "flood":
                out("o 0 0 n\n" * 200000)
            if mode == "longline":
                out("x" * (2 << 20) + "\n")
            if mode == "invalid":
                out("o -1 -1 h\n")
            if mode == "garbage":
                out("\x00\xff\xfe garbage\n")
        if mode == "east" and key == "go":
            for r, c in ants:
                out("o %d %d e\n" % (r, c))
        if mode in ("random", "child", "invalid", "flood", "garbage") and key == "go":
            taken = set()
            for r, c in ants:
                dirs = [("n", -1, 0), ("e", 0, 1), ("s", 1, 0), ("w", 0, -1)]
                random.shuffle(dirs)
                for d, dr, dc in dirs:
                    dest = ((r + dr) % rows, (c + dc) % cols)
                    if dest not in water and dest not in taken:
                        taken.add(dest)
                        out("o %d %d %s\n" % (r, c, d))
                        break
        out("go\n")
