package points

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"arena/game"
)

// sgfMaxSize is the largest field side SGF coordinates express (a..z,
// A..Z).
const sgfMaxSize = 52

func sgfCoord(n int) byte {
	if n < 26 {
		return byte('a' + n)
	}
	return byte('A' + n - 26)
}

// SGFPoint writes a point as two SGF letters, column first.
func SGFPoint(p Point) string { return string([]byte{sgfCoord(p.X), sgfCoord(p.Y)}) }

// RecordSGF writes a record as SGF with GM[40] (Points), as zagram and
// notago do: red is B and moves first, blue is W; the opening dots are the
// first moves. It returns "" for a field SGF cannot express.
//
//	(;FF[4]GM[40]CA[UTF-8]AP[arena]SZ[39:32]RU[standard]PB[..]PW[..]DT[..]RE[B+3]
//	;B[sp];W[sq]...)
func RecordSGF(rec *game.Record) (string, error) {
	var o Options
	if err := json.Unmarshal(rec.Options, &o); err != nil {
		return "", fmt.Errorf("record %s: options: %w", rec.ID, err)
	}
	if o.Width > sgfMaxSize || o.Height > sgfMaxSize {
		return "", nil
	}
	var b strings.Builder
	b.WriteString("(;FF[4]GM[40]CA[UTF-8]AP[arena]SZ[")
	b.WriteString(strconv.Itoa(o.Width))
	if o.Width != o.Height {
		b.WriteString(":" + strconv.Itoa(o.Height))
	}
	b.WriteString("]")
	rule := o.Surround
	if o.Grounding {
		rule += ",grounding"
	}
	prop := func(id, v string) {
		if v != "" {
			b.WriteString(id + "[" + strings.NewReplacer(`\`, `\\`, "]", `\]`).Replace(v) + "]")
		}
	}
	prop("RU", rule)
	if len(rec.Seats) == 2 && len(rec.Players) == 2 {
		prop("PB", rec.Players[rec.Seats[0]].Name)
		prop("PW", rec.Players[rec.Seats[1]].Name)
	}
	prop("DT", rec.Start.Format("2006-01-02"))
	prop("RE", sgfResult(rec))
	prop("TE", string(rec.Reason))
	b.WriteString("\n")
	n := 0
	write := func(s string) error {
		p, err := ParsePoint(s)
		if err != nil {
			return fmt.Errorf("record %s: %w", rec.ID, err)
		}
		if n%2 == 0 {
			b.WriteString(";B[")
		} else {
			b.WriteString(";W[")
		}
		b.WriteString(SGFPoint(p) + "]")
		n++
		return nil
	}
	for _, m := range rec.Opening {
		if err := write(m); err != nil {
			return "", err
		}
	}
	for _, m := range rec.Moves {
		if err := write(m.Move); err != nil {
			return "", err
		}
	}
	b.WriteString("\n)\n")
	return b.String(), nil
}

// sgfResult is the RE value: "0" for a draw, "B+n"/"W+n" for a win by n
// dots, "B+T"/"W+T" on time, "B+F"/"W+F" for other forfeits.
func sgfResult(rec *game.Record) string {
	if rec.Winner == nil {
		return "0"
	}
	side := "W+"
	if len(rec.Seats) > 0 && *rec.Winner == rec.Seats[0] {
		side = "B+"
	}
	switch string(rec.Reason) {
	case ReasonScore, ReasonMaxMoves, ReasonGrounded:
		if len(rec.Scores) == 2 {
			d := rec.Scores[*rec.Winner] - rec.Scores[1-*rec.Winner]
			return side + strconv.Itoa(d)
		}
		return side
	case string(game.ReasonTimeout):
		return side + "T"
	}
	return side + "F"
}
