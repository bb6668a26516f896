package sandbox_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"arena/sandbox"
)

// TestPlannedInitFitsOnlyItsBot: an init prestarted for a plan becomes
// a bot with the plan's folders, whatever its arguments, and refuses
// (ErrUnplanned, the init ended) a bot with other folders, or whose
// folder was replaced by another at the same path since the plan: it
// bound the old one.
func TestPlannedInitFitsOnlyItsBot(t *testing.T) {
	sh := lookPath(t, "sh")
	for _, mode := range []sandbox.Mode{sandbox.Auto, noNamespaces} {
		if mode == noNamespaces && !probed().On(sandbox.LayerLandlock) {
			continue
		}
		sb := newSandbox(t, mode, testPolicy(mode))
		for _, c := range []struct {
			name string
			// change turns the planned folder into the launched one.
			change func(t *testing.T, dir string) string
			fits   bool
		}{
			{"same folder", func(t *testing.T, dir string) string { return dir }, true},
			{"another folder", func(t *testing.T, dir string) string { return t.TempDir() }, false},
			{"folder replaced", func(t *testing.T, dir string) string {
				if err := os.Rename(dir, dir+".old"); err != nil {
					t.Fatal(err)
				}
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				return dir
			}, false},
		} {
			t.Run(string(mode)+"/"+c.name, func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), "bot")
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				plan := sb.Plan(&exec.Cmd{Path: sh, Args: []string{sh, "-c", "exit 9"}, Dir: dir}, nil)
				if plan == nil {
					t.Fatal("no plan for a bot whose folder is there")
				}
				pr, err := sb.Prestart(nil, plan)
				if err != nil {
					t.Fatal(err)
				}
				out, err := os.CreateTemp(t.TempDir(), "out")
				if err != nil {
					t.Fatal(err)
				}
				defer out.Close()
				launched := c.change(t, dir)
				cmd := &exec.Cmd{Path: sh, Args: []string{sh, "-c", "pwd; exit 7"}, Dir: launched, Stdout: out, Stderr: out}
				err = sb.Launch(pr, cmd, nil, nil)
				if !c.fits {
					if !errors.Is(err, sandbox.ErrUnplanned) {
						t.Fatalf("launch of a bot that does not fit the plan: %v, want ErrUnplanned", err)
					}
					if pr.Cmd.ProcessState == nil {
						t.Error("the refused init was not reaped")
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				err = pr.Cmd.Wait()
				pr.Reaped()
				if code := pr.Cmd.ProcessState.ExitCode(); code != 7 {
					text, _ := os.ReadFile(out.Name())
					t.Fatalf("exit %d (%v), want the bot's 7: %s", code, err, text)
				}
				text, _ := os.ReadFile(out.Name())
				if got := strings.TrimSpace(string(text)); got != launched {
					t.Errorf("the bot ran in %q, want %q", got, launched)
				}
			})
		}
	}
}

// TestPlanNeedsItsFolders: no plan is made for a bot whose folder is
// missing or not absolute.
func TestPlanNeedsItsFolders(t *testing.T) {
	sb := newSandbox(t, sandbox.Auto, testPolicy(sandbox.Auto))
	sh := lookPath(t, "sh")
	for _, dir := range []string{filepath.Join(t.TempDir(), "missing"), "relative", ""} {
		if p := sb.Plan(&exec.Cmd{Path: sh, Args: []string{sh}, Dir: dir}, nil); p != nil {
			t.Errorf("a plan for folder %q", dir)
		}
	}
}

// TestUnplannedInitBindsLate: an init prestarted without a plan (it has
// left the machine's root before its bot is known, where the kernel
// allows) becomes a bot whose folder is reached through a symbolic link,
// sees its folder and nothing of the organiser's, and runs with its own
// arguments.
func TestUnplannedInitBindsLate(t *testing.T) {
	if !probed().On(sandbox.LayerMount) {
		t.Skip("no mount namespace")
	}
	sh := lookPath(t, "sh")
	sb := newSandbox(t, sandbox.Auto, testPolicy(sandbox.Auto))
	root := t.TempDir()
	real := filepath.Join(root, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(real, "mine"), []byte("own\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(root, "secret")
	if err := os.WriteFile(secret, []byte("organiser's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	pr, err := sb.Prestart(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	script := `cat mine; cat ` + secret + ` 2>/dev/null || echo sealed; echo new > made; pwd; exit 5`
	cmd := &exec.Cmd{Path: sh, Args: []string{sh, "-c", script}, Dir: link, Stdout: out, Stderr: out}
	if err := sb.Launch(pr, cmd, nil, nil); err != nil {
		t.Fatal(err)
	}
	pr.Cmd.Wait()
	pr.Reaped()
	text, _ := os.ReadFile(out.Name())
	if code := pr.Cmd.ProcessState.ExitCode(); code != 5 {
		t.Fatalf("exit %d, want the bot's 5: %s", code, text)
	}
	if want := "own\nsealed\n" + link + "\n"; string(text) != want {
		t.Errorf("the bot said %q, want %q", text, want)
	}
	if made, err := os.ReadFile(filepath.Join(real, "made")); err != nil || string(made) != "new\n" {
		t.Errorf("the bot's file in its folder: %q, %v", made, err)
	}
}
