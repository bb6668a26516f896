package points

import (
	"fmt"

	"arena/game"
)

// formats are Points' own files besides the JSON record.
func formats() []game.Format {
	return []game.Format{{Name: "sgf", Ext: ".sgf", ContentType: "application/x-go-sgf", Title: "SGF",
		Write: func(rec *game.Record) ([]byte, error) {
			sgf, err := RecordSGF(rec)
			if err != nil {
				return nil, err
			}
			if sgf == "" {
				return nil, fmt.Errorf("record %s: %w: SGF letters reach %d points a side", rec.ID, game.ErrNotExpressible, sgfMaxSize)
			}
			return []byte(sgf), nil
		}}}
}
