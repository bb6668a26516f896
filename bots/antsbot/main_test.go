package antsbot

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// The test binary doubles as a bot program: "antsbot-play NAME" plays
// arena's bot (NAME "arena") or a sample strategy on stdin/stdout, so the
// strength test can run real processes through the referee.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "antsbot-play" {
		bot := New()
		if path := os.Getenv("ANTSBOT_LOG"); path != "" {
			if f, err := os.Create(path); err == nil {
				bot.Log = f
			}
		}
		var pl Player = bot
		if os.Args[2] != "arena" {
			var err error
			if pl, err = NewSample(os.Args[2], 0); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
		}
		if err := Run(context.Background(), os.Stdin, os.Stdout, pl); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
