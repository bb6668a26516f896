package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"arena/contest"
)

func newSubmitCmd() *cobra.Command {
	var server, token, contestName string
	var wait time.Duration
	cmd := &cobra.Command{
		Use:   "submit --server URL --token TOKEN --contest NAME PATH",
		Short: "Upload a bot to a contest (a folder, a zip, a tar.gz or one source file) and wait for its verdict",
		Long: `Upload a bot to a contest that arena serve runs. PATH is a folder (sent as a
tar.gz), a .zip or .tar.gz archive, or a single source file or Linux binary.
The server builds it in its sandbox and plays test games against the
game's built-in bot; submit waits for that and exits 0 once the bot is
accepted, or prints the reason and the log and exits non-zero when it is
rejected. The token is the participant's (arena contest user add); it
may also come from $ARENA_CONTEST_TOKEN.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if token == "" {
				token = os.Getenv("ARENA_CONTEST_TOKEN")
			}
			if server == "" || token == "" || contestName == "" {
				return errors.New("submit needs --server, --token and --contest")
			}
			return submit(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), server, token, contestName, args[0], wait)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&server, "server", "", "the contest server's address, e.g. http://127.0.0.1:8080")
	fl.StringVar(&token, "token", "", "the participant's token (default $ARENA_CONTEST_TOKEN)")
	fl.StringVar(&contestName, "contest", "", "the contest")
	fl.DurationVar(&wait, "wait", 10*time.Minute, "how long to wait for the verdict")
	return cmd
}

// submitted is the server's answer about a submission.
type submitted struct {
	ID     string `json:"id"`
	State  string `json:"state"`
	Reason string `json:"reason"`
	Log    string `json:"log"`
	Error  string `json:"error"`
}

func submit(ctx context.Context, stdout, stderr io.Writer, server, token, contestName, path string, wait time.Duration) error {
	body, name, err := uploadBody(path)
	if err != nil {
		return err
	}
	base := strings.TrimRight(server, "/") + "/api/contests/" + url.PathEscape(contestName) + "/submissions"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("submit: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/octet-stream")
	req.Header.Set("X-Filename", name)
	var s submitted
	if err := doJSON(req, &s); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "arena: submission %s uploaded; building and testing it\n", s.ID)
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	for s.State == "compiling" {
		select {
		case <-ctx.Done():
			return fmt.Errorf("submission %s: no verdict within %v", s.ID, wait)
		case <-time.After(500 * time.Millisecond):
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/"+url.PathEscape(s.ID), nil)
		if err != nil {
			return fmt.Errorf("submit: %w", err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		if err := doJSON(req, &s); err != nil {
			return err
		}
	}
	if s.State != "accepted" {
		fmt.Fprint(stderr, s.Log)
		return fmt.Errorf("submission %s rejected: %s", s.ID, s.Reason)
	}
	fmt.Fprintf(stdout, "submission %s accepted\n", s.ID)
	return nil
}

// uploadBody is what is sent for PATH: a folder packed as tar.gz, a file
// as it is.
func uploadBody(path string) ([]byte, string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, "", fmt.Errorf("submit: %w", err)
	}
	if !fi.IsDir() {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, "", fmt.Errorf("submit: %w", err)
		}
		return data, filepath.Base(path), nil
	}
	var b bytes.Buffer
	if err := contest.Pack(path, &b); err != nil {
		return nil, "", fmt.Errorf("submit: %w", err)
	}
	return b.Bytes(), filepath.Base(filepath.Clean(path)) + ".tar.gz", nil
}

func doJSON(req *http.Request, v *submitted) error {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("submit: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return fmt.Errorf("submit: %w", err)
	}
	*v = submitted{}
	if err := json.Unmarshal(data, v); err != nil || resp.StatusCode >= 300 {
		msg := strings.TrimSpace(string(data))
		if v.Error != "" {
			msg = v.Error
		}
		return fmt.Errorf("submit: the server answered %s: %s", resp.Status, msg)
	}
	return nil
}
