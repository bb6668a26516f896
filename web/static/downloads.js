// Links from a stored game's replay to its files and its tournament, and
// from a tournament's page to its results file: what GET /api/games/ID
// and GET /api/results/NAME offer (web/download.go).

import { getJSON } from "./api.js";
import { el } from "./board.js";

// recordLinks returns a box that fills itself with a game's download
// links (one per format of its game: JSON, psq, SGF, khet, replay) and,
// for a tournament's game, a link to the tournament.
export function recordLinks(id) {
  const box = el("div", { class: "record-links" });
  getJSON("/api/games/" + encodeURIComponent(id))
    .then((files) => {
      const links = (files.downloads || []).map((d) =>
        el("a", { class: "button", href: d.url, download: d.name, "data-format": d.format, title: "Download the " + d.title }, "⤓ " + d.format),
      );
      if (files.tournament) {
        links.unshift(el("a", { class: "button", href: "#/tournament/" + encodeURIComponent(files.tournament), "data-action": "tournament" }, "Tournament: " + files.tournament));
      }
      box.replaceChildren(...links);
    })
    .catch((e) => box.replaceChildren(el("span", { class: "empty" }, "no downloads: " + e.message)));
  return box;
}

// resultsLink is the download of a tournament's PGN-style results file,
// which BayesElo and Ordo read (two-player games only).
export function resultsLink(name, game) {
  if (game === "ants") return null;
  return el(
    "a",
    { class: "button", href: "/api/results/" + encodeURIComponent(name), download: name.replace(/[\/\\:*?"<>|]/g, "_") + ".pgn", "data-action": "results", title: "results for BayesElo and Ordo" },
    "⤓ results (PGN)",
  );
}
