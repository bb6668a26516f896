package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// contestMigration is schema version 2: contests, their participants
// (with their ladder rating), their submissions and which stored games
// belong to a contest's ladder.
var contestMigration = []string{
	`CREATE TABLE contests (
		name       TEXT PRIMARY KEY,
		game       TEXT NOT NULL,
		options    {json} NOT NULL,
		args       {json} NOT NULL,
		open_registration INTEGER NOT NULL,
		paused     INTEGER NOT NULL,
		created    {time} NOT NULL
	)`,
	`CREATE TABLE contest_users (
		contest    TEXT NOT NULL REFERENCES contests (name),
		name       TEXT NOT NULL,
		token_hash TEXT NOT NULL UNIQUE,
		mu         DOUBLE PRECISION NOT NULL,
		sigma      DOUBLE PRECISION NOT NULL,
		games      INTEGER NOT NULL,
		wins       INTEGER NOT NULL,
		draws      INTEGER NOT NULL,
		losses     INTEGER NOT NULL,
		disqualified INTEGER NOT NULL,
		created    {time} NOT NULL,
		PRIMARY KEY (contest, name)
	)`,
	`CREATE TABLE submissions (
		seq        {serial},
		id         TEXT NOT NULL UNIQUE,
		contest    TEXT NOT NULL REFERENCES contests (name),
		user_name  TEXT NOT NULL,
		language   TEXT NOT NULL,
		state      TEXT NOT NULL,
		reason     TEXT NOT NULL,
		log        TEXT NOT NULL,
		dir        TEXT NOT NULL,
		command    {json} NOT NULL,
		created    {time} NOT NULL
	)`,
	`CREATE INDEX submissions_user ON submissions (contest, user_name, seq)`,
	`CREATE TABLE contest_games (
		game_id     TEXT PRIMARY KEY REFERENCES games (id),
		contest     TEXT NOT NULL REFERENCES contests (name),
		users       {json} NOT NULL,
		submissions {json} NOT NULL,
		stderr      {json} NOT NULL
	)`,
	`CREATE INDEX contest_games_contest ON contest_games (contest)`,
}

// Submission states.
const (
	SubmissionCompiling = "compiling" // unpacked, being built and tested
	SubmissionAccepted  = "accepted"  // built and tested: the participant's bot on the ladder
	SubmissionRejected  = "rejected"  // failed to build or its test games; Reason says why
	SubmissionReplaced  = "replaced"  // accepted, then replaced by a newer accepted one
)

// Contest is one contest: a game with its options and the participants
// who submit bots for it.
type Contest struct {
	Name    string
	Game    string
	Options json.RawMessage // the game's options as a match.Spec carries them; "{}" for the defaults
	Args    []string        // the command line's game options, as given
	Open    bool            // participants may register themselves
	Paused  bool            // the ladder plays no new games
	Created time.Time
}

// Participant is one participant of a contest with its ladder rating
// (OpenSkill: Mu, Sigma) and its results.
type Participant struct {
	Contest      string
	Name         string
	Mu, Sigma    float64
	Games        int
	Wins, Draws  int
	Losses       int
	Disqualified bool
	Created      time.Time
}

// Submission is one upload of a participant's bot.
type Submission struct {
	ID       string
	Contest  string
	User     string
	Language string
	State    string // SubmissionCompiling, ...
	Reason   string // why it was rejected
	Log      string // the compile log and the test games' outcome
	Dir      string // the built bot's folder
	Command  []string
	Created  time.Time
}

// ContestGame ties a stored game to a contest's ladder: the participants
// in the order of the game's players, and the submissions they played.
type ContestGame struct {
	Contest     string
	Users       []string
	Submissions []string
	// Stderr is each player's stderr in the game, kept out of the
	// record (which everyone may replay): only its own participant and
	// the organiser see it.
	Stderr []string
}

// Rated is a participant's rating and results after one game.
type Rated struct {
	User      string
	Mu, Sigma float64
	Win, Draw bool // neither: a loss
}

