package contest

import (
	"context"
	"sort"
	"time"

	"arena/rating"
	"arena/store"
)

// AddParticipant adds user to a contest at the default OpenSkill rating
// and returns its token, of which the store keeps only the hash.
func AddParticipant(ctx context.Context, st *store.Store, contestName, user string) (string, error) {
	token, err := NewToken()
	if err != nil {
		return "", err
	}
	s := rating.DefaultSkill()
	if err := st.AddParticipant(ctx, store.Participant{Contest: contestName, Name: user, Mu: s.Mu, Sigma: s.Sigma}, HashToken(token)); err != nil {
		return "", err
	}
	return token, nil
}

// Standing is one participant's line of the leaderboard.
type Standing struct {
	Rank     int     `json:"rank"`
	User     string  `json:"user"`
	Rating   float64 `json:"rating"` // OpenSkill's ordinal, mu - 3 sigma
	Mu       float64 `json:"mu"`
	Sigma    float64 `json:"sigma"`
	Games    int     `json:"games"`
	Wins     int     `json:"wins"`
	Draws    int     `json:"draws"`
	Losses   int     `json:"losses"`
	Language string  `json:"language"`
	// LastSubmission is the time of the participant's last upload;
	// Accepted the ID of the submission that plays.
	LastSubmission string `json:"last_submission"`
	Accepted       string `json:"accepted,omitempty"`
	Disqualified   bool   `json:"disqualified,omitempty"`
}

// SubmissionInfo is a submission as the status lists it (no log).
type SubmissionInfo struct {
	ID       string    `json:"id"`
	User     string    `json:"user"`
	Language string    `json:"language"`
	State    string    `json:"state"`
	Reason   string    `json:"reason,omitempty"`
	Created  time.Time `json:"created"`
}

// Status is a contest's state: its submissions and the leaderboard.
type Status struct {
	Name        string           `json:"name"`
	Game        string           `json:"game"`
	Paused      bool             `json:"paused"`
	Open        bool             `json:"open_registration"`
	Games       int              `json:"games"`
	Standings   []Standing       `json:"standings"`
	Submissions []SubmissionInfo `json:"submissions"`
}

// LoadStatus reads a contest's status from the store. The leaderboard
// ranks participants with an accepted bot by rating (the ordinal), then
// those without.
func LoadStatus(ctx context.Context, st *store.Store, name string) (Status, error) {
	c, err := st.Contest(ctx, name)
	if err != nil {
		return Status{}, err
	}
	ps, err := st.Participants(ctx, name)
	if err != nil {
		return Status{}, err
	}
	subs, err := st.Submissions(ctx, name, "")
	if err != nil {
		return Status{}, err
	}
	s := Status{Name: c.Name, Game: c.Game, Paused: c.Paused, Open: c.Open, Standings: []Standing{}, Submissions: []SubmissionInfo{}}
	last := map[string]store.Submission{}
	accepted := map[string]store.Submission{}
	for _, sub := range subs {
		s.Submissions = append(s.Submissions, SubmissionInfo{ID: sub.ID, User: sub.User, Language: sub.Language, State: sub.State,
			Reason: sub.Reason, Created: sub.Created})
		last[sub.User] = sub
		if sub.State == store.SubmissionAccepted {
			accepted[sub.User] = sub
		}
	}
	games := 0
	for _, p := range ps {
		sk := rating.Skill{Mu: p.Mu, Sigma: p.Sigma}
		row := Standing{User: p.Name, Rating: sk.Ordinal(), Mu: p.Mu, Sigma: p.Sigma, Games: p.Games, Wins: p.Wins, Draws: p.Draws,
			Losses: p.Losses, Disqualified: p.Disqualified}
		games += p.Games
		if sub, ok := last[p.Name]; ok {
			row.LastSubmission = sub.Created.Format(time.RFC3339)
		}
		if sub, ok := accepted[p.Name]; ok {
			row.Accepted, row.Language = sub.ID, sub.Language
		}
		s.Standings = append(s.Standings, row)
	}
	sort.SliceStable(s.Standings, func(i, j int) bool {
		a, b := s.Standings[i], s.Standings[j]
		if ra, rb := a.Accepted != "" && !a.Disqualified, b.Accepted != "" && !b.Disqualified; ra != rb {
			return ra
		}
		return a.Rating > b.Rating
	})
	for i := range s.Standings {
		s.Standings[i].Rank = i + 1
	}
	// Each game counts once for each of its players; the status shows
	// games played, not player-games.
	if games, err = st.CountContestGames(ctx, name); err != nil {
		return Status{}, err
	}
	s.Games = games
	return s, nil
}
