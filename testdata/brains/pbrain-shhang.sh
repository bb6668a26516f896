#!/bin/sh
# Gomoku brain for the Piskvork pipe protocol that answers START (or
# RECTSTART/RESTART) with OK and then hangs for good in a child "sleep",
# reading nothing more. Input lines must end in LF (CR LF is fine). The child keeps stdout open, so a manager that
# kills only this shell and waits for end of output hangs too.
while IFS= read -r line; do
	line=$(printf '%s' "$line" | tr -d '\r')
	case $line in
	START*|RECTSTART*|RESTART*)
		printf 'OK\n'
		sleep 3600
		exit 0
		;;
	END*)
		exit 0
		;;
	ABOUT*)
		printf 'name="shhang", version="1.0"\n'
		;;
	INFO*|'')
		;;
	*)
		printf 'UNKNOWN %s\n' "$line"
		;;
	esac
done
