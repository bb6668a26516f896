#!/usr/bin/env python3
"""Gomoku brain for the Piskvork pipe protocol that crashes on its 2nd move.

It answers START/RECTSTART/RESTART with OK and its first move request
(BEGIN, TURN or BOARD ... DONE) with a random empty square; on the second
move request it raises an exception, so Python prints a traceback on
stderr and exits with status 1. Standard library only.
"""
import os
import random
import sys


def lines():
    """Yields non-empty stdin lines; CR, LF and CR LF all end a line."""
    buf = b""
    while True:
        data = os.read(sys.stdin.fileno(), 65536)
        if not data:
            if buf.strip():
                yield buf.decode("utf-8", "replace").strip()
            return
        buf += data
        parts = buf.replace(b"\r", b"\n").split(b"\n")
        buf = parts.pop()
        for p in parts:
            if p.strip():
                yield p.decode("utf-8", "replace").strip()


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


class BrainCrash(Exception):
    """The deliberate failure."""


def main():
    width = height = 20
    taken = set()
    moves = 0
    source = lines()
    for line in source:
        cmd, _, arg = line.partition(" ")
        cmd = cmd.upper()
        if cmd == "START":
            width = height = int(arg)
            taken = set()
            say("OK")
        elif cmd == "RECTSTART":
            width, height = (int(v) for v in arg.split(","))
            taken = set()
            say("OK")
        elif cmd == "RESTART":
            taken = set()
            say("OK")
        elif cmd == "INFO":
            pass
        elif cmd in ("BEGIN", "TURN", "BOARD"):
            if cmd == "TURN":
                taken.add(tuple(int(v) for v in arg.split(",")[:2]))
            if cmd == "BOARD":
                taken = set()
                for row in source:
                    if row.upper() == "DONE":
                        break
                    taken.add(tuple(int(v) for v in row.split(",")[:2]))
            moves += 1
            if moves == 2:
                raise BrainCrash("pycrash: deliberate crash on move 2")
            empty = [(x, y) for y in range(height) for x in range(width) if (x, y) not in taken]
            x, y = random.choice(empty)
            taken.add((x, y))
            say("%d,%d" % (x, y))
        elif cmd == "ABOUT":
            say('name="pycrash", version="1.0", author="arena", country="CZ"')
        elif cmd == "END":
            return
        else:
            say("UNKNOWN " + cmd)


if __name__ == "__main__":
    main()
