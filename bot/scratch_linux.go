package bot

import (
	"fmt"
	"os"
	"syscall"
)

// tmpfsMagic is the file system type of tmpfs in statfs(2).
const tmpfsMagic = 0x01021994

// ScratchDir makes a fresh folder for bots' working folders below root,
// or, when root is "", in /dev/shm if that is a memory file system and
// else below fallback. The old Gomocup protocol writes five files and
// starts the brain on every move: on a disk the writes alone cost several
// times what they cost in memory.
func ScratchDir(root, fallback, prefix string) (string, error) {
	if root == "" {
		root = fallback
		var st syscall.Statfs_t
		if syscall.Statfs("/dev/shm", &st) == nil && st.Type == tmpfsMagic && syscall.Access("/dev/shm", 2) == nil {
			root = "/dev/shm"
		}
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("scratch folder: %w", err)
	}
	dir, err := os.MkdirTemp(root, prefix)
	if err != nil {
		return "", fmt.Errorf("scratch folder: %w", err)
	}
	return dir, nil
}
