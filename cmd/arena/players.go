package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"arena/bot"
	"arena/match"
)

// player is a bot given on the command line or in a bots file, or a
// person playing in the web page ("arena serve"): one description from
// the flag to bot.Start.
type player = match.Player

// parsePlayers reads the --bot flags: "CMD" or "NAME=CMD". The command
// "builtin" (followed by options) is arena's own bot for the game, run as
// "arena bot GAME". Names default to the program's base name and are made
// unique.
func parsePlayers(specs []string, gameName string) ([]player, error) {
	var out []player
	seen := map[string]int{}
	for _, spec := range specs {
		name, cmdline := "", spec
		if i := strings.IndexByte(spec, '='); i > 0 && !strings.ContainsAny(spec[:i], " \t/\\'\"") {
			name, cmdline = spec[:i], spec[i+1:]
		}
		p, err := parseBot(name, cmdline, gameName, "")
		if err != nil {
			return nil, fmt.Errorf("--bot %q: %w", spec, err)
		}
		seen[p.Name]++
		if n := seen[p.Name]; n > 1 {
			p.Name = fmt.Sprintf("%s#%d", p.Name, n)
		}
		out = append(out, p)
	}
	return out, nil
}

// parseBot makes the bot of one command line of gameName; name "" names
// it after its program. A program given without a folder is looked for
// in dir first, when dir is set, then as a shell would.
func parseBot(name, cmdline, gameName, dir string) (player, error) {
	args, err := bot.SplitCommand(cmdline)
	if err != nil {
		return player{}, err
	}
	p := player{Name: name, Command: cmdline}
	if args[0] == "builtin" {
		self, err := os.Executable()
		if err != nil {
			return player{}, fmt.Errorf("find arena itself: %w", err)
		}
		p.Args = append([]string{self, "bot", gameName}, args[1:]...)
		p.Builtin = true
		if p.Name == "" {
			p.Name = "builtin"
		}
		return p, nil
	}
	if dir == "" {
		// As a shell started where arena was would read it.
		resolved, err := bot.ResolveCommand(args, "")
		if err != nil {
			return player{}, err
		}
		p.Args = resolved
	} else {
		program := args[0]
		if !filepath.IsAbs(program) {
			if inDir := filepath.Join(dir, program); strings.ContainsRune(program, '/') || isFile(inDir) {
				program = inDir
			}
		}
		prog, err := bot.ResolveProgram(program)
		if err != nil {
			return player{}, err
		}
		p.Args = append([]string{prog}, args[1:]...)
	}
	if p.Name == "" {
		p.Name = programName(args)
	}
	return p, nil
}

// isFile reports whether path names a file (not a folder).
func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

// programName names a bot after its program, or after the script an
// interpreter runs ("python3 bot.py" is "bot").
func programName(args []string) string {
	prog := filepath.Base(args[0])
	interpreters := map[string]bool{"python": true, "python3": true, "node": true, "java": true, "sh": true, "bash": true, "perl": true, "ruby": true}
	if interpreters[prog] {
		for _, a := range args[1:] {
			if !strings.HasPrefix(a, "-") {
				prog = filepath.Base(a)
				break
			}
		}
	}
	return strings.TrimSuffix(prog, filepath.Ext(prog))
}

// openTranscripts creates the debug transcript of each player of a game.
func openTranscripts(dir, gameID string, players []player) ([]*bot.Transcript, func(), error) {
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	logs := make([]*bot.Transcript, len(players))
	for i, p := range players {
		f, err := os.Create(filepath.Join(dir, gameID+"-"+safeName(p.Name)+".log"))
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("--debug: %w", err)
		}
		files = append(files, f)
		logs[i] = bot.NewTranscript(f)
	}
	return logs, closeAll, nil
}

// safeName keeps a player's name usable in a file name.
func safeName(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 || r == ' ' {
			return '_'
		}
		return r
	}, name)
}
