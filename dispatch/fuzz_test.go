package dispatch

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/match"
)

// FuzzDecodeResult: whatever a worker sends, DecodeResult never panics,
// and a result it takes is a record of the spec's game, its players in
// the seating's order, with plain file names.
func FuzzDecodeResult(f *testing.F) {
	spec := match.Spec{ID: "g1", Game: "gomoku", Players: players(3), Seats: []int{2, 0}}
	dg, _ := digest(spec)
	good, _ := json.Marshal(Result{ID: "g1", Digest: dg, Worker: "w", Record: mustJSON(f, fakeRecord(spec)), Path: "g1.json",
		Files: map[string][]byte{"g1.psq": []byte("x")}})
	f.Add(good)
	f.Add([]byte(`{"id":"g1","digest":"` + dg + `","error":"unknown game"}`))
	f.Add([]byte(`{"id":"g1","digest":"` + dg + `","record":{"id":"g1","game":"gomoku","players":[{"name":"b0"}],"seats":[0,0]}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, rec, err := DecodeResult(data, spec, dg)
		if err != nil || res.Error != "" {
			return
		}
		if rec == nil || rec.ID != "g1" || len(rec.Players) != 2 || rec.Players[0].Name != "b0" || rec.Players[1].Name != "b2" {
			t.Fatalf("accepted a record of another game: %+v", rec)
		}
		for name := range res.Files {
			if strings.ContainsAny(name, "/\\") || name == ".." {
				t.Fatalf("accepted file name %q", name)
			}
		}
		if filepath.Base(res.Path) != res.Path {
			t.Fatalf("accepted path %q", res.Path)
		}
	})
}

// FuzzDecodeJob: DecodeJob never panics, and a job it takes has a bot
// for every player.
func FuzzDecodeJob(f *testing.F) {
	spec := match.Spec{ID: "g1", Game: "gomoku", Players: players(2), Seats: []int{0, 1}}
	f.Add(mustJSON(f, Job{Spec: spec, Bots: []Bot{{Builtin: true}, {Folder: "ab", Args: []Arg{{InFolder: "x"}}}}, Digest: "d"}))
	f.Add([]byte(`{"spec":{"id":"a","game":"b"},"bots":[],"digest":"c"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		j, err := DecodeJob(data)
		if err != nil {
			return
		}
		if len(j.Bots) != len(j.Spec.Players) || j.Spec.ID == "" || j.Digest == "" {
			t.Fatalf("accepted job %+v", j)
		}
	})
}

// FuzzUnpackFolder: unpacking any bytes never writes outside the folder.
func FuzzUnpackFolder(f *testing.F) {
	dir := f.TempDir()
	os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755)
	os.WriteFile(filepath.Join(dir, "a", "b", "c"), []byte("c"), 0o644)
	packed, err := packFolder(dir)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(packed)
	f.Fuzz(func(t *testing.T, data []byte) {
		root := t.TempDir()
		dst := filepath.Join(root, "in")
		os.Mkdir(dst, 0o755)
		unpackFolder(data, dst)
		entries, _ := os.ReadDir(root)
		if len(entries) != 1 {
			t.Fatalf("unpacking wrote beside its folder: %v", entries)
		}
	})
}
