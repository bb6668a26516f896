package antsbot

import (
	"os"
	"strconv"
	"testing"
	"time"

	"arena/game/ants/mapgen"
	"arena/internal/sprttest"
)

// tuningVariants are versions of the bot's weights, measured against
// each other by TestSPRT and against the defaults by TestClashVariant.
func tuningVariants() map[string]func(*tuning) {
	return map[string]func(*tuning){
		"base":      func(*tuning) {},
		"kill1":     func(t *tuning) { t.killW = 1 },
		"kill08":    func(t *tuning) { t.killW = 0.8 },
		"avg0":      func(t *tuning) { t.avgShare = 0 },
		"avg05":     func(t *tuning) { t.avgShare = 0.5 },
		"approach0": func(t *tuning) { t.approach = 0 },
		"approach3": func(t *tuning) { t.approach = 0.3 },
		"rounds16":  func(t *tuning) { t.rounds = 16 },
		"rally10":   func(t *tuning) { t.rally = 10 }, // the default before the trials of 6, 3 and 0
		"rally6":    func(t *tuning) { t.rally = 6 },
		"rally3":    func(t *tuning) { t.rally = 3 },
		"ahead12":   func(t *tuning) { t.ahead = 1.2 },
		"ahead2":    func(t *tuning) { t.ahead = 2 },
		"defend3":   func(t *tuning) { t.defenders = 3 },
		"defend15":  func(t *tuning) { t.defendSteps = 15 },
		"defend10":  func(t *tuning) { t.defendSteps = 10 }, // the default before the trials of 15, 6 and 4
		"defend4":   func(t *tuning) { t.defendSteps = 4 },
		"defend1":   func(t *tuning) { t.defenders = 1 },
		"raze067":   func(t *tuning) { t.razeShare = 2.0 / 3 }, // the default before the trials of 0.5 and 0.85
		"raze085":   func(t *tuning) { t.razeShare = 0.85 },
		"raze035":   func(t *tuning) { t.razeShare = 0.35 },
		"near12":    func(t *tuning) { t.razeNear = 12 },
		"near30":    func(t *tuning) { t.razeNear = 30 },
		"food60":    func(t *tuning) { t.foodSteps = 60 },
		"food25":    func(t *tuning) { t.foodSteps = 25 },
		"stale5":    func(t *tuning) { t.staleTurns = 5 },
		"stale20":   func(t *tuning) { t.staleTurns = 20 },
		"step4":     func(t *tuning) { t.exploreStep = 4 },
		"step9":     func(t *tuning) { t.exploreStep = 9 },
		"army6":     func(t *tuning) { t.armySize = 6 },
		"army16":    func(t *tuning) { t.armySize = 16 },
		"exact4k":   func(t *tuning) { t.exactReplies = 4096 },
		"exact20k":  func(t *tuning) { t.exactReplies = 20000 },
		"room":      func(t *tuning) { t.roomW, t.roomMargin = 0.5, 2 },
		"crowd14":   func(t *tuning) { t.crowd = 14 },
		"nopress":   func(t *tuning) { t.press = false }, // the default before the trials against xathis
		"press3":    func(t *tuning) { t.approach = 0.3 },
		"caution2":  func(t *tuning) { t.caution, t.cautionR2, t.cautiousRaze = 2, 49, true },
		"caution2p": func(t *tuning) { t.caution, t.cautionR2 = 2, 49 }, // peaceful jobs only, not razing
		"trap":      func(t *tuning) { t.trapW, t.trapTradeW, t.trapAlone2 = 0.9, 0.3, 20 },
		"trap2":     func(t *tuning) { t.trapW, t.trapTradeW, t.trapAlone2 = 0.9, 0, 20 },
		"trapf":     func(t *tuning) { t.trapW, t.trapTradeW, t.trapAlone2, t.trapFightOnly = 0.9, 0.3, 20, true },
		"convoy":    func(t *tuning) { t.convoyR2, t.convoyBack2, t.convoyNear = 20, 144, 8 },
		"safex":     func(t *tuning) { t.exploreAvoid = 10 },
		"trap2n":    func(t *tuning) { t.trapW, t.trapTradeW, t.trapAlone2 = 0.9, 0, 8 },
		"maxmin":    func(t *tuning) { t.exactReplies, t.exactBattle, t.evalsPerTurn = 20000, 2_000_000, 1_000_000 },
		"stage":     func(t *tuning) { t.stageSteps, t.stageSize = 16, 10 },
		"mass":      func(t *tuning) { t.massSteps, t.massMin, t.massR2 = 12, 5, 64 },
		"mass2":     func(t *tuning) { t.massSteps, t.massMin, t.massR2, t.massRetreat = 12, 5, 64, true },
		"sym":       func(t *tuning) { t.symmetry = true },
		"symmass":   func(t *tuning) { t.symmetry, t.massSteps, t.massMin, t.massR2 = true, 12, 5, 64 },
		"late100":   func(t *tuning) { t.lateTurns = 100 },
	}
}

