#!/usr/bin/env python3
"""Gomoku brain for the Piskvork pipe protocol that plays random legal moves.

Reads commands from stdin; lines may end in CR LF, LF or CR. Answers START,
RECTSTART and RESTART with OK, ignores INFO, answers BEGIN, TURN and
BOARD ... DONE with a random empty square, ABOUT with its name, anything
else with UNKNOWN, and exits on END or end of input. Standard library only.
"""
import os
import random
import sys


class Lines:
    """Splits raw stdin bytes into non-empty lines on CR and LF without
    waiting for a possible LF after a CR (a CR-only line is answered at
    once)."""

    def __init__(self, fd):
        self.fd = fd
        self.buf = b""
        self.pending = []

    def next(self):
        while not self.pending:
            data = os.read(self.fd, 65536)
            if not data:
                if self.buf.strip():
                    line, self.buf = self.buf, b""
                    return line.decode("utf-8", "replace").strip()
                return None
            self.buf += data
            parts = self.buf.replace(b"\r", b"\n").split(b"\n")
            self.buf = parts.pop()
            self.pending = [p.decode("utf-8", "replace").strip() for p in parts if p.strip()]
        return self.pending.pop(0)


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def parse_xy(text):
    try:
        x, y = text.split(",")[:2]
        return int(x), int(y)
    except ValueError:
        return None


def main():
    lines = Lines(sys.stdin.fileno())
    width = height = 0
    board = {}  # (x, y) -> 1 own, 2 opponent, 3 blocked

    def answer():
        empty = [(x, y) for y in range(height) for x in range(width) if (x, y) not in board]
        if not empty:
            say("ERROR no empty square")
            return
        x, y = random.choice(empty)
        board[(x, y)] = 1
        say("%d,%d" % (x, y))

    while True:
        line = lines.next()
        if line is None:
            return
        cmd, _, arg = line.partition(" ")
        cmd, arg = cmd.upper(), arg.strip()
        if cmd == "START":
            try:
                size = int(arg)
            except ValueError:
                size = 0
            if size < 5:
                say("ERROR bad size")
                continue
            width = height = size
            board = {}
            say("OK")
        elif cmd == "RECTSTART":
            xy = parse_xy(arg)
            if xy is None or min(xy) < 5:
                say("ERROR bad size")
                continue
            width, height = xy
            board = {}
            say("OK")
        elif cmd == "RESTART":
            board = {}
            say("OK")
        elif cmd == "INFO":
            pass
        elif cmd == "BEGIN":
            answer()
        elif cmd == "TURN":
            xy = parse_xy(arg)
            if xy is not None:
                board[xy] = 2
            answer()
        elif cmd == "BOARD":
            board = {}
            while True:
                row = lines.next()
                if row is None or row.upper() == "END":
                    return
                if row.upper() == "DONE":
                    break
                fields = row.split(",")
                if len(fields) == 3:
                    try:
                        board[(int(fields[0]), int(fields[1]))] = int(fields[2])
                    except ValueError:
                        pass
            answer()
        elif cmd == "PLAY":
            xy = parse_xy(arg)
            if xy is None:
                say("ERROR bad PLAY")
                continue
            board[xy] = 1
            say("%d,%d" % xy)
        elif cmd == "ABOUT":
            say('name="pyrandom", version="1.0", author="arena", country="CZ"')
        elif cmd == "END":
            return
        else:
            say("UNKNOWN " + cmd)


if __name__ == "__main__":
    main()
