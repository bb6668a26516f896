package main

import (
	"fmt"
	"io"
	"path/filepath"

	"arena/bot"
)

// workFolder makes this run's folder for the bots' working folders (in
// root, or /dev/shm, or fallback: bot.ScratchDir), named after this
// arena (bot.WorkPrefix), after ending what arenas that were killed left
// behind: the processes in their cgroups, and their work folders beside
// this one. What was found is said on stderr.
func workFolder(root, fallback string, stderr io.Writer) (string, error) {
	work, err := bot.ScratchDir(root, fallback, bot.WorkPrefix())
	if err != nil {
		return "", err
	}
	if r := bot.ReapStale(filepath.Dir(work)); r.String() != "" {
		fmt.Fprintln(stderr, "arena: "+r.String())
	}
	return work, nil
}
