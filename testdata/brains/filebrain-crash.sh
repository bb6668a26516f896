#!/bin/sh
# Gomoku brain for the old file protocol that fails at once: it exits with
# status 1 without writing TAH.DAT (which still holds the side letter).
echo "filebrain-crash: giving up" >&2
exit 1
