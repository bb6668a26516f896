package contest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/sandbox"
)

// testSandbox is this machine's sandbox in auto mode.
func testSandbox(t testing.TB) *sandbox.Sandbox {
	sb, err := sandbox.New(sandbox.Policy{Mode: sandbox.Auto}, sandbox.Probe(context.Background(), sandbox.NetNone))
	if err != nil {
		t.Fatal(err)
	}
	return sb
}

// writeFiles makes a bot folder of the given files.
func writeFiles(t testing.TB, files map[string]string) string {
	dir := filepath.Join(t.TempDir(), "bot")
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestDetect(t *testing.T) {
	elf, err := os.ReadFile("/bin/true")
	if err != nil {
		t.Skip(err)
	}
	for _, c := range []struct {
		name  string
		files map[string]string
		lang  string
		main  string
		err   string
	}{
		{"python seed layout", map[string]string{"__init__.py": "", "util.py": ""}, "python", "__init__.py", ""},
		{"one python file", map[string]string{"mine.py": ""}, "python", "mine.py", ""},
		{"python without entry", map[string]string{"a.py": "", "b.py": ""}, "", "", "none of"},
		{"go module", map[string]string{"go.mod": "module x", "main.go": "", "x.c": ""}, "go", "", ""},
		{"c", map[string]string{"bot.c": "", "util.h": ""}, "c", "", ""},
		{"c++", map[string]string{"bot.cpp": ""}, "c++", "", ""},
		{"java with main", map[string]string{"A.java": "class A {}", "B.java": "class B { public static void main(String[] a) {} }"}, "java", "B.java", ""},
		{"java seed", map[string]string{"Program.java": ""}, "java", "Program.java", ""},
		{"rust", map[string]string{"main.rs": ""}, "rust", "main.rs", ""},
		{"c#", map[string]string{"Bot.cs": ""}, "c#", "", ""},
		{"javascript", map[string]string{"main.js": "", "lib.js": ""}, "javascript", "main.js", ""},
		{"binary", map[string]string{"mybot": string(elf), "README": "hi"}, "binary", "mybot", ""},
		{"nothing", map[string]string{"README": "hi"}, "", "", "no source file"},
		{"sources only in a sub-folder", map[string]string{"src/x.py": ""}, "", "", "no source file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := Detect(writeFiles(t, c.files))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("Detect = %+v, %v; want an error saying %q", d.Name, err, c.err)
				}
				return
			}
			if err != nil || d.Name != c.lang || d.Main != c.main {
				t.Fatalf("Detect = %q %q, %v; want %q %q", d.Name, d.Main, err, c.lang, c.main)
			}
		})
	}
}

func TestBuild(t *testing.T) {
	sb := testSandbox(t)
	for _, c := range []struct {
		name  string
		files map[string]string
		lim   BuildLimits
		err   string // in the error; "" = builds
		log   string // in the log
	}{
		{"python", map[string]string{"__init__.py": "print('hi')\n"}, DefaultBuildLimits(), "", "compileall"},
		{"python syntax error", map[string]string{"__init__.py": "def (:\n"}, DefaultBuildLimits(), "exited with exit status 1", "SyntaxError"},
		{"c", map[string]string{"bot.c": "#include <stdio.h>\nint main(void){puts(\"x\");return 0;}\n"}, DefaultBuildLimits(), "", "gcc"},
		{"c error", map[string]string{"bot.c": "int main(void){ return nope; }\n"}, DefaultBuildLimits(), "exited", "nope"},
		{"c including a device", map[string]string{"bot.c": "#include \"/dev/zero\"\n"},
			BuildLimits{Time: 3 * time.Second, Memory: 256 << 20}, "build failed", ""},
		{"go without a module", map[string]string{"main.go": "package main\n\nimport \"os\"\n\nfunc main() { os.Stdout.WriteString(\"x\\n\") }\n"}, DefaultBuildLimits(), "", "go build"},
		{"java", map[string]string{"Program.java": "public class Program { public static void main(String[] a) { System.out.println(1); } }\n"}, DefaultBuildLimits(), "", "javac"},
		{"c++", map[string]string{"bot.cpp": "#include <iostream>\nint main() { std::cout << 1 << std::endl; }\n"}, DefaultBuildLimits(), "", "g++"},
		{"javascript", map[string]string{"main.js": "console.log(1)\n"}, DefaultBuildLimits(), "", "node --check"},
		{"c#", map[string]string{"Bot.cs": "public class Bot { public static void Main() { System.Console.WriteLine(1); } }\n"}, DefaultBuildLimits(), "", "mcs"},
		{"c# error", map[string]string{"Bot.cs": "public class Bot { public static void Main() { nope(); } }\n"}, DefaultBuildLimits(), "exited", "nope"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, c.files)
			d, err := Detect(dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Available(); err != nil {
				t.Skip(err)
			}
			log, run, err := Build(t.Context(), dir, d, sb, c.lim)
			if c.err == "" {
				if err != nil {
					t.Fatalf("Build: %v\n%s", err, log)
				}
				if !filepath.IsAbs(run[0]) {
					t.Errorf("run command %q is not absolute", run)
				}
			} else if err == nil || !errors.Is(err, ErrBuild) || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("Build: %v, want ErrBuild saying %q\n%s", err, c.err, log)
			}
			if !strings.Contains(log, c.log) {
				t.Errorf("log lacks %q:\n%s", c.log, log)
			}
		})
	}
}

func TestBuildMissingTool(t *testing.T) {
	d := Detected{Language: Language{Name: "x", Title: "X", Tools: []string{"no-such-compiler-here"}}}
	_, _, err := Build(t.Context(), t.TempDir(), d, nil, DefaultBuildLimits())
	if !errors.Is(err, ErrBuild) || !strings.Contains(err.Error(), "not installed on this server") {
		t.Fatalf("Build with a missing compiler: %v", err)
	}
}

// A compiler that never ends (here gcc waits on a named pipe no one
// writes) is stopped at the build's time limit and reported.
func TestBuildStopsAHangingCompiler(t *testing.T) {
	dir := writeFiles(t, map[string]string{"bot.c": "#include \"wait.h\"\nint main(void){return 0;}\n"})
	if err := syscall.Mkfifo(filepath.Join(dir, "wait.h"), 0o644); err != nil {
		t.Skip(err)
	}
	d, err := Detect(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Available(); err != nil {
		t.Skip(err)
	}
	_, _, err = Build(t.Context(), dir, d, testSandbox(t), BuildLimits{Time: 2 * time.Second, Memory: 1 << 30})
	if !errors.Is(err, ErrBuild) || !strings.Contains(err.Error(), "ran out of its time") {
		t.Fatalf("Build: %v, want the time limit's refusal", err)
	}
}

// A build that fills the disk is stopped and reported.
func TestBuildStopsFillingTheDisk(t *testing.T) {
	dir := writeFiles(t, map[string]string{"bot.c": "char big[300000000] = {1};\nint main(void){return big[0];}\n"})
	d, err := Detect(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Available(); err != nil {
		t.Skip(err)
	}
	_, _, err = Build(t.Context(), dir, d, testSandbox(t), BuildLimits{Time: time.Minute, Memory: 1 << 30, Disk: 20 << 20})
	if !errors.Is(err, ErrBuild) || !strings.Contains(err.Error(), "wrote more than 20 MB") {
		t.Fatalf("Build: %v, want the disk limit's refusal", err)
	}
}