// botWith returns a Bot with the named variant's weights.
func botWith(t testing.TB, name string) *Bot {
	mod, ok := tuningVariants()[name]
	if !ok {
		t.Fatalf("no variant %q", name)
	}
	b := New()
	mod(&b.tune)
	return b
}

// simPair plays one generated two-player map (point-symmetric, food
// placed symmetrically) twice in the in-process simulator, the players
// swapping seats, and returns the new version's
// scores in the two games: the game's score decides, and a tied score
// goes to whoever has more ants at the end (a draw when that ties too).
// Only the combat search's evaluation budget bounds a turn, so the
// machine's load changes nothing.
func simPair(t *testing.T, newName, oldName string, i, turns int) (float64, float64) {
	size := 56 + 8*(i%4)
	text, err := mapgen.Generate(mapgen.Options{Players: 2, Seed: int64(5000 + i), Rows: size, Cols: size, Symmetry: mapgen.Rotate})
	if err != nil {
		t.Fatal(err)
	}
	var scores [2]float64
	for g := range 2 {
		s := newRotatedSim(t, text, DefaultParams(), int64(i))
		players := []Player{botWith(t, newName), botWith(t, oldName)}
		seat := g // the new version's seat
		if g == 1 {
			players[0], players[1] = players[1], players[0]
		}
		score := s.play(players, turns, 10*time.Second)
		ants := s.counts()
		mine, theirs := score[seat], score[1-seat]
		if mine == theirs {
			mine, theirs = ants[seat], ants[1-seat]
		}
		switch {
		case mine > theirs:
			scores[g] = 1
		case mine == theirs:
			scores[g] = 0.5
		}
		t.Logf("map %d (%dx%d), new in seat %d: scores %v, ants %v at turn %d", i, size, size, seat, score, ants, s.turn)
	}
	return scores[0], scores[1]
}

// TestSPRT runs an SPRT (elo0 0, elo1 5, pentanomial, as fishtest) of the
// variant named by ANTSBOT_SPRT_NEW against ANTSBOT_SPRT_OLD (see
// tuningVariants) in the in-process simulator: pairs of games on
// generated point-symmetric two-player maps (56x56 to 80x80), ANTSBOT_TURNS turns each
// (default 500), until it decides or ANTSBOT_SPRT pairs are played
// (ANTSBOT_SPRT_FIRST skips that many maps):
//
//	ANTSBOT_SPRT=200 ANTSBOT_SPRT_NEW=rally15 ANTSBOT_SPRT_OLD=base go test -run 'TestSPRT$' -v -timeout 3h ./bots/antsbot/
func TestSPRT(t *testing.T) {
	maxPairs := envInt("ANTSBOT_SPRT", 0)
	if maxPairs == 0 {
		t.Skip("set ANTSBOT_SPRT=<max pairs> to run an SPRT")
	}
	newName, oldName := os.Getenv("ANTSBOT_SPRT_NEW"), os.Getenv("ANTSBOT_SPRT_OLD")
	botWith(t, newName)
	botWith(t, oldName)
	turns := envInt("ANTSBOT_TURNS", 500)
	first := envInt("ANTSBOT_SPRT_FIRST", 0)
	r := sprttest.Run(t, maxPairs, func(i int) (float64, float64) {
		return simPair(t, newName, oldName, first+i, turns)
	})
	t.Logf("%s vs %s, %d turns: %v", newName, oldName, turns, r)
}

// envInt is the integer in environment variable name, or def when it is
// unset or not a number.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}
