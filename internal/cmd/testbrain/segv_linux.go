package main

import (
	"os"
	"syscall"
	"time"
	"unsafe"
)

// segv kills the process with SIGSEGV, as a brain that dereferences a bad
// pointer would die. The Go runtime turns a SIGSEGV sent by kill into an
// ordinary exit with status 2, so the default action is restored first by
// a raw rt_sigaction (an all-zero struct sigaction is SIG_DFL), and core
// dumps are switched off.
func segv() {
	_ = syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{})
	var act [8]uint64 // larger than the kernel's struct sigaction
	const sigsetSize = 8
	_, _, _ = syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(syscall.SIGSEGV),
		uintptr(unsafe.Pointer(&act)), 0, sigsetSize, 0, 0)
	_ = syscall.Kill(os.Getpid(), syscall.SIGSEGV)
	time.Sleep(time.Second)
	os.Exit(128 + int(syscall.SIGSEGV)) // not reached
}
