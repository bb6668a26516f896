package dispatch

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/nats-io/nats.go/jetstream"

	"arena/match"
)

// systemDirs hold programs every machine has (interpreters, shells):
// a command's program there is taken by name on the worker, not shipped.
var systemDirs = []string{"/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/etc/"}

// shipper puts the coordinator's bots and the files its games' options
// name into the object store, each piece once, and writes the jobs' Bots
// and options.
type shipper struct {
	obj   jetstream.ObjectStore
	games match.Games // to read the options of a spec's game
	mu    sync.Mutex
	// done maps a local path (file or folder) to its content hash, once
	// it is in the object store.
	done map[string]string
}

func newShipper(obj jetstream.ObjectStore, games match.Games) *shipper {
	return &shipper{obj: obj, games: games, done: map[string]string{}}
}

// ship rewrites spec's players and options for the wire: paths of this
// machine go, Bots and the options' file references say where the
// worker finds each piece. files maps each option file's place in a
// worker's cache (cachedName) to the path the options gave.
func (s *shipper) ship(ctx context.Context, spec match.Spec) (_ match.Spec, _ []Bot, files map[string]string, _ error) {
	out := spec
	opts, files, err := s.options(ctx, spec)
	if err != nil {
		return match.Spec{}, nil, nil, err
	}
	out.Options = opts
	out.Players = make([]match.Player, len(spec.Players))
	bots := make([]Bot, len(spec.Players))
	for i, p := range spec.Players {
		b, err := s.bot(ctx, p)
		if err != nil {
			return match.Spec{}, nil, nil, fmt.Errorf("bot %s: %w", p.Name, err)
		}
		p.Args, p.Files = nil, ""
		out.Players[i], bots[i] = p, b
	}
	return out, bots, files, nil
}

// bot describes one player's command for a worker.
func (s *shipper) bot(ctx context.Context, p match.Player) (Bot, error) {
	if p.Human != nil {
		return Bot{}, errors.New("a person's seat cannot be played on a worker")
	}
	b := Bot{Builtin: p.Builtin}
	if p.Builtin {
		for _, a := range p.Args[1:] {
			b.Args = append(b.Args, Arg{Value: a})
		}
		return b, nil
	}
	if p.Files != "" {
		h, err := s.put(ctx, p.Files, true)
		if err != nil {
			return Bot{}, err
		}
		b.Folder = h
	}
	for i, a := range p.Args {
		arg, err := s.arg(ctx, p.Files, a, i == 0)
		if err != nil {
			return Bot{}, err
		}
		b.Args = append(b.Args, arg)
	}
	return b, nil
}

// arg describes one word of a command: a path inside the bot's folder,
// a file of its own to ship (the program, unless it is the system's,
// and any other absolute path of a file), or a literal.
func (s *shipper) arg(ctx context.Context, folder, a string, program bool) (Arg, error) {
	if !filepath.IsAbs(a) {
		return Arg{Value: a}, nil
	}
	if folder != "" {
		if rel, err := filepath.Rel(folder, a); err == nil && filepath.IsLocal(rel) {
			return Arg{InFolder: filepath.ToSlash(rel)}, nil
		}
	}
	st, err := os.Stat(a)
	if err != nil || !st.Mode().IsRegular() {
		return Arg{Value: a}, nil
	}
	if program {
		for _, d := range systemDirs {
			if strings.HasPrefix(a, d) {
				return Arg{Value: a}, nil
			}
		}
	}
	h, err := s.put(ctx, a, false)
	if err != nil {
		return Arg{}, err
	}
	return Arg{Object: h, Name: filepath.Base(a)}, nil
}

// put stores a file or a folder (as a tar) under its content hash,
// once per path and once per content.
func (s *shipper) put(ctx context.Context, path string, folder bool) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h, ok := s.done[path]; ok {
		return h, nil
	}
	var data []byte
	var err error
	if folder {
		data, err = packFolder(path)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	h := contentHash(data)
	if _, err := s.obj.GetInfo(ctx, h); errors.Is(err, jetstream.ErrObjectNotFound) {
		if _, err := s.obj.PutBytes(ctx, h, data); err != nil {
			return "", fmt.Errorf("put %s into the object store: %w", path, err)
		}
	} else if err != nil {
		return "", fmt.Errorf("object store: %w", err)
	}
	s.done[path] = h
	return h, nil
}

// contentHash is the hex SHA-256 of data.
func contentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// packFolder writes a folder as a tar of its regular files and folders
// (links followed), in name order with no times or owners, so the same
// contents always give the same bytes and hash.
func packFolder(root string) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil || rel == "." {
			return err
		}
		st, err := os.Stat(path)
		if err != nil {
			return err
		}
		hdr := &tar.Header{Name: filepath.ToSlash(rel), Mode: int64(st.Mode().Perm()), Format: tar.FormatPAX}
		switch {
		case st.IsDir():
			hdr.Typeflag, hdr.Name = tar.TypeDir, hdr.Name+"/"
			return tw.WriteHeader(hdr)
		case st.Mode().IsRegular():
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			hdr.Typeflag, hdr.Size = tar.TypeReg, int64(len(data))
			if err := tw.WriteHeader(hdr); err != nil {
				return err
			}
			_, err = tw.Write(data)
			return err
		}
		return nil // sockets, devices: not part of a bot
	})
	if err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// unpackFolder writes a tar made by packFolder into dir, refusing any
