package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCloneStandsAlone checks that the repository needs nothing beside it:
// it clones the committed HEAD into a temporary folder, which has no
// sibling folder of the workspace, and runs the Ants conformance tests
// (the referee's, the CPython random's and the CLI's) there. A test that
// reads data from outside the repository fails in the clone. The clone
// holds only committed files, so work in progress is checked once it is
// committed.
func TestCloneStandsAlone(t *testing.T) {
	if os.Getenv("ARENA_TEST_IN_CLONE") != "" {
		t.Skip("already running inside the clone")
	}
	if raceEnabled {
		t.Skip("the clone's tests run other processes only; the plain run covers them")
	}
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed: cannot clone the repository")
	}
	goPath, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to test the clone: %v", err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root: %v", err)
	}

	clone := filepath.Join(t.TempDir(), "arena")
	run := func(dir string, env []string, name string, args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %s in %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), dir, err, out.String())
		}
		return out.String()
	}
	// Fetching HEAD (rather than cloning the default branch) takes the
	// commit checked out here, also in a worktree or on a detached HEAD.
	run(filepath.Dir(clone), nil, gitPath, "init", "--quiet", clone)
	run(clone, nil, gitPath, "fetch", "--quiet", "--depth=1", root, "HEAD")
	run(clone, nil, gitPath, "checkout", "--quiet", "FETCH_HEAD")
	if beside, err := os.ReadDir(filepath.Dir(clone)); err != nil || len(beside) != 1 {
		t.Fatalf("the clone's folder holds %v (%v), want the clone alone", beside, err)
	}

	// The build and module caches are the ones this test runs with, so
	// only the repository's own packages are compiled again.
	out := run(clone, []string{"ARENA_TEST_IN_CLONE=1"}, goPath, "test", "-count=1", "-v",
		"-run", "Conformance|AgainstCPython",
		"./game/ants/", "./game/ants/pyrandom/", "./cmd/arena/")
	for _, want := range []string{
		"--- PASS: TestConformance ",
		"--- PASS: TestAntsConformanceCommand ",
		"--- PASS: TestAntsConformanceCommandReportsDifference ",
		"--- PASS: TestAgainstCPython ",
		"--- PASS: TestSetOrderAgainstCPython ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the clone's tests did not report %q:\n%s", want, out)
		}
	}
}
