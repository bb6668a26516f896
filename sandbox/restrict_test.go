package sandbox_test

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"arena/sandbox"
)

// TestHostileI386Syscalls is a 64-bit bot that makes the i386 system
// calls the kernel also takes from it (int $0x80), where the native
// filter would see another architecture: unshare with a new user
// namespace and ptrace must be refused as their native forms are.
func TestHostileI386Syscalls(t *testing.T) {
	cc := lookPath(t, "cc")
	eachMode(t, func(t *testing.T, w *world) {
		src := w.writeScript(t, "i386.c", `#include <stdio.h>
static long sys32(long nr, long a, long b) {
	long r;
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(nr), "b"(a), "c"(b) : "memory");
	return r;
}
int main(void) {
	printf("getpid %ld\n", sys32(20, 0, 0) > 0 ? 1L : 0L); /* i386 getpid works */
	printf("unshare %ld\n", sys32(310, 0x10000000, 0)); /* CLONE_NEWUSER */
	printf("ptrace %ld\n", sys32(26, 0, 0));            /* PTRACE_TRACEME */
	printf("done\n");
	fflush(stdout);
	return 0;
}
`)
		prog := filepath.Join(filepath.Dir(src), "i386")
		if out, err := exec.Command(cc, "-O2", "-o", prog, src).CombinedOutput(); err != nil {
			t.Fatalf("cc: %v\n%s", err, out)
		}
		p := w.start(t, []string{prog}, 0)
		out := output(t, p)
		if !strings.Contains(out, "done") {
			t.Fatalf("the bot did not run: %q %s", out, p.Stderr())
		}
		if !strings.Contains(out, "getpid 1") {
			t.Skipf("no i386 system calls on this kernel: %q", out)
		}
		if w.mode == sandbox.Off {
			return
		}
		for _, want := range []string{"unshare -1\n", "ptrace -1\n"} { // -EPERM
			if !strings.Contains(out, want) {
				t.Errorf("want %q (refused), got %q", strings.TrimSpace(want), out)
			}
		}
		w.untouched(t, p)
	})
}

// TestHostileUsesItsListener is a bot that asks the listener of its own
// filter's notifications, which it holds at sandbox.NotifyFD, about a
// notification: were it allowed, it could answer its own and install a
// signal handler unseen by arena. The filter refuses it.
func TestHostileUsesItsListener(t *testing.T) {
	eachMode(t, func(t *testing.T, w *world) {
		py := lookPath(t, "python3")
		script := w.writeScript(t, "listener.py", `import errno, fcntl, os, struct
try:
    print("readlink", os.readlink("/proc/self/fd/`+itoa(sandbox.NotifyFD)+`"), flush=True)
except OSError as e:
    print("readlink", errno.errorcode[e.errno], flush=True)
try:
    fcntl.ioctl(`+itoa(sandbox.NotifyFD)+`, 0x40082102, struct.pack("Q", 1))  # SECCOMP_IOCTL_NOTIF_ID_VALID
    print("ioctl allowed", flush=True)
except OSError as e:
    print("ioctl", errno.errorcode[e.errno], flush=True)
print("done", flush=True)
`)
		p := w.start(t, []string{py, script}, 0)
		out := output(t, p)
		if !strings.Contains(out, "done") {
			t.Fatalf("the bot did not run: %q %s", out, p.Stderr())
		}
		if w.mode == sandbox.Off {
			return
		}
		switch {
		case w.mode == resident:
			// A resident init's bots are never paused: their filter
			// holds nothing back, and they have no listener.
			if !strings.Contains(out, "readlink ENOENT") {
				t.Errorf("a resident init's bot holds a listener: %q", out)
			}
		case !strings.Contains(out, "readlink anon_inode:seccomp notify"):
			t.Errorf("the bot does not hold its filter's listener: %q", out)
		}
		if !strings.Contains(out, "ioctl EPERM") {
			t.Errorf("want the listener's ioctl refused (EPERM), got %q", out)
		}
		w.untouched(t, p)
	})
}

func itoa(n int) string { return strconv.Itoa(n) }
