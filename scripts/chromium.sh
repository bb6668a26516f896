#!/bin/sh
# Makes sure Debian's chromium is installed for the browser tests and
# prints its path on stdout (everything else goes to stderr), e.g.
#
#	export ARENA_TEST_CHROMIUM="$(scripts/chromium.sh)"
#
# Running it again changes nothing once the browser is there. On a fresh
# Debian machine, as root, it installs the chromium package first.
set -eu

chromium=/usr/bin/chromium
say() { echo "chromium.sh: $*" >&2; }

if [ ! -x "$chromium" ]; then
	if [ "$(id -u)" != 0 ]; then
		say "chromium is not installed and only root can install it (apt-get install chromium)"
		exit 1
	fi
	say "installing chromium"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	apt-get install -y -qq chromium >&2
fi
if [ ! -x "$chromium" ]; then
	say "the chromium package did not install $chromium"
	exit 1
fi
echo "$chromium"
