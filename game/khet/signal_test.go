package khet

import "syscall"

// killZero probes a process group with signal 0.
func killZero(pgid int) error { return syscall.Kill(-pgid, 0) }
