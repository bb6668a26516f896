package testbrain

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Program names of the built test brain: by Piskvork's rule the first
// speaks the pipe protocol and the second the file protocol.
const (
	PipeName = "pbrain-tb"
	FileName = "tb"
)

// Build compiles the test brain (arena/internal/cmd/testbrain) into dir
// under both program names, for tests that need real brain processes.
// It needs the go command.
func Build(dir string) error {
	pipe := filepath.Join(dir, PipeName)
	out, err := exec.Command("go", "build", "-o", pipe, "arena/internal/cmd/testbrain").CombinedOutput()
	if err != nil {
		return fmt.Errorf("build test brain: %v\n%s", err, out)
	}
	if err := os.Link(pipe, filepath.Join(dir, FileName)); err != nil {
		return fmt.Errorf("build test brain: %w", err)
	}
	return nil
}
