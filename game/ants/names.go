package ants

import (
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// CommandName is the name playgame.py gives a bot in the replay's
// playernames: the base name of the last word of its command that is an
// existing path ("python3 bots/HunterBot.py --depth 3" is
// "HunterBot.py", "/x/arena bot ants" is "arena"), or "" when no word is
// (the engine writes null then). exists says whether a word names an
// existing path; the engine asks the file system, relative to the folder
// it was started in.
func CommandName(words []string, exists func(string) bool) string {
	for i := len(words) - 1; i >= 0; i-- {
		if exists(words[i]) {
			return filepath.Base(words[i])
		}
	}
	return ""
}

// pathExists is the engine's os.path.exists: relative paths are taken
// from the current folder, no search along PATH.
func pathExists(word string) bool {
	_, err := os.Stat(word)
	return err == nil
}

// ReplayName is the player's name in the replay: CommandName of the
// command arena runs, judged in arena's own folder as playgame.py judges
// it in its own, or the arena name when no word is an existing path.
func ReplayName(p Player) string {
	if name := CommandName(p.Args, pathExists); name != "" {
		return name
	}
	return p.Name
}

// looksLikeFile stands in for the file system when the folder the
// command ran in is not here (a game recorded from the official engine):
// a word was an existing path when it is written as one, with a folder
// ("dist/sample_bots/python/HunterBot.py", "./MyBot") or a file
// extension ("MyBot.py"), and is not an option ("--depth") or a number
// ("0.5"). A bare program name ("python3") is not: the engine does not
// search PATH.
func looksLikeFile(word string) bool {
	if word == "" || strings.HasPrefix(word, "-") {
		return false
	}
	if strings.ContainsRune(word, '/') {
		return true
	}
	return strings.ContainsFunc(filepath.Ext(word), unicode.IsLetter)
}
