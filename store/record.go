package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/klauspost/compress/s2"
)

// How a game's record is kept.
//
// On both backends the record column holds the record's JSON compressed
// in S2's block format (github.com/klauspost/compress/s2): records of
// moves and thinking output shrink about five times. S2 takes a few
// microseconds for 20 KB, on the caller's goroutine, before the game
// joins a batch; the single writer only copies the result. On SQLite the
// column is a BLOB, and every byte not written is written twice less
// (the log, then the checkpoint). On PostgreSQL it is BYTEA with STORAGE
// EXTERNAL: the server neither parses the record (as JSON did) nor tries
// to compress it again (as it did with lz4), which were most of its work
// per game.
//
// Records written by older versions are read as they are, so that no
// database needs its records rewritten: on SQLite, records stored as
// TEXT (before schema version 3); on PostgreSQL, the JSON (or JSONB)
// records of schema versions up to 3, which schema version 4 turned into
// BYTEA holding a zero byte and then the JSON's bytes. An S2 block never
// starts with a zero byte (that is the length of an empty record, which
// is stored as NULL), so the two are told apart by their first byte.
//
// The games table's game column holds the record's "game", so that a
// list of games can name and filter the game of a plain match without
// reading (decompressing) its record. Nothing queries inside a record.

// recordMigration is schema version 3: the game column, filled from the
// records already stored; on PostgreSQL the record column becomes JSON
// (which rewrites the table once) and lz4-compressed where the server
// can.
var recordMigration = []string{
	`ALTER TABLE games ADD COLUMN game TEXT`,
	`UPDATE games SET game = {record_game} WHERE record IS NOT NULL`,
	`{record_type}`,
	`{record_compression}`,
}

// postgresRecordType and postgresRecordCompression are the PostgreSQL
// statements of recordMigration's markers. lz4 is optional: a server
// built without it (or older than 14) keeps pglz.
const (
	postgresRecordType        = `ALTER TABLE games ALTER COLUMN record TYPE JSON USING record::json`
	postgresRecordCompression = `DO $$ BEGIN
		EXECUTE 'ALTER TABLE games ALTER COLUMN record SET COMPRESSION lz4';
	EXCEPTION WHEN OTHERS THEN
		NULL;
	END $$`
)

// packedMigration is schema version 4: on PostgreSQL the record column
// becomes BYTEA (which rewrites the table once, the records stored until
// then kept as a zero byte and their JSON's bytes, compressed by the
// server as before), then its storage EXTERNAL, so that the S2 blocks
// written from then on are not compressed a second time. Nothing changes
// on SQLite, which packs its records since version 3.
var packedMigration = []string{
	`{record_bytes}`,
	`{record_storage}`,
}

// postgresRecordBytes and postgresRecordStorage are the PostgreSQL
// statements of packedMigration's markers. The JSON's text is the record
// as it was stored (JSON keeps the bytes it was given).
const (
	postgresRecordBytes   = `ALTER TABLE games ALTER COLUMN record TYPE BYTEA USING '\x00'::bytea || convert_to(record::text, 'UTF8')`
	postgresRecordStorage = `ALTER TABLE games ALTER COLUMN record SET STORAGE EXTERNAL`
)

// rawRecord is the first byte of a record kept as its JSON's bytes in a
// column of packed records (PostgreSQL's records of before schema version
// 4); no S2 block starts with it.
const rawRecord = 0

// packRecord is a record as the record column's query argument: nil for
// none, else its S2 block. S2 writes into one of the store's
// buffers, sized for the worst case (a little over the record's length),
// and only what it wrote is kept: allocating the worst case for every
// game made the garbage collector take a tenth of a save's time.
func (s *Store) packRecord(record json.RawMessage) any {
	if len(record) == 0 {
		return nil
	}
	buf, _ := s.packBufs.Get().(*[]byte)
	if buf == nil {
		buf = new([]byte)
	}
	if n := s2.MaxEncodedLen(len(record)); cap(*buf) < n {
		*buf = make([]byte, n)
	}
	packed := bytes.Clone(s2.Encode((*buf)[:cap(*buf)], record))
	s.packBufs.Put(buf)
	return packed
}

// recordScanner reads the record column into dst: NULL as nil, TEXT as
// the JSON it holds, BYTEA or a BLOB as packRecord's S2 block or, after a
// zero byte, the JSON itself.
type recordScanner struct {
	dst *json.RawMessage
}

func (rs recordScanner) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*rs.dst = nil
	case string:
		*rs.dst = json.RawMessage(v)
	case []byte:
		if len(v) > 0 && v[0] == rawRecord {
			*rs.dst = json.RawMessage(bytes.Clone(v[1:]))
			return nil
		}
		data, err := s2.Decode(nil, v)
		if err != nil {
			return fmt.Errorf("record: %w", err)
		}
		*rs.dst = json.RawMessage(data)
	default:
		return fmt.Errorf("record column holds %T", src)
	}
	return nil
}

// recordGame is the "game" member of a record (a JSON object), "" when
// it has none. It reads the record only as far as that member: a
// game.Record has it second, after "id".
func recordGame(record []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(record))
	if tok, err := dec.Token(); err != nil {
		return "", err
	} else if tok != json.Delim('{') {
		return "", errors.New("not a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return "", err
		}
		if key, _ := tok.(string); key == "game" {
			var name string
			if err := dec.Decode(&name); err != nil {
				return "", fmt.Errorf("game: %w", err)
			}
			return name, nil
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return "", err
		}
	}
	return "", nil
}
