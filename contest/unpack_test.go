package contest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// member is one entry of a test archive.
type member struct {
	name string
	body string
	mode int64
	typ  byte // tar type; 0 = regular file
	link string
}

func makeTarGz(t testing.TB, ms []member) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	for _, m := range ms {
		typ := m.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		h := &tar.Header{Name: m.name, Typeflag: typ, Mode: m.mode | 0o644, Linkname: m.link}
		if typ == tar.TypeReg {
			h.Size = int64(len(m.body))
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if typ == tar.TypeReg {
			tw.Write([]byte(m.body))
		}
	}
	tw.Close()
	zw.Close()
	return b.Bytes()
}

func makeZip(t testing.TB, ms []member) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, m := range ms {
		h := &zip.FileHeader{Name: m.name, Method: zip.Deflate}
		switch m.typ {
		case tar.TypeSymlink:
			h.SetMode(os.ModeSymlink | 0o777)
		case tar.TypeDir:
			h.SetMode(os.ModeDir | 0o755)
		case tar.TypeChar:
			h.SetMode(os.ModeDevice | os.ModeCharDevice | 0o666)
		default:
			h.SetMode(os.FileMode(m.mode | 0o644))
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(m.body))
	}
	zw.Close()
	return b.Bytes()
}

func TestUnpack(t *testing.T) {
	small := Limits{Archive: 1 << 20, Unpacked: 1 << 20, Files: 100}
	many := make([]member, 100_000)
	for i := range many {
		many[i] = member{name: fmt.Sprintf("f%d", i)}
	}
	bomb := []member{{name: "a", body: strings.Repeat("0", 8<<20)}}
	for _, c := range []struct {
		name   string
		data   func(t testing.TB) []byte
		lim    Limits
		refuse string // in the refusal; "" = unpacks
		file   string // a file that must exist after
	}{
		{"tar.gz", func(t testing.TB) []byte {
			return makeTarGz(t, []member{{name: "src/", typ: tar.TypeDir}, {name: "src/a.py", body: "x"}, {name: "run", body: "#!", mode: 0o755}})
		}, small, "", "src/a.py"},
		{"zip", func(t testing.TB) []byte { return makeZip(t, []member{{name: "d/b.c", body: "int"}}) }, small, "", "d/b.c"},
		{"single file", func(t testing.TB) []byte { return []byte("print(1)") }, small, "", "bot.py"},
		{"zip slip", func(t testing.TB) []byte { return makeZip(t, []member{{name: "../evil", body: "x"}}) }, small, "leaves", ""},
		{"tar slip", func(t testing.TB) []byte { return makeTarGz(t, []member{{name: "a/../../evil", body: "x"}}) }, small, "leaves", ""},
		{"absolute tar path", func(t testing.TB) []byte { return makeTarGz(t, []member{{name: "/etc/evil", body: "x"}}) }, small, "absolute", ""},
		{"absolute zip path", func(t testing.TB) []byte { return makeZip(t, []member{{name: "/tmp/evil", body: "x"}}) }, small, "absolute", ""},
		{"backslash path", func(t testing.TB) []byte { return makeZip(t, []member{{name: "..\\evil", body: "x"}}) }, small, "backslash", ""},
		{"drive path", func(t testing.TB) []byte { return makeZip(t, []member{{name: "C:evil", body: "x"}}) }, small, "drive", ""},
		{"tar symlink", func(t testing.TB) []byte {
			return makeTarGz(t, []member{{name: "l", typ: tar.TypeSymlink, link: "/etc/passwd"}})
		}, small, "symbolic link", ""},
		{"zip symlink", func(t testing.TB) []byte {
			return makeZip(t, []member{{name: "l", typ: tar.TypeSymlink, body: "/etc/passwd"}})
		}, small, "symbolic link", ""},
		{"tar hard link", func(t testing.TB) []byte {
			return makeTarGz(t, []member{{name: "l", typ: tar.TypeLink, link: "/etc/passwd"}})
		}, small, "hard link", ""},
		{"tar device", func(t testing.TB) []byte { return makeTarGz(t, []member{{name: "d", typ: tar.TypeChar}}) }, small, "device", ""},
		{"zip device", func(t testing.TB) []byte { return makeZip(t, []member{{name: "d", typ: tar.TypeChar}}) }, small, "device", ""},
		{"tar fifo", func(t testing.TB) []byte { return makeTarGz(t, []member{{name: "p", typ: tar.TypeFifo}}) }, small, "named pipe", ""},
		{"same file twice", func(t testing.TB) []byte { return makeTarGz(t, []member{{name: "a"}, {name: "./a"}}) }, small, "twice", ""},
		{"100k-file zip", func(t testing.TB) []byte { return makeZip(t, many) }, Limits{Archive: 64 << 20, Unpacked: 1 << 20, Files: 2000}, "more than 2000", ""},
		{"100k-file tar.gz", func(t testing.TB) []byte { return makeTarGz(t, many) }, Limits{Archive: 64 << 20, Unpacked: 1 << 20, Files: 2000}, "more than 2000", ""},
		{"zip bomb", func(t testing.TB) []byte { return makeZip(t, bomb) }, small, "more than 1048576 bytes", ""},
		{"gzip bomb", func(t testing.TB) []byte { return makeTarGz(t, bomb) }, small, "more than 1048576 bytes", ""},
		{"archive too big", func(t testing.TB) []byte { return make([]byte, 2<<20) }, small, "over the limit", ""},
		{"corrupt zip", func(t testing.TB) []byte { return []byte("PK\x03\x04garbage") }, small, "zip", ""},
		{"corrupt gzip", func(t testing.TB) []byte { return []byte{0x1f, 0x8b, 1, 2, 3} }, small, "gzip", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "bot")
			if err := os.Mkdir(dst, 0o755); err != nil {
				t.Fatal(err)
			}
			err := Unpack(c.data(t), "bot.py", dst, c.lim)
			if c.refuse != "" {
				if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), c.refuse) {
					t.Fatalf("Unpack = %v; want a refusal saying %q", err, c.refuse)
				}
			} else if err != nil {
				t.Fatalf("Unpack: %v", err)
			}
			if c.file != "" {
				if _, err := os.Stat(filepath.Join(dst, c.file)); err != nil {
					t.Error(err)
				}
			}
			// Nothing ever lands beside the bot's folder.
			entries, _ := os.ReadDir(filepath.Dir(dst))
			if len(entries) != 1 {
				t.Errorf("the upload wrote beside its folder: %v", entries)
			}
		})
	}
}

