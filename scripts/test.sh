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
go test -count=1 -timeout 20m ./...
# (Strength is measured without the race detector, which slows the brain
# several times over.)
go test -count=1 -race -timeout 20m -skip TestBuiltinStrength ./bot/... ./match/... ./cmd/...
# The protocol adapters are driven from several goroutines (start-up,
# the end of a game, cancellation): race-check the games played over
# real processes.
go test -count=1 -race -timeout 20m -run 'Transcripts|Misbehaviour|ToleratedQuirks' ./game/gomoku/
