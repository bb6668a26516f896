package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
)

// ExplainExec adds the likely cause to a failure to execute a program
// that exists: a script whose "#!" line names an interpreter that is not
// there fails with "no such file or directory", which misleads.
func ExplainExec(program string, err error) error {
	if !errors.Is(err, syscall.ENOENT) {
		return err
	}
	f, ferr := os.Open(program)
	if ferr != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, 256)
	k, _ := io.ReadFull(f, head)
	line, _, _ := bytes.Cut(head[:k], []byte("\n"))
	if !bytes.HasPrefix(line, []byte("#!")) {
		return err
	}
	interp := strings.TrimSpace(string(line[2:]))
	if f := strings.Fields(interp); len(f) > 0 && fileExists(f[0]) {
		return err // the interpreter is there: something else is missing
	}
	return fmt.Errorf("bad interpreter %q in its #! line: %w", interp, err)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
