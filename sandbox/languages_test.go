package sandbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/bot"
)

// TestLanguagesRunSandboxed starts bots in the languages contests see —
// a shell script, Python, Java (a JVM with its threads and memory maps),
// C# on mono, and a brain that forks a helper for every line — in every
// mode, and checks that each answers its lines.
func TestLanguagesRunSandboxed(t *testing.T) {
	src := t.TempDir()
	os.Chmod(src, 0o755)
	write := func(name, text string) string {
		path := filepath.Join(src, name)
		if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	bots := map[string]func(t *testing.T) []string{
		"shell": func(t *testing.T) []string {
			return []string{write("echo.sh", "#!/bin/sh\nwhile read x; do echo \"got $x\"; done\n")}
		},
		"python": func(t *testing.T) []string {
			py := lookPath(t, "python3")
			return []string{py, write("echo.py", "import sys\nfor line in sys.stdin:\n    print('got ' + line.strip(), flush=True)\n")}
		},
		"java": func(t *testing.T) []string {
			java := lookPath(t, "java")
			return []string{java, "-Xmx64m", write("Echo.java", `import java.io.*;
public class Echo {
    public static void main(String[] a) throws Exception {
        Thread t = new Thread(() -> {}); t.start(); t.join();
        BufferedReader r = new BufferedReader(new InputStreamReader(System.in));
        for (String l; (l = r.readLine()) != null; ) { System.out.println("got " + l); System.out.flush(); }
    }
}
`)}
		},
		"csharp": func(t *testing.T) []string {
			// Compiled outside the sandbox, as a contest's build step
			// would; the runtime (its JIT, threads and memory maps) runs
			// inside it.
			mono := lookPath(t, "mono")
			mcs := lookPath(t, "mcs")
			source := write("Echo.cs", `using System;
using System.Threading;
public class Echo {
    public static void Main() {
        var t = new Thread(() => {}); t.Start(); t.Join();
        for (string l; (l = Console.ReadLine()) != null; ) { Console.WriteLine("got " + l); Console.Out.Flush(); }
    }
}
`)
			exe := filepath.Join(src, "Echo.exe")
			if out, err := exec.Command(mcs, "-out:"+exe, source).CombinedOutput(); err != nil {
				t.Fatalf("mcs: %v\n%s", err, out)
			}
			return []string{mono, exe}
		},
		"forking": func(t *testing.T) []string {
			sh := lookPath(t, "sh")
			return []string{sh, write("fork.sh", "while read x; do y=$(sh -c \"echo $x\" | cat); (echo \"got $y\") & wait; done\n")}
		},
	}
	for name, args := range bots {
		for _, m := range modes(t) {
			t.Run(name+"/"+string(m), func(t *testing.T) {
				sb := newSandbox(t, m, testPolicy(m))
				p, err := bot.Start(bot.Config{Args: args(t), Dir: t.TempDir(), Interactive: true, Sandbox: sb})
				if err != nil {
					t.Fatal(err)
				}
				defer p.Close()
				for _, w := range []string{"a", "b", "c"} {
					deadline := time.Now().Add(time.Minute)
					if err := p.WriteString(w+"\n", deadline); err != nil {
						t.Fatal(err)
					}
					line, err := p.ReadLine(deadline)
					if err != nil || strings.TrimSpace(line) != "got "+w {
						t.Fatalf("answer to %q: %q %v; stderr %s", w, line, err, p.Stderr())
					}
					p.Pause()
					p.Resume()
				}
			})
		}
	}
}
