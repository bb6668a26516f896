package standings

import (
	"fmt"
	"strings"

	"arena/store"
)

// PGN writes the results of a tournament's two-player games as PGN
// headers, each with its result and an empty move list, which BayesElo
// and Ordo read: White is the side that moved first. Games of more than
// two players are left out; "" means the tournament has none of two.
func PGN(event string, games []store.Game) string {
	var b strings.Builder
	for _, g := range games {
		if len(g.Players) == 2 && len(g.Seats) == 2 {
			writePGN(&b, event, g)
		}
	}
	return b.String()
}

// writePGN writes one game's PGN header and result.
func writePGN(b *strings.Builder, event string, g store.Game) {
	result := "1/2-1/2"
	if g.Winner != nil {
		if *g.Winner == g.Seats[0] {
			result = "1-0"
		} else {
			result = "0-1"
		}
	}
	date := "????.??.??"
	if !g.End.IsZero() {
		date = g.End.UTC().Format("2006.01.02")
	}
	tag := func(k, v string) {
		v = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v)
		fmt.Fprintf(b, "[%s \"%s\"]\n", k, v)
	}
	tag("Event", event)
	tag("Site", "arena")
	tag("Date", date)
	tag("Round", fmt.Sprint(max(g.Round, 1)))
	tag("White", g.Players[g.Seats[0]])
	tag("Black", g.Players[g.Seats[1]])
	tag("Result", result)
	tag("GameId", g.ID)
	tag("Termination", g.Reason)
	fmt.Fprintf(b, "\n%s\n\n", result)
}
