// The start page: a new game, a saved game opened, the recent games.
"use strict";
const DEFAULT_SEATS = ["person", "heuristic", "heuristic", "heuristic"];
const seatBox = document.getElementById("seat-inputs");
SEATS.forEach((name, i) => seatBox.append(el("label", {}, SEAT_WORDS[i] + " ",
  el("input", {type: "text", id: `seat-${i}`, value: DEFAULT_SEATS[i]}))));

function showError(e) { document.getElementById("error").textContent = e ? e.message : ""; }
function seats() { return SEATS.map((_, i) => document.getElementById(`seat-${i}`).value.trim()); }

function showLinks(created) {
  const box = document.getElementById("links");
  box.replaceChildren(el("div", {}, "Game ", el("code", {id: "game-id"}, created.id), ": ",
    el("a", {href: created.watch, id: "watch-link"}, "watch"), " · ",
    el("a", {href: created.manage, id: "manage-link"}, "your game (pace, stop, delete: keep this link)"), " · ",
    el("a", {href: created.replay}, "replay (once over)")));
  created.seats.filter(s => s.url).forEach(s => box.append(el("div", {},
    `${seatWords(s.seat)}: `, el("a", {href: s.url, class: "seat-link", "data-seat": s.seat}, location.origin + s.url))));
}

// "a=1, b=true" -> {a: 1, b: true} (numbers and booleans as such, the rest as text).
function settings() {
  const out = {};
  for (const part of document.getElementById("settings").value.split(",")) {
    const [k, v] = part.split("=").map(x => (x || "").trim());
    if (!k) continue;
    out[k] = v === "true" ? true : v === "false" ? false : v !== "" && !isNaN(Number(v)) ? Number(v) : v;
  }
  return out;
}

async function start(all_agents) {
  showError(null);
  const body = {ruleset: document.getElementById("ruleset").value,
                delay: Number(document.getElementById("delay").value), settings: settings(),
                seats: all_agents ? seats().map(x => x === "person" ? "heuristic" : x) : seats()};
  const seed = document.getElementById("seed").value.trim();
  if (seed !== "") body.seed = Number(seed);
  try {
    const created = await api("/api/games", {method: "POST", body: JSON.stringify(body)});
    showLinks(created);
    if (all_agents) location.href = created.manage;
    listGames();
  } catch (e) { showError(e); }
}

document.getElementById("new-game").addEventListener("submit", e => { e.preventDefault(); start(false); });
document.getElementById("watch-agents").addEventListener("click", () => start(true));

async function openSave(path, extra) {
  showError(null);
  const file = document.getElementById("save-file").files[0];
  if (!file) { showError(new Error("choose a saved game first")); return; }
  try {
    const created = await api(path, {method: "POST", body: JSON.stringify({save: await file.text(), ...extra})});
    if (path === "/api/replays") location.href = created.replay; else { showLinks(created); listGames(); }
  } catch (e) { showError(e); }
}
document.getElementById("open-replay").addEventListener("click", () => openSave("/api/replays", {}));
document.getElementById("open-resume").addEventListener("click", () =>
  openSave("/api/games/resume", {seats: seats(), delay: Number(document.getElementById("delay").value)}));

async function listGames() {
  const {games} = await api("/api/games");
  const body = document.getElementById("games");
  body.replaceChildren();
  for (const g of games) {
    const links = el("td", {}, el("a", {href: `/play/${g.id}`}, "watch"));
    if (g.open_book) links.append(" · ", el("a", {href: `/replay/${g.id}`}, "replay"), " · ",
                                  el("a", {href: `/api/games/${g.id}/save`}, "download"));
    body.append(el("tr", {}, el("td", {}, el("code", {}, g.id)), el("td", {}, g.status),
                   el("td", {}, g.seats.join(", ")), links));
  }
}
listGames();
