package contest

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Language is how a bot of one language is built and run: fixed
// commands, the same for every submission, listed on the contest's page.
type Language struct {
	Name  string // "python", "go", ...
	Title string // "Python 3"
	// Tools are the programs the commands need; a missing one rejects the
	// submission, saying so.
	Tools []string
	// Compile are the commands run in the bot's folder, in order, each
	// word "{main}" replaced by the entry file.
	Compile [][]string
	// Run is the bot's command in its working folder (a copy of the
	// built folder), "{main}" replaced as in Compile; a first word
	// "./bot" is the built program.
	Run []string
	// Ext are the file extensions that mark the language; Entries the
	// entry files preferred, in order, when there are several.
	Ext     []string
	Entries []string
}

// Languages lists the languages a contest takes, in the order detection
// tries them (a folder with a go.mod is Go even if it holds C files).
func Languages() []Language {
	return []Language{
		{Name: "go", Title: "Go", Tools: []string{"go"}, Ext: []string{".go"},
			Compile: [][]string{{"go", "build", "-o", "bot", "."}}, Run: []string{"./bot"}},
		{Name: "rust", Title: "Rust", Tools: []string{"rustc"}, Ext: []string{".rs"}, Entries: []string{"main.rs"},
			Compile: [][]string{{"rustc", "-O", "-o", "bot", "{main}"}}, Run: []string{"./bot"}},
		{Name: "c++", Title: "C++ (g++ -std=gnu++17)", Tools: []string{"g++"}, Ext: []string{".cpp", ".cc", ".cxx"},
			Compile: [][]string{{"sh", "-c", "g++ -O2 -std=gnu++17 -o bot $(ls *.cpp *.cc *.cxx 2>/dev/null) -lm"}}, Run: []string{"./bot"}},
		{Name: "c", Title: "C (gcc -std=gnu11)", Tools: []string{"gcc"}, Ext: []string{".c"},
			Compile: [][]string{{"sh", "-c", "gcc -O2 -std=gnu11 -o bot *.c -lm"}}, Run: []string{"./bot"}},
		{Name: "java", Title: "Java", Tools: []string{"javac", "java"}, Ext: []string{".java"},
			Entries: []string{"Program.java", "MyBot.java", "Main.java", "Bot.java"},
			Compile: [][]string{{"sh", "-c", "javac -encoding UTF-8 -d . *.java"}}, Run: []string{"java", "-cp", ".", "{class}"}},
		{Name: "c#", Title: "C# (mono)", Tools: []string{"mcs", "mono"}, Ext: []string{".cs"},
			Compile: [][]string{{"sh", "-c", "mcs -optimize+ -out:bot.exe *.cs"}}, Run: []string{"mono", "bot.exe"}},
		{Name: "python", Title: "Python 3", Tools: []string{"python3"}, Ext: []string{".py"},
			Entries: []string{"__init__.py", "main.py", "bot.py", "MyBot.py"},
			Compile: [][]string{
				{"python3", "-c", "import py_compile, sys; py_compile.compile(sys.argv[1], doraise=True)", "{main}"},
				{"python3", "-m", "compileall", "-q", "."},
			}, Run: []string{"python3", "-u", "{main}"}},
		{Name: "javascript", Title: "JavaScript (node)", Tools: []string{"node"}, Ext: []string{".js", ".mjs"},
			Entries: []string{"main.js", "bot.js", "MyBot.js", "index.js"},
			Compile: [][]string{{"node", "--check", "{main}"}}, Run: []string{"node", "{main}"}},
		{Name: "binary", Title: "a pre-built Linux binary (ELF)", Run: []string{"./{main}"}},
	}
}

// Detected is what Detect found in a bot's folder.
type Detected struct {
	Language
	Main string // the entry file ("" where the language needs none)
}

// ErrUnknownLanguage is returned when no language's files are found.
var ErrUnknownLanguage = errors.New("no source file of a known language and no Linux binary")

