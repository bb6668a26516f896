// Package browsertest finds and sets up the headless Chromium that the
// tests of the web pages drive (Debian's chromium; scripts/chromium.sh
// installs it and prints its path).
package browsertest

import (
	"os"
	"testing"

	"github.com/chromedp/chromedp"
)

// Env names the variable that holds the browser's path, or "skip".
const Env = "ARENA_TEST_CHROMIUM"

// Path returns the browser to drive, failing the test when Env is not
// set and skipping it when Env is "skip".
func Path(t testing.TB) string {
	t.Helper()
	path := os.Getenv(Env)
	switch path {
	case "":
		t.Fatalf("%s is not set: run scripts/chromium.sh and export the path it prints (%s=\"$(scripts/chromium.sh)\"), "+
			"or set %s=skip to skip the browser tests", Env, Env, Env)
	case "skip":
		t.Skipf("%s=skip", Env)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("%s=%s: %v", Env, path, err)
	}
	return path
}

// Options are the allocator options for a headless browser at path with
// a profile of its own in profile. Chromium's own temporary files go to
// a folder removed when the test ends: a browser that is killed, as
// chromedp ends it, would leave its singleton socket's folder in the
// system's temporary folder.
func Options(t testing.TB, path, profile string) []chromedp.ExecAllocatorOption {
	t.Helper()
	// Short, because a socket's path has at most 107 bytes.
	tmp, err := os.MkdirTemp("", "chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	return append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.UserDataDir(profile),
		chromedp.Env("TMPDIR="+tmp),
	)
}
