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
// On SQLite the record column holds the record's JSON compressed in S2's
// block format (github.com/klauspost/compress/s2), as a BLOB: records of
// moves and thinking output shrink about five times, and every byte not
// written is written twice less (the log, then the checkpoint). S2 takes
// a few microseconds for 20 KB, on the caller's goroutine, before the
// game joins a batch; the single writer only copies the result. Records
// stored as TEXT (by arena before schema version 3) are read as they
// are, so an older database needs no rewriting.
//
// On PostgreSQL the column is JSON (JSONB before schema version 3) and
// holds the record as it is: the server checks that it is JSON and
// compresses it itself, with lz4 where the server has it (pglz
// otherwise). JSONB took four times as long to store a 20 KB record: the
// server parses it into its binary form and compresses that with pglz.
// Nothing queries inside a record, so JSON, which keeps the bytes as they
// came, is all the store needs.
//
// The games table's game column holds the record's "game", so that a
// list of games can name and filter the game of a plain match without
// reading (or, on SQLite, decompressing) its record.

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

// packRecord is a record as the record column's query argument: nil for
// none, else as the dialect keeps it. S2 writes into one of the store's
// buffers, sized for the worst case (a little over the record's length),
// and only what it wrote is kept: allocating the worst case for every
// game made the garbage collector take a tenth of a save's time.
func (s *Store) packRecord(record json.RawMessage) any {
	if len(record) == 0 {
		return nil
	}
	if !s.d.packed {
		return string(record)
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
// the JSON it holds, and on SQLite a BLOB as packRecord's S2 block.
type recordScanner struct {
	dst    *json.RawMessage
	packed bool // the dialect's: a []byte value is a packed record
}

func (rs recordScanner) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*rs.dst = nil
	case string:
		*rs.dst = json.RawMessage(v)
	case []byte:
		if !rs.packed {
			*rs.dst = json.RawMessage(bytes.Clone(v))
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
