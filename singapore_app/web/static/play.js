// A seat at the table (or a spectator without a seat): polls its view, shows the board,
// its hand, the question with every legal answer as a button, and the log.
"use strict";
const gameId = location.pathname.split("/").pop();
const params = new URLSearchParams(location.search);
const seat = params.get("seat");
const key = new URLSearchParams(location.hash.slice(1)).get("key") || params.get("key");
const base = `/api/games/${gameId}` + (seat !== null ? `/seats/${seat}` : "");
let shown = -1, busy = false;

function render(v) {
  document.getElementById("who").textContent = v.seat ? `you are ${v.seat}` : "watching";
  document.getElementById("status").textContent = v.status + (v.error ? " — " + v.error : "");
  document.getElementById("status").dataset.over = v.over;
  document.getElementById("board").replaceChildren(drawBoard(v.board));
  drawPlayers(v.board, document.getElementById("players"));
  const me = v.board.players.find(p => p.seat === v.seat);
  const hand = document.getElementById("hand");
  hand.replaceChildren(...(me && me.hand ? me.hand.map(c => cardNode(c)) : [el("i", {}, v.seat ? "no cards" : "(spectator)")]));
  const log = document.getElementById("log");
  log.textContent = v.log.join("\n");
  log.scrollTop = log.scrollHeight;
  const links = document.getElementById("links");
  links.replaceChildren();
  if (v.open_book) links.append(el("a", {href: `/replay/${gameId}`, id: "replay-link"}, "replay"), " ",
                                el("a", {href: `/api/games/${gameId}/save`, id: "download-link"}, "download"));
  const q = v.question, answers = document.getElementById("answers");
  document.getElementById("question").textContent = v.over ? "The game is over: " + v.status
    : q ? q.text : `Waiting for ${v.acting}…`;
  answers.replaceChildren();
  if (q) q.answers.forEach(a => answers.append(el("button", {class: "answer", "data-index": a.index,
      onclick: () => answer(a.index, v.decisions)}, a.text, a.card ? el("span", {class: "text"}, `${a.card.name}: ${a.card.text}`) : null)));
}

async function refresh() {
  if (busy) return;
  try {
    const v = await api(base, {}, key);
    if (v.decisions !== shown) { shown = v.decisions; render(v); }
    document.getElementById("error").textContent = "";
  } catch (e) {
    // A wrong or missing secret: the table as a spectator sees it, nothing hidden.
    const v = seat !== null ? await api(`/api/games/${gameId}`).catch(() => null) : null;
    if (v && v.decisions !== shown) { shown = v.decisions; render(v); }
    document.getElementById("error").textContent = e.message;
  }
}

async function answer(index, expect) {
  busy = true;
  document.querySelectorAll("button.answer").forEach(b => b.disabled = true);
  try {
    const v = await api(`${base}/answer`, {method: "POST", body: JSON.stringify({index, expect})}, key);
    shown = v.decisions; render(v);
  } catch (e) { document.getElementById("error").textContent = e.message; shown = -1; }
  busy = false;
}

refresh();
setInterval(refresh, 400);
