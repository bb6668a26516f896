package game

import "errors"

// Format is one of a game's own file formats besides arena's JSON record
// (Piskvork .psq, SGF, a Khet state log, an Ants replay): what a stored
// game can be downloaded as.
type Format struct {
	Name        string // what a request names it by: "psq", "sgf", ...
	Ext         string // the file name's extension, with the dot: ".psq"
	ContentType string // the MIME type it is served with
	Title       string // a few words for people: "Piskvork record"
	// Write makes the file from a record. Nil means the file cannot be
	// made from the record alone (an Ants replay needs the engine's
	// state): it is the one the game wrote beside the record, ID+Ext.
	Write func(*Record) ([]byte, error)
}

// ErrNotExpressible is wrapped by a Format's Write for a record its
// format cannot express (a Points field wider than SGF's 52 letters),
// as opposed to a broken record.
var ErrNotExpressible = errors.New("the format cannot express this game")
