#!/bin/sh
# Gomoku brain for the old file protocol (one run per move), in POSIX sh
# and awk: reads PLOCHA.DAT in the working directory (size detected from
# the rows; LF or CR LF line ends), writes a random empty square as "x,y"
# into TAH.DAT and exits 0. Exits 1 without writing if there is no board
# or no empty square.
[ -r PLOCHA.DAT ] || { echo "filebrain-random: no PLOCHA.DAT" >&2; exit 1; }
seed=$(od -An -N2 -tu2 /dev/urandom 2>/dev/null | tr -d ' ')
[ -n "$seed" ] || seed=$$
move=$(awk -v seed="$seed" '
	BEGIN { n = 0; y = 0 }
	{ sub(/\r$/, "") }
	/^[ \t]*$/ { next }
	{
		for (x = 1; x <= length($0); x++)
			if (substr($0, x, 1) == "-") { ex[n] = x - 1; ey[n] = y; n++ }
		y++
	}
	END {
		if (n == 0) exit 1
		srand(seed)
		i = int(rand() * n)
		if (i >= n) i = n - 1
		printf "%d,%d\n", ex[i], ey[i]
	}
' PLOCHA.DAT) || { echo "filebrain-random: no empty square" >&2; exit 1; }
printf '%s\n' "$move" > TAH.DAT