// Detect finds the language of the bot unpacked in dir: by its files'
// extensions (a go.mod or a Cargo.toml decides), or one ELF executable.
func Detect(dir string) (Detected, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return Detected{}, fmt.Errorf("detect language: %w", err)
	}
	sort.Strings(files)
	langs := Languages()
	byName := func(n string) Language {
		i := slices.IndexFunc(langs, func(l Language) bool { return l.Name == n })
		return langs[i]
	}
	if slices.Contains(files, "go.mod") {
		return Detected{Language: byName("go")}, nil
	}
	count := map[string]int{}
	for _, f := range files {
		for _, l := range langs {
			if slices.Contains(l.Ext, strings.ToLower(filepath.Ext(f))) && !strings.Contains(f, "/") {
				count[l.Name]++
			}
		}
	}
	for _, l := range langs {
		if count[l.Name] == 0 {
			continue
		}
		d := Detected{Language: l}
		if len(l.Entries) > 0 || slices.ContainsFunc(l.Run, func(w string) bool { return strings.Contains(w, "{") }) {
			d.Main = entry(dir, files, l)
			if d.Main == "" {
				return Detected{}, fmt.Errorf("%s: several source files and none of %s to start from", l.Title, strings.Join(l.Entries, ", "))
			}
		}
		return d, nil
	}
	var elves []string
	for _, f := range files {
		if strings.Contains(f, "/") {
			continue
		}
		head := make([]byte, 4)
		if fh, err := os.Open(filepath.Join(dir, f)); err == nil {
			fh.Read(head)
			fh.Close()
		}
		if bytes.Equal(head, []byte("\x7fELF")) {
			elves = append(elves, f)
		}
	}
	switch len(elves) {
	case 1:
		return Detected{Language: byName("binary"), Main: elves[0]}, nil
	case 0:
		return Detected{}, ErrUnknownLanguage
	}
	return Detected{}, fmt.Errorf("%d Linux binaries (%s): upload one", len(elves), strings.Join(elves, ", "))
}

// entry picks the file a language starts from: the first of its entry
// names present, the file holding a Java main, or the only source file.
func entry(dir string, files []string, l Language) string {
	for _, e := range l.Entries {
		if slices.Contains(files, e) {
			return e
		}
	}
	var srcs []string
	for _, f := range files {
		if !strings.Contains(f, "/") && slices.Contains(l.Ext, strings.ToLower(filepath.Ext(f))) {
			srcs = append(srcs, f)
		}
	}
	if l.Name == "java" {
		for _, f := range srcs {
			data, _ := os.ReadFile(filepath.Join(dir, f))
			if bytes.Contains(data, []byte("static void main")) {
				return f
			}
		}
	}
	if len(srcs) == 1 {
		return srcs[0]
	}
	return ""
}

// expand replaces {main} and {class} in a command.
func (d Detected) expand(cmd []string) []string {
	out := make([]string, len(cmd))
	class := strings.TrimSuffix(d.Main, filepath.Ext(d.Main))
	for i, w := range cmd {
		out[i] = strings.NewReplacer("{main}", d.Main, "{class}", class).Replace(w)
	}
	return out
}

// toolDirs are where a tool is looked for first: the system's own, which
// the sandbox shows a bot, before the organiser's PATH.
var toolDirs = []string{"/usr/bin", "/bin", "/usr/local/bin", "/usr/local/go/bin"}

// Tool finds the program a command names, or says it is missing.
func Tool(name string) (string, error) {
	for _, d := range toolDirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%s is not installed on this server", name)
	}
	return filepath.Abs(p)
}

// Available tells whether this machine has the tools of a language, and
// if not, which is missing.
func (l Language) Available() error {
	for _, t := range l.Tools {
		if _, err := Tool(t); err != nil {
			return fmt.Errorf("%s bots cannot be built here: %w", l.Title, err)
		}
	}
	return nil
}
