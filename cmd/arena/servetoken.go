package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// tokenEnv is the environment variable "arena serve" reads its token
// from when no --token-file is given.
const tokenEnv = "ARENA_TOKEN"

// errTokenFlag is the answer to --token: a secret on the command line is
// readable by every process on the machine (ps, /proc/PID/cmdline),
// bots included.
var errTokenFlag = errors.New("--token: a token on the command line is visible to every process (ps, /proc); " +
	"give it with --token-file PATH or the environment variable " + tokenEnv)

// maxTokenFile caps what --token-file reads: a token is one short line.
const maxTokenFile = 4 << 10

// serveToken is the token of "arena serve": read from file when one is
// named, else from the environment variable ARENA_TOKEN, else a random
// one. The variable is removed from arena's environment once read, so
// the bots it starts do not inherit it. warn gets a line when the
// file can be read by other users.
func serveToken(file string, warn io.Writer) (string, error) {
	env, inEnv := os.LookupEnv(tokenEnv)
	if inEnv {
		os.Unsetenv(tokenEnv)
	}
	switch {
	case file != "" && inEnv:
		return "", fmt.Errorf("--token-file %s and %s both give a token: give one", file, tokenEnv)
	case file != "":
		return readTokenFile(file, warn)
	case inEnv:
		tok := strings.TrimSpace(env)
		if err := checkToken(tok); err != nil {
			return "", fmt.Errorf("%s: %w", tokenEnv, err)
		}
		return tok, nil
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// readTokenFile reads a token file: one line, surrounding white space
// ignored.
func readTokenFile(path string, warn io.Writer) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().Perm()&0o077 != 0 {
		fmt.Fprintf(warn, "warning: --token-file %s can be read by other users (mode %v): chmod 600 it\n", path, fi.Mode().Perm())
	}
	data, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	if err != nil {
		return "", fmt.Errorf("--token-file %s: %w", path, err)
	}
	if len(data) > maxTokenFile {
		return "", fmt.Errorf("--token-file %s: longer than %d bytes, want one line", path, maxTokenFile)
	}
	tok := strings.TrimSpace(string(data))
	if err := checkToken(tok); err != nil {
		return "", fmt.Errorf("--token-file %s: %w", path, err)
	}
	return tok, nil
}

// checkToken accepts a token that fits an Authorization header and a
// URL fragment: printable ASCII without spaces.
func checkToken(tok string) error {
	if tok == "" {
		return errors.New("empty token")
	}
	for _, r := range tok {
		if r <= ' ' || r >= 0x7f {
			return fmt.Errorf("the token holds %q: want printable ASCII without spaces", r)
		}
	}
	return nil
}
