package bot

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// SplitCommand splits a command line the way a POSIX shell would for
// plain words: spaces separate arguments, single quotes keep text as is,
// double quotes keep spaces, and a backslash escapes the next character.
// It does not expand variables or globs.
func SplitCommand(s string) ([]string, error) {
	var (
		args    []string
		cur     strings.Builder
		inWord  bool
		quote   byte
		escaped bool
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case escaped:
			cur.WriteByte(c)
			escaped = false
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case quote == '"':
			switch c {
			case '"':
				quote = 0
			case '\\':
				if i+1 < len(s) && strings.IndexByte(`"\$`+"`", s[i+1]) >= 0 {
					i++
					cur.WriteByte(s[i])
				} else {
					cur.WriteByte(c)
				}
			default:
				cur.WriteByte(c)
			}
		case c == '\\':
			escaped, inWord = true, true
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("command %q: unterminated %c quote", s, quote)
	}
	if escaped {
		return nil, fmt.Errorf("command %q: ends with a backslash", s)
	}
	if inWord {
		args = append(args, cur.String())
	}
	if len(args) == 0 {
		return nil, errors.New("empty command")
	}
	return args, nil
}

// ResolveProgram turns the program name of a command into an absolute
// path, so the bot can be started from any working folder and can find
// its own files through argv[0] (the Gomocup file protocol requires it).
// A name without a slash is looked up in PATH.
func ResolveProgram(name string) (string, error) {
	var path string
	if strings.ContainsRune(name, '/') {
		path = name
	} else {
		p, err := exec.LookPath(name)
		if err != nil {
			return "", fmt.Errorf("bot program %q: %w", name, err)
		}
		path = p
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("bot program %q: %w", name, err)
	}
	if _, err := exec.LookPath(abs); err != nil {
		return "", fmt.Errorf("bot program %q: %w", name, err)
	}
	return abs, nil
}

// ResolveCommand makes a command independent of the folder it runs in,
// as it would read in a shell started in base ("" = the current folder):
// the program becomes an absolute path (ResolveProgram, with a relative
// path read against base), and every later word that is a relative path
// naming an existing file or folder below base becomes absolute, so
// "python3 bots/pbrain-x.py" or "java -jar ../x.jar" still finds its
// script from the bot's own working folder. Options ("-x", "--x=...")
// and words that name nothing are left as they are.
func ResolveCommand(args []string, base string) ([]string, error) {
	if len(args) == 0 {
		return nil, errors.New("empty command")
	}
	if base == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("resolve command: %w", err)
		}
		base = wd
	}
	prog := args[0]
	if strings.ContainsRune(prog, '/') && !filepath.IsAbs(prog) {
		prog = filepath.Join(base, prog)
	}
	prog, err := ResolveProgram(prog)
	if err != nil {
		return nil, err
	}
	out := append(make([]string, 0, len(args)), prog)
	for _, a := range args[1:] {
		if a != "" && !filepath.IsAbs(a) && !strings.HasPrefix(a, "-") {
			if abs := filepath.Join(base, a); exists(abs) {
				a = abs
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// exists reports whether path names a file or folder.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
