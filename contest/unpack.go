package contest

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Limits bound what an upload may unpack to.
type Limits struct {
	Archive  int64 // bytes of the upload itself
	Unpacked int64 // bytes of every file unpacked, together
	Files    int   // files and folders in the upload
}

// DefaultLimits are an upload's limits unless the contest says otherwise:
// 16 MB uploaded, 64 MB unpacked, 2000 files.
func DefaultLimits() Limits { return Limits{Archive: 16 << 20, Unpacked: 64 << 20, Files: 2000} }

// ErrRefused is wrapped by every refusal of an upload's contents (as
// opposed to a failure of this machine to write them).
var ErrRefused = errors.New("upload refused")

func refuse(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrRefused, fmt.Sprintf(format, args...))
}

// Unpack writes the upload held in data into the empty folder dst: a zip
// or a tar.gz archive (told by their first bytes), else the single file
// named name. It refuses, with an error wrapping ErrRefused, an upload
// over its limits, a path that would leave dst (absolute, "..", a
// drive or backslash), links, devices and other special files; what it
// wrote before a refusal is left for the caller to remove.
func Unpack(data []byte, name, dst string, lim Limits) error {
	if int64(len(data)) > lim.Archive {
		return refuse("the upload is %d bytes, over the limit of %d", len(data), lim.Archive)
	}
	root, err := os.OpenRoot(dst)
	if err != nil {
		return fmt.Errorf("unpack: %w", err)
	}
	defer root.Close()
	u := &unpacker{root: root, lim: lim}
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")), bytes.HasPrefix(data, []byte("PK\x05\x06")):
		return u.zip(data)
	case bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
		return u.tarGz(data)
	}
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	if err := checkPath(base); err != nil || base == "." {
		return refuse("file name %q: not a plain file name", name)
	}
	return u.file(base, bytes.NewReader(data), isExecutable(data))
}

// unpacker writes one upload's files, counting against its limits.
type unpacker struct {
	root    *os.Root
	lim     Limits
	written int64
	files   int
}

// checkPath refuses an archive member's path that could leave the
// folder or means something else on another system.
func checkPath(p string) error {
	switch {
	case p == "":
		return refuse("an empty path")
	case strings.ContainsRune(p, 0):
		return refuse("path %q holds a NUL byte", p)
	case strings.Contains(p, "\\"):
		return refuse("path %q holds a backslash", p)
	case strings.HasPrefix(p, "/"):
		return refuse("absolute path %q", p)
	case len(p) >= 2 && p[1] == ':':
		return refuse("path %q names a drive", p)
	}
	for _, part := range strings.Split(strings.TrimSuffix(p, "/"), "/") {
		if part == ".." {
			return refuse("path %q leaves the bot's folder", p)
		}
	}
	return nil
}

// count takes one more file or folder off the limit.
func (u *unpacker) count() error {
	u.files++
	if u.files > u.lim.Files {
		return refuse("more than %d files", u.lim.Files)
	}
	return nil
}

func (u *unpacker) dir(p string) error {
	if err := checkPath(p); err != nil {
		return err
	}
	if err := u.count(); err != nil {
		return err
	}
	clean := path.Clean(p)
	if clean == "." {
		return nil
	}
	if err := u.root.MkdirAll(clean, 0o755); err != nil {
		return fmt.Errorf("unpack %s: %w", p, err)
	}
	return nil
}

// file writes one regular file, stopping at the unpacked limit whatever
// the archive claims its size is.
func (u *unpacker) file(p string, r io.Reader, exec bool) error {
	if err := checkPath(p); err != nil {
		return err
	}
	if err := u.count(); err != nil {
		return err
	}
	clean := path.Clean(p)
	if clean == "." || strings.HasSuffix(p, "/") {
		return refuse("file %q has no name", p)
	}
	if d := path.Dir(clean); d != "." {
		if err := u.root.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("unpack %s: %w", p, err)
		}
	}
	mode := os.FileMode(0o644)
	if exec {
		mode = 0o755
	}
	f, err := u.root.OpenFile(clean, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if errors.Is(err, fs.ErrExist) {
		return refuse("%q is in the upload twice", p)
	}
	if err != nil {
		return fmt.Errorf("unpack %s: %w", p, err)
	}
	left := u.lim.Unpacked - u.written
	er := &errReader{r: io.LimitReader(r, left+1)}
	n, err := io.Copy(f, er)
	u.written += n
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case u.written > u.lim.Unpacked:
		return refuse("it unpacks to more than %d bytes", u.lim.Unpacked)
	case er.err != nil:
		// The archive could not be read: corrupt, truncated, too big.
		return refuse("%q cannot be read from the archive: %v", p, er.err)
	case err != nil:
		return fmt.Errorf("unpack %s: %w", p, err)
	}
	return nil
}

