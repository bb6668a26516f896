package bot

import (
	"reflect"
	"strings"
	"testing"
)

func TestOutputCapsAndClips(t *testing.T) {
	o := Output{Max: 2}
	o.Add("one")
	o.Add(strings.Repeat("x", 1200))
	o.Add("three")
	o.Add("four")
	got := o.Take()
	want := []string{"one", strings.Repeat("x", 1000) + "...", "[arena: 2 more lines not kept]"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("took %q, want %q", got, want)
	}
	if again := o.Take(); len(again) != 0 {
		t.Fatalf("second take %q, want nothing", again)
	}
}

func TestHolderWithoutProcess(t *testing.T) {
	var h Holder
	h.Pause()
	h.Resume()
	h.Kill()
	if h.Pid() != 0 || h.Get() != nil {
		t.Fatal("an empty holder reports a process")
	}
}
