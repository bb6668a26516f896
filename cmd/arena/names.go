package main

import (
	"fmt"

	"arena/internal/names"
)

// checkName refuses a --name (of a match, tournament or SPRT) that would
// not make one plain file name in --out; "" (a name arena chooses) is
// fine.
func checkName(name string) error {
	if name == "" {
		return nil
	}
	if err := names.Check(name); err != nil {
		return fmt.Errorf("--name %q: %w", name, err)
	}
	return nil
}

// checkGameID refuses a game ID that would not make one plain file name
// in the folder its files are written to.
func checkGameID(id string) error {
	if err := names.CheckID(id); err != nil {
		return fmt.Errorf("game ID %q: %w", id, err)
	}
	return nil
}