// CreateContest inserts c (ErrExists if the name is taken).
func (s *Store) CreateContest(ctx context.Context, c Contest) error {
	if c.Name == "" || c.Game == "" {
		return errors.New("create contest: empty name or game")
	}
	if len(c.Options) == 0 {
		c.Options = json.RawMessage(`{}`)
	}
	if c.Created.IsZero() {
		c.Created = time.Now()
	}
	args, err := json.Marshal(c.Args)
	if err != nil {
		return fmt.Errorf("create contest %s: %w", c.Name, err)
	}
	res, err := s.w.ExecContext(ctx, s.d.q(`INSERT INTO contests (name, game, options, args, open_registration, paused, created)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`),
		c.Name, c.Game, string(c.Options), string(args), boolInt(c.Open), boolInt(c.Paused), s.d.timeArg(c.Created))
	if err != nil {
		return fmt.Errorf("create contest %s: %w", c.Name, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("create contest %s: %w", c.Name, err)
	} else if n == 0 {
		return fmt.Errorf("create contest %s: %w", c.Name, ErrExists)
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

const contestColumns = `name, game, options, args, open_registration, paused, created`

func scanContest(row interface{ Scan(...any) error }) (Contest, error) {
	var c Contest
	var opts, args []byte
	var open, paused int
	if err := row.Scan(&c.Name, &c.Game, &opts, &args, &open, &paused, timeScanner{&c.Created}); err != nil {
		return c, err
	}
	c.Options = json.RawMessage(opts)
	c.Open, c.Paused = open != 0, paused != 0
	if err := json.Unmarshal(args, &c.Args); err != nil {
		return c, fmt.Errorf("contest %s: args: %w", c.Name, err)
	}
	return c, nil
}

// Contest returns the contest of that name, or ErrNotFound.
func (s *Store) Contest(ctx context.Context, name string) (Contest, error) {
	c, err := scanContest(s.r.QueryRowContext(ctx, s.d.q(`SELECT `+contestColumns+` FROM contests WHERE name = ?`), name))
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("contest %s: %w", name, ErrNotFound)
	}
	if err != nil {
		return c, fmt.Errorf("contest %s: %w", name, err)
	}
	return c, nil
}

// Contests lists every contest, oldest first.
func (s *Store) Contests(ctx context.Context) ([]Contest, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+contestColumns+` FROM contests ORDER BY created, name`)
	return collect(rows, err, "list contests", scanContest)
}

// SetContestPaused pauses or resumes a contest's ladder.
func (s *Store) SetContestPaused(ctx context.Context, name string, paused bool) error {
	return s.exec1(ctx, fmt.Sprintf("contest %s", name), `UPDATE contests SET paused = ? WHERE name = ?`, boolInt(paused), name)
}

// exec1 runs a statement that must change one row (ErrNotFound if none).
func (s *Store) exec1(ctx context.Context, what, query string, args ...any) error {
	res, err := s.w.ExecContext(ctx, s.d.q(query), args...)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	} else if n == 0 {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return nil
}

// AddParticipant adds a participant with its token's hash and a starting
// rating (ErrExists if the contest has one of that name).
func (s *Store) AddParticipant(ctx context.Context, p Participant, tokenHash string) error {
	if p.Created.IsZero() {
		p.Created = time.Now()
	}
	if _, err := s.Contest(ctx, p.Contest); err != nil {
		return fmt.Errorf("add participant %s: %w", p.Name, err)
	}
	res, err := s.w.ExecContext(ctx, s.d.q(`INSERT INTO contest_users (contest, name, token_hash, mu, sigma,
		games, wins, draws, losses, disqualified, created) VALUES (?, ?, ?, ?, ?, 0, 0, 0, 0, 0, ?)
		ON CONFLICT (contest, name) DO NOTHING`),
		p.Contest, p.Name, tokenHash, p.Mu, p.Sigma, s.d.timeArg(p.Created))
	if err != nil {
		return fmt.Errorf("add participant %s to %s: %w", p.Name, p.Contest, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("add participant %s to %s: %w", p.Name, p.Contest, err)
	} else if n == 0 {
		return fmt.Errorf("add participant %s to %s: %w", p.Name, p.Contest, ErrExists)
	}
	return nil
}

const participantColumns = `contest, name, mu, sigma, games, wins, draws, losses, disqualified, created`

func scanParticipant(row interface{ Scan(...any) error }) (Participant, error) {
	var p Participant
	var dq int
	err := row.Scan(&p.Contest, &p.Name, &p.Mu, &p.Sigma, &p.Games, &p.Wins, &p.Draws, &p.Losses, &dq, timeScanner{&p.Created})
	p.Disqualified = dq != 0
	return p, err
}

// ParticipantByToken finds the participant whose token hashes to
// tokenHash in a contest (ErrNotFound if none).
func (s *Store) ParticipantByToken(ctx context.Context, contest, tokenHash string) (Participant, error) {
	p, err := scanParticipant(s.r.QueryRowContext(ctx, s.d.q(`SELECT `+participantColumns+
		` FROM contest_users WHERE contest = ? AND token_hash = ?`), contest, tokenHash))
	if errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("contest %s: token: %w", contest, ErrNotFound)
	}
	if err != nil {
		return p, fmt.Errorf("contest %s: token: %w", contest, err)
	}
	return p, nil
}

// Participants lists a contest's participants in the order they joined.
func (s *Store) Participants(ctx context.Context, contest string) ([]Participant, error) {
	rows, err := s.r.QueryContext(ctx, s.d.q(`SELECT `+participantColumns+
		` FROM contest_users WHERE contest = ? ORDER BY created, name`), contest)
	return collect(rows, err, "participants of "+contest, scanParticipant)
}

// SetRating sets a participant's rating (a new submission widens it).
func (s *Store) SetRating(ctx context.Context, contest, user string, mu, sigma float64) error {
	return s.exec1(ctx, fmt.Sprintf("participant %s of %s", user, contest),
		`UPDATE contest_users SET mu = ?, sigma = ? WHERE contest = ? AND name = ?`, mu, sigma, contest, user)
}

// Disqualify takes a participant off the ladder for good.
func (s *Store) Disqualify(ctx context.Context, contest, user string) error {
	return s.exec1(ctx, fmt.Sprintf("participant %s of %s", user, contest),
		`UPDATE contest_users SET disqualified = 1 WHERE contest = ? AND name = ?`, contest, user)
}

// AddSubmission stores a new submission.
func (s *Store) AddSubmission(ctx context.Context, sub Submission) error {
	if sub.Created.IsZero() {
		sub.Created = time.Now()
	}
	cmd, err := json.Marshal(sub.Command)
	if err != nil {
		return fmt.Errorf("add submission %s: %w", sub.ID, err)
	}
	_, err = s.w.ExecContext(ctx, s.d.q(`INSERT INTO submissions (id, contest, user_name, language, state, reason,
		log, dir, command, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		sub.ID, sub.Contest, sub.User, sub.Language, sub.State, sub.Reason, sub.Log, sub.Dir, string(cmd), s.d.timeArg(sub.Created))
	if err != nil {
		return fmt.Errorf("add submission %s: %w", sub.ID, err)
	}
	return nil
}

// FinishSubmission records a submission's outcome. An accepted one
// replaces the participant's earlier accepted submission, in the same
// transaction.
func (s *Store) FinishSubmission(ctx context.Context, sub Submission) error {
	cmd, err := json.Marshal(sub.Command)
	if err != nil {
		return fmt.Errorf("finish submission %s: %w", sub.ID, err)
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("finish submission %s: %w", sub.ID, err)
	}
	defer tx.Rollback()
	if sub.State == SubmissionAccepted {
		if _, err := tx.ExecContext(ctx, s.d.q(`UPDATE submissions SET state = ? WHERE contest = ? AND user_name = ? AND state = ?`),
			SubmissionReplaced, sub.Contest, sub.User, SubmissionAccepted); err != nil {
			return fmt.Errorf("finish submission %s: %w", sub.ID, err)
		}
	}
	res, err := tx.ExecContext(ctx, s.d.q(`UPDATE submissions SET language = ?, state = ?, reason = ?, log = ?, dir = ?, command = ?
		WHERE id = ?`), sub.Language, sub.State, sub.Reason, sub.Log, sub.Dir, string(cmd), sub.ID)
	if err != nil {
		return fmt.Errorf("finish submission %s: %w", sub.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("finish submission %s: %w", sub.ID, errors.Join(err, ErrNotFound))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("finish submission %s: %w", sub.ID, err)
	}
	return nil
}

const submissionColumns = `id, contest, user_name, language, state, reason, log, dir, command, created`

func scanSubmission(row interface{ Scan(...any) error }) (Submission, error) {
	var sub Submission
	var cmd []byte
	if err := row.Scan(&sub.ID, &sub.Contest, &sub.User, &sub.Language, &sub.State, &sub.Reason, &sub.Log, &sub.Dir,
		&cmd, timeScanner{&sub.Created}); err != nil {
		return sub, err
	}
	if err := json.Unmarshal(cmd, &sub.Command); err != nil {
		return sub, fmt.Errorf("submission %s: command: %w", sub.ID, err)
	}
	return sub, nil
}

// Submission returns one submission (ErrNotFound if none).
func (s *Store) Submission(ctx context.Context, id string) (Submission, error) {
	sub, err := scanSubmission(s.r.QueryRowContext(ctx, s.d.q(`SELECT `+submissionColumns+` FROM submissions WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return sub, fmt.Errorf("submission %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return sub, fmt.Errorf("submission %s: %w", id, err)
	}
	return sub, nil
}

// Submissions lists a contest's submissions in the order they came, only
// user's when user is not "".
func (s *Store) Submissions(ctx context.Context, contest, user string) ([]Submission, error) {
	query, args := `SELECT `+submissionColumns+` FROM submissions WHERE contest = ?`, []any{contest}
	if user != "" {
		query += ` AND user_name = ?`
		args = append(args, user)
	}
	rows, err := s.r.QueryContext(ctx, s.d.q(query+` ORDER BY seq`), args...)
	return collect(rows, err, "submissions of "+contest, scanSubmission)
}

// SaveContestGame stores a ladder game, ties it to its contest and sets
// its participants' ratings and results, in one transaction (shared with
// other games saved at the same moment, as SaveGame's): a game is
// counted once or not at all.
func (s *Store) SaveContestGame(ctx context.Context, g Game, cg ContestGame, rated []Rated) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("save contest game %s: %w", g.ID, err)
		}
	}()
	if g.Tournament != "" {
		return errors.New("a ladder game belongs to no tournament")
	}
	if cg.Stderr == nil {
		cg.Stderr = make([]string, len(cg.Users))
	}
	lists := make([]string, 6)
	for i, v := range []any{g.Players, g.Seats, g.Scores, cg.Users, cg.Submissions, cg.Stderr} {
		data, err := json.Marshal(v)
		if err != nil {
			return err
		}
		lists[i] = string(data)
	}
	args, err := s.gameArgs(g, nil, [3]string(lists[:3]))
	if err != nil {
		return err
	}
	return s.commits.save(ctx, &pending{key: g.ID, size: storedSize(args), write: func(ctx context.Context, b *batch) error {
		res, err := b.insert(ctx).ExecContext(ctx, args...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return ErrExists
		}
		if _, err := b.tx.ExecContext(ctx, s.d.q(`INSERT INTO contest_games (game_id, contest, users, submissions, stderr) VALUES (?, ?, ?, ?, ?)`),
			g.ID, cg.Contest, lists[3], lists[4], lists[5]); err != nil {
			return err
		}
		for _, r := range rated {
			win, draw, loss := 0, 0, 1
			switch {
			case r.Win:
				win, loss = 1, 0
			case r.Draw:
				draw, loss = 1, 0
			}
			if _, err := b.tx.ExecContext(ctx, s.d.q(`UPDATE contest_users SET mu = ?, sigma = ?, games = games + 1,
				wins = wins + ?, draws = draws + ?, losses = losses + ? WHERE contest = ? AND name = ?`),
				r.Mu, r.Sigma, win, draw, loss, cg.Contest, r.User); err != nil {
				return err
			}
		}
		return nil
	}})
}

