// A seat at the table (or a spectator without a seat): polls its view, shows the board,
// its hand, the question with every legal answer as a button, and the log. It stops
// polling a game that does not exist, or a seat whose key is wrong (the table is then
// shown once as a spectator sees it). With the creator's key (#owner=...) it sets the
// pace, stops or deletes the game.
"use strict";
const gameId = location.pathname.split("/").pop();
const params = new URLSearchParams(location.search);
const fragment = new URLSearchParams(location.hash.slice(1));
const seat = params.get("seat");
const key = fragment.get("key") || params.get("key");
const owner = fragment.get("owner");
const base = `/api/games/${gameId}` + (seat !== null ? `/seats/${seat}` : "");
let shown = -1, busy = false, poller = null;

function render(v) {
  document.getElementById("who").textContent = v.seat ? `you are the ${seatWords(v.seat)}` : "watching";
  document.getElementById("status").textContent = v.status + (v.error ? " — " + v.error : "");
  document.getElementById("status").dataset.over = v.over;
  document.getElementById("board").replaceChildren(drawBoard(v.board));
  drawMarket(v.board, document.getElementById("market"));
  drawPlayers(v.board, document.getElementById("players"), null, v.players, v.thinking, v.seat);
  const me = v.board.players.find(p => p.seat === v.seat);
  const hand = document.getElementById("hand");
  hand.replaceChildren(...(me && me.hand && me.hand.length ? me.hand.map(c => cardNode(c))
    : [el("i", {id: "no-cards"}, v.seat ? "No cards in hand" : "(spectator)")]));
  const log = document.getElementById("log");
  log.textContent = v.log.join("\n");
  log.scrollTop = log.scrollHeight;
  const links = document.getElementById("links");
  links.replaceChildren();
  if (v.open_book) links.append(el("a", {href: `/replay/${gameId}`, id: "replay-link"}, "replay"), " ",
                                el("a", {href: `/api/games/${gameId}/save`, id: "download-link"}, "download"));
  const q = v.question, answers = document.getElementById("answers");
  const waiting = v.thinking ? `The ${seatWords(v.thinking)} is thinking…` : `Waiting for the ${seatWords(v.acting)}…`;
  document.getElementById("question").textContent = v.over ? "The game is over: " + v.status
    : v.stopped ? "The game was stopped by its creator." : q ? q.text : waiting;
  document.getElementById("final").replaceChildren(...(v.board.final ? [finalTable(v.board.final)] : []));
  document.getElementById("turn-mark").hidden = !q;
  document.title = (q ? "● Your turn — " : "") + "1819 Singapore";
  answers.replaceChildren();
  if (q) q.answers.forEach(a => answers.append(el("button", {class: "answer", "data-index": a.index,
      onclick: () => answer(a.index, v.decisions)}, a.text, a.card ? el("span", {class: "text"}, `${a.card.name}: ${a.card.text}`) : null)));
  if (owner && document.activeElement !== document.getElementById("pace")) document.getElementById("pace").value = v.delay;
}

function stopPolling(message) {
  clearInterval(poller);
  document.getElementById("error").textContent = message;
}

async function refresh() {
  if (busy) return;
  try {
    const v = await api(base, {}, key);
    if (v.decisions !== shown || v.thinking !== refresh.thinking) { shown = v.decisions; refresh.thinking = v.thinking; render(v); }
    document.getElementById("error").textContent = "";
  } catch (e) {
    if (e.status === 404 || e.status === 400) { stopPolling(e.message); return; }
    if (e.status === 403) {
      // A wrong or missing secret: the table once as a spectator sees it, nothing hidden.
      const v = await api(`/api/games/${gameId}`).catch(() => null);
      if (v) render(v);
      stopPolling(e.message + " (showing the table as a spectator sees it; reload to refresh)");
      return;
    }
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

async function manage(path, method, body = null) {
  try {
    await api(`/api/games/${gameId}${path}`, {method, body: body && JSON.stringify(body)}, null, owner);
    if (method === "DELETE") { location.href = "/"; return; }
    shown = -1; refresh();
  } catch (e) { document.getElementById("error").textContent = e.message; }
}

if (owner) {
  document.getElementById("owner").hidden = false;
  document.getElementById("set-pace").onclick = () =>
    manage("/pace", "POST", {delay: Number(document.getElementById("pace").value)});
  document.getElementById("stop").onclick = () => manage("/stop", "POST");
  document.getElementById("delete").onclick = () => { if (confirm("Delete this game?")) manage("", "DELETE"); };
}
refresh();
poller = setInterval(refresh, 400);
