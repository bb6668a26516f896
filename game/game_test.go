package game

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestRecordRoundTrip(t *testing.T) {
	w := 1
	rec := &Record{
		ID: "m-001", Game: "gomoku", Options: []byte(`{"width":15}`),
		Players: []PlayerRecord{{Name: "a", TimeMs: 12.5}, {Name: "b", Output: []string{"hi"}}},
		Seats:   []int{1, 0}, Moves: []MoveRecord{{Side: 0, Move: "7,7", TimeMs: 1.25, Output: []string{"MESSAGE x"}}},
		Winner: &w, Reason: ReasonTimeout, Detail: "no move in time",
		Start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), End: time.Date(2026, 1, 2, 3, 4, 6, 0, time.UTC),
	}
	path := filepath.Join(t.TempDir(), "r.json")
	if err := rec.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRecord(path)
	if err != nil {
		t.Fatal(err)
	}
	var opts bytes.Buffer
	if err := json.Compact(&opts, got.Options); err != nil || opts.String() != string(rec.Options) {
		t.Fatalf("options %s", got.Options)
	}
	got.Options = rec.Options
	if !reflect.DeepEqual(got, rec) {
		t.Fatalf("read back %+v\nwant %+v", got, rec)
	}
	if got.FirstPlayer() != 1 {
		t.Fatalf("first player %d", got.FirstPlayer())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
}

func TestReadRecordErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("{not json"), 0o644)
	for _, p := range []string{bad, filepath.Join(dir, "missing.json")} {
		if _, err := ReadRecord(p); err == nil {
			t.Errorf("ReadRecord(%s): no error", p)
		}
	}
}

// info is a game with nothing but a name, for the registry's tests.
type info string

func (i info) Info() Info          { return Info{Name: string(i)} }
func (i info) NewOptions() Options { return nil }

func TestRegistry(t *testing.T) {
	r, err := NewRegistry[Game](info("khet"), info("gomoku"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewRegistry[Game](info("khet"), info("gomoku"), info("gomoku")); err == nil {
		t.Fatal("registered a game twice")
	}
	if _, err := NewRegistry[Game](info("")); err == nil {
		t.Fatal("registered a game without a name")
	}
	if _, ok := r.Lookup("gomoku"); !ok {
		t.Fatal("gomoku not found")
	}
	if _, ok := r.Lookup("chess"); ok {
		t.Fatal("found a game never registered")
	}
	if got := r.Names(); !reflect.DeepEqual(got, []string{"gomoku", "khet"}) {
		t.Fatalf("names %v", got)
	}
	var order []string
	for _, g := range r.All() {
		order = append(order, g.Info().Name)
	}
	if !reflect.DeepEqual(order, []string{"khet", "gomoku"}) {
		t.Fatalf("All in order %v, want the order given", order)
	}
}

func TestFaultError(t *testing.T) {
	if s := (Fault{Reason: ReasonCrash, Detail: "exit status 3"}).Error(); s != "crash: exit status 3" {
		t.Fatal(s)
	}
	if s := (Fault{Reason: ReasonTimeout}).Error(); s != "timeout" {
		t.Fatal(s)
	}
}