// name that would leave it.
func unpackFolder(data []byte, dir string) error {
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("unpack: %w", err)
		}
		name := strings.TrimSuffix(hdr.Name, "/")
		if !filepath.IsLocal(filepath.FromSlash(name)) {
			return fmt.Errorf("unpack: %q leaves the folder", hdr.Name)
		}
		path := filepath.Join(dir, filepath.FromSlash(name))
		mode := fs.FileMode(hdr.Mode).Perm()
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(path, mode|0o700); err != nil {
				return fmt.Errorf("unpack: %w", err)
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return fmt.Errorf("unpack: %w", err)
			}
			data, err := io.ReadAll(tr)
			if err != nil {
				return fmt.Errorf("unpack %s: %w", name, err)
			}
			if err := os.WriteFile(path, data, mode|0o400); err != nil {
				return fmt.Errorf("unpack: %w", err)
			}
		default:
			return fmt.Errorf("unpack: %q is neither a file nor a folder", hdr.Name)
		}
	}
}

// cache is a worker's folder of bots and option files fetched by content
// hash:
// CACHE/d-HASH is a folder whose tar hashes to HASH, CACHE/f-HASH/NAME a
// file whose content does, under the name it had on the coordinator.
type cache struct {
	dir string
	obj jetstream.ObjectStore
	mu  sync.Mutex // one fetch at a time; a fetched piece is kept
}

// path returns where the piece of that hash is on this machine,
// fetching it first if it is not here yet: a folder when name is "",
// else a file of that name. What it fetches must hash to the name it
// was asked for.
func (c *cache) path(ctx context.Context, hash, name string) (string, error) {
	if !isHash(hash) {
		return "", fmt.Errorf("content hash %q is not a SHA-256", hash)
	}
	folder := name == ""
	dst := filepath.Join(c.dir, "d-"+hash)
	if !folder {
		if err := plainFileName(name); err != nil {
			return "", fmt.Errorf("bot %.12s: %w", hash, err)
		}
		dst = filepath.Join(c.dir, filepath.FromSlash(cachedName(hash, name)))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := os.Stat(dst); err == nil {
		return dst, nil
	}
	data, err := c.obj.GetBytes(ctx, hash)
	if err != nil {
		return "", fmt.Errorf("fetch %.12s: %w", hash, err)
	}
	if got := contentHash(data); got != hash {
		return "", fmt.Errorf("fetch %.12s: its content hashes to %.12s", hash, got)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", fmt.Errorf("bot cache: %w", err)
	}
	tmp, err := os.MkdirTemp(c.dir, ".fetch-")
	if err != nil {
		return "", fmt.Errorf("bot cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	piece := filepath.Join(tmp, "piece")
	if folder {
		if err := os.Mkdir(piece, 0o755); err != nil {
			return "", fmt.Errorf("bot cache: %w", err)
		}
		err = unpackFolder(data, piece)
	} else {
		err = os.WriteFile(piece, data, 0o755)
	}
	if err != nil {
		return "", fmt.Errorf("bot %.12s: %w", hash, err)
	}
	if err := os.Rename(piece, dst); err != nil {
		return "", fmt.Errorf("bot cache: %w", err)
	}
	return dst, nil
}

// players rebuilds a job's players on this machine: arena's own bots
// from self (this executable), the others from the cache.
func (c *cache) players(ctx context.Context, j Job, self string) ([]match.Player, error) {
	out := make([]match.Player, len(j.Spec.Players))
	for i, p := range j.Spec.Players {
		b := j.Bots[i]
		folder := ""
		if b.Folder != "" {
			f, err := c.path(ctx, b.Folder, "")
			if err != nil {
				return nil, err
			}
			folder, p.Files = f, f
		}
		if b.Builtin {
			p.Args = []string{self}
		}
		for _, a := range b.Args {
			switch {
			case a.Object != "":
				f, err := c.path(ctx, a.Object, a.Name)
				if err != nil {
					return nil, err
				}
				p.Args = append(p.Args, f)
			case a.InFolder != "":
				rel := filepath.FromSlash(a.InFolder)
				if folder == "" || !filepath.IsLocal(rel) {
					return nil, fmt.Errorf("bot %s: %q is not a path in its folder", p.Name, a.InFolder)
				}
				p.Args = append(p.Args, filepath.Join(folder, rel))
			default:
				p.Args = append(p.Args, a.Value)
			}
		}
		if len(p.Args) == 0 {
			return nil, fmt.Errorf("bot %s: no command", p.Name)
		}
		out[i] = p
	}
	return out, nil
}
