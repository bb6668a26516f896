//go:build !linux

package main

import (
	"os"
	"syscall"
	"time"
)

// segv kills the process with SIGSEGV. Outside Linux the Go runtime may
// turn it into an exit with status 2; the brain dies either way.
func segv() {
	_ = syscall.Kill(os.Getpid(), syscall.SIGSEGV)
	time.Sleep(time.Second)
	os.Exit(128 + int(syscall.SIGSEGV))
}