// errReader remembers the error its reader returned, other than EOF.
type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		e.err = err
	}
	return n, err
}

func (u *unpacker) zip(data []byte) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return refuse("not a readable zip archive: %v", err)
	}
	if len(zr.File) > u.lim.Files {
		return refuse("%d files, more than %d", len(zr.File), u.lim.Files)
	}
	for _, f := range zr.File {
		mode := f.Mode()
		switch {
		case mode.IsDir():
			if err := u.dir(f.Name); err != nil {
				return err
			}
		case mode.IsRegular():
			rc, err := f.Open()
			if err != nil {
				return refuse("zip member %q: %v", f.Name, err)
			}
			err = u.file(f.Name, rc, mode&0o111 != 0)
			rc.Close()
			if err != nil {
				return zipErr(f.Name, err)
			}
		default:
			return refuse("zip member %q is a %s, not a file or folder", f.Name, kind(mode))
		}
	}
	return nil
}

// zipErr turns a corrupt member (a checksum that fails, a truncated
// stream) into a refusal.
func zipErr(name string, err error) error {
	if errors.Is(err, ErrRefused) {
		return err
	}
	if errors.Is(err, zip.ErrChecksum) || errors.Is(err, zip.ErrFormat) || errors.Is(err, io.ErrUnexpectedEOF) ||
		strings.Contains(err.Error(), "flate") {
		return refuse("zip member %q is corrupt: %v", name, err)
	}
	return err
}

func (u *unpacker) tarGz(data []byte) error {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return refuse("not a readable gzip stream: %v", err)
	}
	defer zr.Close()
	// The tar stream itself, headers and padding included, may not be
	// bigger than what its files may unpack to (plus their headers).
	budget := u.lim.Unpacked + int64(u.lim.Files+2)*1024
	cr := &countingReader{r: bufio.NewReader(zr), left: budget}
	tr := tar.NewReader(cr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			if cr.over {
				return refuse("it unpacks to more than %d bytes", u.lim.Unpacked)
			}
			return refuse("not a readable tar.gz archive: %v", err)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			err = u.dir(h.Name)
		case tar.TypeReg, tar.TypeRegA:
			err = u.file(h.Name, tr, h.Mode&0o111 != 0)
		case tar.TypeXGlobalHeader:
			continue
		default:
			return refuse("tar member %q is a %s, not a file or folder", h.Name, tarKind(h.Typeflag))
		}
		if err != nil {
			if cr.over {
				return refuse("it unpacks to more than %d bytes", u.lim.Unpacked)
			}
			if !errors.Is(err, ErrRefused) && (errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader)) {
				return refuse("tar member %q is corrupt: %v", h.Name, err)
			}
			return err
		}
	}
}

// countingReader fails once more than left bytes were read.
type countingReader struct {
	r    io.Reader
	left int64
	over bool
}

var errTooBig = errors.New("too big")

func (c *countingReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		c.over = true
		return 0, errTooBig
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "device"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return "special file"
}

func tarKind(t byte) string {
	switch t {
	case tar.TypeSymlink:
		return "symbolic link"
	case tar.TypeLink:
		return "hard link"
	case tar.TypeChar, tar.TypeBlock:
		return "device"
	case tar.TypeFifo:
		return "named pipe"
	}
	return fmt.Sprintf("member of type %q", t)
}

// isExecutable tells a Linux executable (ELF) or a script (#!) by its
// first bytes: a single uploaded file of either kind keeps its exec bit.
func isExecutable(data []byte) bool {
	return bytes.HasPrefix(data, []byte("\x7fELF")) || bytes.HasPrefix(data, []byte("#!"))
}

// Pack writes the folder dir as a tar.gz archive: what "arena submit"
// uploads for a folder. Links and special files are refused here
// already, as the server would refuse them.
func Pack(dir string, w io.Writer) error {
	zw := gzip.NewWriter(w)
	tw := tar.NewWriter(zw)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "." {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "__pycache__") {
			return filepath.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case info.IsDir():
			return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: rel + "/", Mode: 0o755})
		case info.Mode().IsRegular():
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: rel, Mode: int64(info.Mode().Perm()), Size: info.Size()}); err != nil {
				return err
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = io.CopyN(tw, f, info.Size())
			return err
		}
		return fmt.Errorf("%s is a %s: upload only files and folders", p, kind(info.Mode()))
	})
	if err != nil {
		return fmt.Errorf("pack %s: %w", dir, err)
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("pack %s: %w", dir, err)
	}
	return zw.Close()
}
