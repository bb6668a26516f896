package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkerScratch: the scratch folder and its lock are one worker's
// at a time, a stopped worker leaves neither behind, and the next one of
// the name gets them again.
func TestWorkerScratch(t *testing.T) {
	work := t.TempDir()
	dir, release, err := workerScratch(work, "w1")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := workerScratch(work, "w1"); err == nil || !strings.Contains(err.Error(), "another worker of this name") {
		t.Fatalf("a second worker w1 beside the first: %v", err)
	}
	other, releaseOther, err := workerScratch(work, "w2")
	if err != nil {
		t.Fatalf("worker w2 beside w1: %v", err)
	}
	if other == dir {
		t.Fatalf("w1 and w2 share %s", dir)
	}
	releaseOther()
	os.WriteFile(filepath.Join(dir, "game"), []byte("x"), 0o644)
	release()
	left, err := os.ReadDir(work)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("left behind after both stopped: %s", e.Name())
	}
	again, releaseAgain, err := workerScratch(work, "w1")
	if err != nil {
		t.Fatalf("w1 after the first stopped: %v", err)
	}
	defer releaseAgain()
	if again != dir {
		t.Errorf("w1's folder moved: %s, then %s", dir, again)
	}
}
