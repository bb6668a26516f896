#!/bin/sh
# Makes sure the language runtimes the sandbox's tests start bots in are
# installed: a JVM (java) and mono with its C# compiler (mono, mcs). The
# shell and Python are part of any Debian machine. On a fresh Debian
# machine, as root, it installs what is missing; otherwise it says which
# runtimes are missing (their tests then skip, naming the program) and
# goes on. Running it again changes nothing once they are there.
set -eu

say() { echo "languages.sh: $*" >&2; }

missing=""
command -v java >/dev/null 2>&1 || missing="$missing default-jre-headless"
command -v mono >/dev/null 2>&1 || missing="$missing mono-runtime"
command -v mcs >/dev/null 2>&1 || missing="$missing mono-mcs"
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	say "missing packages:$missing (only root can install them); the tests of those languages will skip"
	exit 0
fi
say "installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
# shellcheck disable=SC2086 # one word per package
apt-get install -y -qq --no-install-recommends $missing >&2
