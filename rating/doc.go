// Package rating computes the statistics a tournament reports: Elo
// differences with error bars, whole-history ratings for two-player games,
// skill ratings for N-player games and the sequential test for A/B matches.
// It is plain maths on result counts, with no I/O and no state between
// calls; the tournament code feeds it games from the store.
//
// Which model each function follows:
//
//   - Score.Elo and Score.LOS: cutechess-cli's statistics for one pairing
//     (projects/lib/src/elo.cpp), which fastchess reports too. The Elo
//     difference is the logistic inverse of the mean score; its 95 %
//     interval comes from the trinomial (win/draw/loss) variance of the mean
//     score; LOS ignores draws and uses the normal approximation
//     0.5 + 0.5·erf((W-L)/sqrt(2(W+L))).
//
//   - BradleyTerry: Rémi Coulom's BayesElo. All games are fitted at once to
//     a Bradley–Terry model with a first-move advantage and BayesElo's draw
//     model (a draw Elo that widens the gap between a win and a loss), with
//     BayesElo's prior of virtual draws. It reports ratings centred on 0,
//     95 % intervals and the LOS matrix from the covariance matrix, as
//     BayesElo's "mm", "covariance" and "los" commands do. It finds the same
//     maximum by Newton's method instead of minorization–maximization.
//
//   - PlackettLuce and FitPlackettLuce: OpenSkill, that is Weng & Lin's
//     Bayesian approximation for online ranking (JMLR 2011, Algorithm 4,
//     the Plackett–Luce model) with openskill.py's defaults, one player
//     per team; a tie is the exact average over the orders the tied
//     players could have finished in. Each game updates every participant's
//     (mu, sigma); a whole event is rated by applying the games in order.
//
//   - Pentanomial.LLR and SPRTBounds: fishtest's generalised SPRT on game
//     pairs (Michel Van den Bergh's LLRcalc.py, LLR_logistic): the five
//     outcomes of a pair with swapped colours are a multinomial whose
//     expected score is fixed by the hypotheses elo0 and elo1 in logistic
//     Elo, and the LLR compares the two maximum-likelihood fits. The bounds
//     are Wald's log(beta/(1-alpha)) and log((1-beta)/alpha).
//
//   - Pentanomial.Elo, NElo and LOS: fastchess's pentanomial statistics
//     (elo_pentanomial.cpp): Elo and normalized Elo with 95 % intervals from
//     the variance over game pairs, which leaves out the openings' noise.
//
// Limits instead of NaN: where a formula has no finite answer (a clean
// sweep, no games) the functions return ±Inf rather than NaN, and document
// which; callers encoding JSON must map non-finite values themselves, since
// encoding/json rejects them.
package rating