func TestPackRoundTrip(t *testing.T) {
	src := writeFiles(t, map[string]string{"main.go": "package main", "sub/x.txt": "x"})
	var b bytes.Buffer
	if err := Pack(src, &b); err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	if err := Unpack(b.Bytes(), "bot.tar.gz", dst, DefaultLimits()); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(dst, "sub", "x.txt")); err != nil || string(data) != "x" {
		t.Errorf("round trip: %q, %v", data, err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(src, "link")); err != nil {
		t.Fatal(err)
	}
	if err := Pack(src, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("packing a symlink: %v", err)
	}
}

// FuzzUnpack feeds the unpacker any bytes: it must refuse or unpack, and
// never write outside its folder.
func FuzzUnpack(f *testing.F) {
	f.Add(makeTarGz(f, []member{{name: "a/b", body: "x"}, {name: "c", typ: tar.TypeDir}}))
	f.Add(makeZip(f, []member{{name: "a/b", body: "x"}, {name: "../x", body: "y"}}))
	f.Add([]byte("print(1)"))
	f.Fuzz(func(t *testing.T, data []byte) {
		parent := t.TempDir()
		dst := filepath.Join(parent, "bot")
		if err := os.Mkdir(dst, 0o755); err != nil {
			t.Fatal(err)
		}
		err := Unpack(data, "x.py", dst, Limits{Archive: 1 << 20, Unpacked: 1 << 20, Files: 50})
		if err != nil && !errors.Is(err, ErrRefused) {
			t.Fatalf("not a refusal: %v", err)
		}
		entries, _ := os.ReadDir(parent)
		if len(entries) != 1 {
			t.Fatalf("wrote beside its folder: %v", entries)
		}
		filepath.WalkDir(dst, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.Type()&os.ModeSymlink != 0 {
				t.Errorf("made a symlink %s", p)
			}
			return nil
		})
	})
}
