#!/bin/sh
# Runs every check of the project: formatting, vet, the whole test suite,
# and the race detector over the packages that run goroutines. CI runs
# exactly this (.ci/run).
set -eu
cd "$(dirname "$0")/.."

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:" >&2
	echo "$unformatted" >&2
	exit 1
fi
go vet ./...
# Everything a test reads lives in the repository, so that a fresh clone
# passes on its own: refuse any Go file that reaches for the workspace
# folder beside the repository, however the path is spelled.
outside=$(grep -rnE --include='*.go' '(\.\./|")shared(/|")' . || true)
if [ -n "$outside" ]; then
	echo "Go files refer to the workspace folder outside the repository (put the data in testdata/):" >&2
	echo "$outside" >&2
	exit 1
fi
# The store's tests run on SQLite and on a real PostgreSQL server, which
# this installs on a fresh Debian machine and starts as a socket-only
# cluster. (Two lines: "export X=$(...)" would hide the script failing.)
ARENA_TEST_POSTGRES=$(./scripts/postgres.sh)
export ARENA_TEST_POSTGRES
# The web page's end-to-end tests drive Debian's chromium, which this
# installs when it is missing.
ARENA_TEST_CHROMIUM=$(./scripts/chromium.sh)
export ARENA_TEST_CHROMIUM
# Bots in Java and C# (mono) are started in the sandbox's tests: this
# installs those runtimes when they are missing.
./scripts/languages.sh
go test -count=1 -timeout 20m ./...
# A race-built program sleeps a second before it exits (the detector's
# atexit_sleep_ms), and the tests start the race-built test binary as
# arena, as its bots and as its sandbox's helpers hundreds of times: that
# second was more than half of cmd/arena's race run (386 s, 166 s
# without). Races are reported when they happen, not at exit.
GORACE="${GORACE:-atexit_sleep_ms=0}"
export GORACE
# (Strength is measured without the race detector, which slows the brain
# several times over.)
go test -count=1 -race -timeout 20m -skip TestBuiltinStrength ./bot/... ./match/... ./engine/... ./cmd/... ./store/... ./tournament/... ./rating/... ./standings/... ./web/ ./dispatch/
# The protocol adapters are driven from several goroutines (start-up,
# the end of a game, cancellation): race-check the games played over
# real processes.
go test -count=1 -race -timeout 20m -run 'Transcripts|Misbehaviour|ToleratedQuirks' ./game/gomoku/
go test -count=1 -race -timeout 20m -run 'Protocol|Misbehaving|Lingering|PlayGame' ./game/khet/
go test -count=1 -race -timeout 20m ./game/points/ ./game/ants/...
# The Points player grows several search trees at once with --threads.
go test -count=1 -race -timeout 20m -run 'Threads|StatusLines|Settle' ./bots/pointsbot/
# The kernel's record of pipe sleeps is loaded in the background and
# shared by the bots of a sandbox.
go test -count=1 -race -timeout 20m -run 'PipeSleep' ./sandbox/
