package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"arena/internal/syncbuf"
)

// TestServeToken: the token comes from --token-file or ARENA_TOKEN, never
// argv; --token is refused with a line naming both ways.
func TestServeToken(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good", "s3cret-Token\n", 0o600)
	open := write("open", "s3cret-Token", 0o644)
	empty := write("empty", " \n", 0o600)
	spaced := write("spaced", "two words", 0o600)
	long := write("long", strings.Repeat("x", maxTokenFile+1), 0o600)
	for _, tc := range []struct {
		name      string
		file, env string // env "-": unset
		want      string // the token, or "error: ..." text
		warn      bool
	}{
		{"file", good, "-", "s3cret-Token", false},
		{"file readable by others", open, "-", "s3cret-Token", true},
		{"environment", "", " envTok ", "envTok", false},
		{"both", good, "envTok", "error: both give a token", false},
		{"empty file", empty, "-", "error: empty token", false},
		{"spaces", spaced, "-", "error: want printable ASCII without spaces", false},
		{"long file", long, "-", "error: longer than", false},
		{"missing file", filepath.Join(dir, "none"), "-", "error: no such file", false},
		{"empty environment", "", "", "error: ARENA_TOKEN: empty token", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(tokenEnv, "") // restored after the test
			if tc.env == "-" {
				os.Unsetenv(tokenEnv)
			} else {
				os.Setenv(tokenEnv, tc.env)
			}
			var warn bytes.Buffer
			tok, err := serveToken(tc.file, &warn)
			if want, isErr := strings.CutPrefix(tc.want, "error: "); isErr {
				if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("token %q, error %v; want one line with %q", tok, err, want)
				}
			} else if err != nil || tok != tc.want {
				t.Fatalf("token %q, %v; want %q", tok, err, tc.want)
			}
			if got := warn.Len() > 0; got != tc.warn {
				t.Errorf("warning %q, want one: %v", warn.String(), tc.warn)
			}
			if _, set := os.LookupEnv(tokenEnv); set {
				t.Errorf("%s is still in the environment the bots inherit", tokenEnv)
			}
		})
	}
	t.Run("random", func(t *testing.T) {
		t.Setenv(tokenEnv, "")
		os.Unsetenv(tokenEnv)
		a, err1 := serveToken("", &bytes.Buffer{})
		b, err2 := serveToken("", &bytes.Buffer{})
		if err1 != nil || err2 != nil || len(a) != 32 || a == b {
			t.Errorf("random tokens %q %v, %q %v", a, err1, b, err2)
		}
	})
}

// TestServeTokenFlags runs "arena serve": --token stops it with one line
// that says why and names the two ways; --token-file's token is the one
// the printed address carries; --allowed-host names are served and other
// names refused.
func TestServeTokenFlags(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(tokenEnv, "")
	os.Unsetenv(tokenEnv)
	root := newRoot()
	var stdout, stderr syncbuf.Buffer
	root.SetOut(&stdout)
	root.SetErr(&stderr)
	root.SetArgs([]string{"serve", "--addr", "127.0.0.1:0", "--out", dir, "--token", "abc"})
	err := root.ExecuteContext(context.Background())
	if err == nil || !strings.Contains(err.Error(), "--token-file") || !strings.Contains(err.Error(), tokenEnv) ||
		strings.Contains(err.Error(), "\n") {
		t.Fatalf("--token: %v, want one line naming --token-file and %s", err, tokenEnv)
	}

	file := filepath.Join(dir, "token")
	if err := os.WriteFile(file, []byte("fromFile42\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root = newRoot()
	stdout, stderr = syncbuf.Buffer{}, syncbuf.Buffer{}
	root.SetOut(&stdout)
	root.SetErr(&stderr)
	root.SetArgs([]string{"serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "arena.db"), "--out", dir,
		"--token-file", file, "--allowed-host", "arena.example.org"})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	line := regexp.MustCompile(`^arena: serving on (http://127\.0\.0\.1:[0-9]+/)#token=fromFile42\n$`)
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(stdout.String(), "\n"); time.Sleep(10 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("serve ended: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing printed; stderr:\n%s", stderr.String())
		}
	}
	m := line.FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatalf("stdout %q, want the token of the file", stdout.String())
	}
	for host, want := range map[string]int{"arena.example.org": http.StatusOK, "evil.example.com": http.StatusMisdirectedRequest} {
		req, _ := http.NewRequest("GET", m[1]+"api/info", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: %s, want %d", host, resp.Status, want)
		}
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}
