package dispatch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"arena/game"
	"arena/match"
)

// Files a game's options name (game.FileOptions: Gomoku's --opening,
// Ants' --map) travel as bots do: the coordinator puts each into the
// object store under its SHA-256 and writes the option as a reference,
// fileRefPrefix + HASH + "/" + NAME; the worker fetches the content by
// its hash into its cache and points the option at its copy. A worker
// takes no other value for such an option, so it never reads a path of
// the coordinator's machine.
const fileRefPrefix = "arena-sha256:"

// errNotPlayable marks what is wrong with a job's spec itself (a file
// option that is not a reference): the worker answers it with an error
// result instead of giving the job back to be played again.
var errNotPlayable = errors.New("the job cannot be played")

// fileRef is the option value naming a shipped file.
func fileRef(hash, name string) string { return fileRefPrefix + hash + "/" + name }

// parseFileRef reads an option value written by fileRef, refusing any
// other: a path, a hash that is not a SHA-256, a name that is not one
// plain file name.
func parseFileRef(s string) (hash, name string, err error) {
	rest, ok := strings.CutPrefix(s, fileRefPrefix)
	if !ok {
		return "", "", fmt.Errorf("%q is not a file the coordinator shipped", s)
	}
	hash, name, ok = strings.Cut(rest, "/")
	if !ok || !isHash(hash) {
		return "", "", fmt.Errorf("%q: no SHA-256 of the file's content", s)
	}
	if err := plainFileName(name); err != nil {
		return "", "", fmt.Errorf("%q: %w", s, err)
	}
	return hash, name, nil
}

// isHash says s is a hex SHA-256 as contentHash writes it.
func isHash(s string) bool {
	return len(s) == 64 && strings.Trim(s, "0123456789abcdef") == ""
}

// fileOptions decodes spec's options over its game's defaults when the
// game names files in its options; ok is false when it names none (or
// the game is unknown here: playing it will say so).
func fileOptions(games match.Games, spec match.Spec) (opts game.Options, files []*string, ok bool, err error) {
	g, found := games.Lookup(spec.Game)
	if !found {
		return nil, nil, false, nil
	}
	opts = g.NewOptions()
	fo, named := opts.(game.FileOptions)
	if !named {
		return nil, nil, false, nil
	}
	if len(spec.Options) > 0 {
		dec := json.NewDecoder(bytes.NewReader(spec.Options))
		dec.DisallowUnknownFields()
		if err := dec.Decode(opts); err != nil {
			return nil, nil, false, fmt.Errorf("spec %s: %s options: %w", spec.ID, spec.Game, err)
		}
	}
	for _, p := range fo.Files() {
		if *p != "" {
			files = append(files, p)
		}
	}
	return opts, files, len(files) > 0, nil
}

// cachedName is where a worker's cache keeps the file of that content
// hash and name, below its folder ("/"-separated).
func cachedName(hash, name string) string { return "f-" + hash + "/" + name }

// options rewrites spec's options for the wire: each file they name is
// put into the object store (read on this machine, a relative path from
// the folder arena runs in, as local play reads it) and named by a
// reference to its content. Options that name no file go unchanged.
// files maps each file's cachedName to the path the options gave.
func (s *shipper) options(ctx context.Context, spec match.Spec) (_ json.RawMessage, files map[string]string, _ error) {
	opts, named, ok, err := fileOptions(s.games, spec)
	if err != nil || !ok {
		return spec.Options, nil, err
	}
	files = map[string]string{}
	for _, p := range named {
		h, err := s.put(ctx, *p, false)
		if err != nil {
			return nil, nil, fmt.Errorf("option file %s: %w", *p, err)
		}
		name := filepath.Base(*p)
		files[cachedName(h, name)] = *p
		*p = fileRef(h, name)
	}
	data, err := json.Marshal(opts)
	if err != nil {
		return nil, nil, fmt.Errorf("spec %s: encode options: %w", spec.ID, err)
	}
	return data, files, nil
}

// restoreFiles gives a record's options back the paths the spec's
// options gave where the worker's game wrote the path of its cached copy
// (Ants records its --map), so that the record reads as a local run's:
// files maps cachedName to the spec's path. The options keep their
// order and spacing; options without such a path come back unchanged.
func restoreFiles(opts json.RawMessage, files map[string]string) (json.RawMessage, error) {
	if len(files) == 0 || len(opts) == 0 {
		return opts, nil
	}
	dec := json.NewDecoder(bytes.NewReader(opts))
	dec.UseNumber() // numbers keep their digits
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("record options: %w", err)
	}
	copies := map[string]string{} // the worker's path -> the spec's
	var walk func(v any) any
	walk = func(v any) any {
		switch v := v.(type) {
		case string:
			for cached, path := range files {
				if strings.HasSuffix(v, "/"+filepath.FromSlash(cached)) {
					copies[v] = path
					return path
				}
			}
		case []any:
			for i := range v {
				v[i] = walk(v[i])
			}
		case map[string]any:
			for k := range v {
				v[k] = walk(v[k])
			}
		}
		return v
	}
	v = walk(v)
	if len(copies) == 0 {
		return opts, nil
	}
	// Each copy's path as a JSON string, replaced in the text; where the
	// text spells it another way, the options are written anew.
	out := opts
	for copyPath, path := range copies {
		from, err1 := json.Marshal(copyPath)
		to, err2 := json.Marshal(path)
		if err1 != nil || err2 != nil || !bytes.Contains(out, from) {
			data, err := json.Marshal(v)
			if err != nil {
				return nil, fmt.Errorf("record options: %w", err)
			}
			return data, nil
		}
		out = bytes.ReplaceAll(out, from, to)
	}
	return out, nil
}

// options rewrites a job's options for this machine: each file they
// name, which must be a reference the coordinator wrote, is fetched into
// the cache (checked against its hash) and the option names the copy.
// An option naming anything else is errNotPlayable.
func (c *cache) options(ctx context.Context, games match.Games, spec match.Spec) (json.RawMessage, error) {
	opts, files, ok, err := fileOptions(games, spec)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errNotPlayable, err)
	}
	if !ok {
		return spec.Options, nil
	}
	for _, p := range files {
		hash, name, err := parseFileRef(*p)
		if err != nil {
			return nil, fmt.Errorf("%w: option file: %w", errNotPlayable, err)
		}
		if *p, err = c.path(ctx, hash, name); err != nil {
			return nil, err
		}
	}
	data, err := json.Marshal(opts)
	if err != nil {
		return nil, fmt.Errorf("%w: encode options: %w", errNotPlayable, err)
	}
	return data, nil
}
