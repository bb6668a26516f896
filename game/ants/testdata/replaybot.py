#!/usr/bin/env python3
"""Replays one bot of a game recorded from the official Ants engine.

Usage: replaybot.py MOVES [STDERR]

MOVES is the recorded bot<i>.moves: under "# turn N", the lines the bot
answered on turn N; "# status crashed" or "# status timeout" marks the
turn it crashed or timed out on. On the crash turn the bot prints that
turn's lines, writes the file STDERR (its recorded stderr) to stderr and
exits 1; on a timeout turn it prints the lines and stops answering. After
the end message it writes a line to stderr, which the engine never reads.
"""
import sys
import time

answers = {}
turn = None
for line in open(sys.argv[1]).read().splitlines():
    if line.startswith("# turn "):
        turn = int(line.split()[2])
        answers[turn] = ([], None)
    elif line.startswith("# status "):
        answers[turn] = (answers[turn][0], line.split()[2])
    elif turn is not None:
        answers[turn][0].append(line)
last_words = open(sys.argv[2]).read() if len(sys.argv) > 2 else ""

turn = 0
ended = False
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "turn":
        turn = int(words[1])
    elif words[0] == "end":
        ended = True
    elif words[0] in ("ready", "go"):
        if ended:
            sys.stderr.write("after the end message: the engine never reads this\n")
            sys.stderr.flush()
            break
        lines, status = answers.get(turn, ([], None))
        for order in lines:
            sys.stdout.write(order + "\n")
        sys.stdout.flush()
        if status == "crashed":
            sys.stderr.write(last_words)
            sys.stderr.flush()
            sys.exit(1)
        if status == "timeout":
            time.sleep(3600)
        sys.stdout.write("go\n")
        sys.stdout.flush()
