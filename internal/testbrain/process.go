package testbrain

import (
	"fmt"
	"os"
	"syscall"
)

// PidFileEnv names the environment variable holding the file to which a
// test program appends a "PID PGID" line when it starts, so that tests
// can check nothing it started survives.
const PidFileEnv = "TESTBRAIN_PIDFILE"

// NoteStart appends this process's "PID PGID" line to $TESTBRAIN_PIDFILE
// when it is set, and opens logPath ("" = none) for appending the lines
// the program receives, headed by a START line. A log that cannot be
// opened ends the program with status 2: the test that asked for it
// would otherwise wait for lines that never come.
func NoteStart(logPath string) *os.File {
	if pf := os.Getenv(PidFileEnv); pf != "" {
		if f, err := os.OpenFile(pf, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintf(f, "%d %d\n", os.Getpid(), syscall.Getpgrp())
			f.Close()
		}
	}
	if logPath == "" {
		return nil
	}
	log, err := os.OpenFile(logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Fprintln(log, "START")
	return log
}