// ContestGameSummary is a ladder game as the contest's pages list it.
type ContestGameSummary struct {
	ID          string
	Users       []string
	Submissions []string
	Winner      *int // index into Users, nil = draw
	Reason      string
	Scores      []int
	Moves       int
	End         time.Time
}

// ContestGames lists a contest's ladder games, the newest first, only
// user's when user is not "", at most limit (0: DefaultLimit).
func (s *Store) ContestGames(ctx context.Context, contest, user string, limit int) ([]ContestGameSummary, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	query := `SELECT g.id, c.users, c.submissions, g.winner, g.reason, g.scores, g.moves, g.end_time
		FROM contest_games c JOIN games g ON g.id = c.game_id WHERE c.contest = ?`
	args := []any{contest}
	if user != "" {
		// Users is a JSON list of names; a name is matched whole, quoted.
		quoted, _ := json.Marshal(user)
		users := `c.users`
		if s.d.name == kindPostgres {
			users = `c.users::text`
		}
		query += ` AND ` + users + ` LIKE ? ESCAPE '\'`
		args = append(args, "%"+likeEscape(string(quoted))+"%")
	}
	query += ` ORDER BY g.seq DESC LIMIT ?`
	args = append(args, limit)
	rows, err := s.r.QueryContext(ctx, s.d.q(query), args...)
	if err != nil {
		return nil, fmt.Errorf("games of contest %s: %w", contest, err)
	}
	defer rows.Close()
	var out []ContestGameSummary
	for rows.Next() {
		var g ContestGameSummary
		var users, subs, scores []byte
		var winner sql.NullInt64
		if err := rows.Scan(&g.ID, &users, &subs, &winner, &g.Reason, &scores, &g.Moves, timeScanner{&g.End}); err != nil {
			return nil, fmt.Errorf("games of contest %s: %w", contest, err)
		}
		if winner.Valid {
			w := int(winner.Int64)
			g.Winner = &w
		}
		for _, l := range []struct {
			data []byte
			v    any
		}{{users, &g.Users}, {subs, &g.Submissions}, {scores, &g.Scores}} {
			if err := json.Unmarshal(l.data, l.v); err != nil {
				return nil, fmt.Errorf("game %s: %w", g.ID, err)
			}
		}
		if user != "" && !contains(g.Users, user) {
			continue // a LIKE match inside another name
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// ContestOfGame returns the ladder entry of a stored game (ErrNotFound if
// it is no contest's).
func (s *Store) ContestOfGame(ctx context.Context, id string) (ContestGame, error) {
	var cg ContestGame
	var users, subs, stderr []byte
	err := s.r.QueryRowContext(ctx, s.d.q(`SELECT contest, users, submissions, stderr FROM contest_games WHERE game_id = ?`), id).
		Scan(&cg.Contest, &users, &subs, &stderr)
	if errors.Is(err, sql.ErrNoRows) {
		return cg, fmt.Errorf("contest game %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return cg, fmt.Errorf("contest game %s: %w", id, err)
	}
	if err := errors.Join(json.Unmarshal(users, &cg.Users), json.Unmarshal(subs, &cg.Submissions), json.Unmarshal(stderr, &cg.Stderr)); err != nil {
		return cg, fmt.Errorf("contest game %s: %w", id, err)
	}
	return cg, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// likeEscape escapes LIKE's wildcards with a backslash.
func likeEscape(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '%' || c == '_' || c == '\\' {
			out = append(out, '\\')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// CountContestGames is how many ladder games a contest has stored.
func (s *Store) CountContestGames(ctx context.Context, contest string) (int, error) {
	var n int
	if err := s.r.QueryRowContext(ctx, s.d.q(`SELECT COUNT(*) FROM contest_games WHERE contest = ?`), contest).Scan(&n); err != nil {
		return 0, fmt.Errorf("games of contest %s: %w", contest, err)
	}
	return n, nil
}
