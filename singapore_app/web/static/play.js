// A seat at the table (or a spectator without a seat): polls its view, shows the board,
// its hand, the question with every legal answer as a button, and the log. It stops
// polling a game that does not exist, or a seat whose key is wrong (the table is then
// shown once as a spectator sees it). With the creator's key (#owner=...) it sets the
// pace, stops or deletes the game. The page tells what stands: a failed agent, a game
// stopped or over replaces the question (no buttons, no "thinking"), and a refused
// answer or control stays on the page until the player acts again; a poll that fails
// says so apart (#note) and is cleared by the next one that succeeds.
"use strict";
const gameId = location.pathname.split("/").pop();
const params = new URLSearchParams(location.search);
const fragment = new URLSearchParams(location.hash.slice(1));
const seat = params.get("seat");
const key = fragment.get("key") || params.get("key");
const owner = fragment.get("owner");
const base = `/api/games/${gameId}` + (seat !== null ? `/seats/${seat}` : "");
let shown = "", busy = false, poller = null;

// What the page shows changes with these (the board with the decisions).
const drawn = v => JSON.stringify([v.decisions, v.thinking, v.error, v.stopped, v.over]);
const winners = board => board.winners.map(w => "the " + seatWords(w)).join(" and ");

// The question box: the question, or why there is none.
function headline(v) {
  if (v.over) return `The game is over: ${winners(v.board)} won.`;
  if (v.stopped) return "The game was stopped by its creator: no more moves.";
  if (v.error) return v.error.charAt(0).toUpperCase() + v.error.slice(1) + ".";
  if (v.question) return v.question.text;
  return v.thinking ? `The ${seatWords(v.thinking)} is thinking…` : `Waiting for the ${seatWords(v.acting)}…`;
}

function render(v) {
  document.getElementById("who").textContent = v.seat ? `you are the ${seatWords(v.seat)}` : "watching";
  document.getElementById("status").textContent = v.status;
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
  const finished = v.over || v.stopped || !!v.error;
  const q = finished ? null : v.question, answers = document.getElementById("answers");
  const question = document.getElementById("question");
  question.textContent = headline(v);
  question.dataset.state = v.over ? "over" : v.stopped ? "stopped" : v.error ? "failed" : q ? "asked" : "waiting";
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
  refused(message);
}

// A refusal of what the player did: it stays until the player acts again.
function refused(message) { document.getElementById("error").textContent = message; }
function acting() { refused(""); }

async function refresh() {
  if (busy) return;
  try {
    const v = await api(base, {}, key);
    if (drawn(v) !== shown) { shown = drawn(v); render(v); }
    document.getElementById("note").textContent = "";
  } catch (e) {
    if (e.status === 404 || e.status === 400) { stopPolling(e.message); return; }
    if (e.status === 403) {
      // A wrong or missing secret: the table once as a spectator sees it, nothing hidden.
      const v = await api(`/api/games/${gameId}`).catch(() => null);
      if (v) render(v);
      stopPolling(e.message + " (showing the table as a spectator sees it; reload to refresh)");
      return;
    }
    document.getElementById("note").textContent = `The server did not answer: ${e.message} (trying again)`;
  }
}

async function answer(index, expect) {
  busy = true;
  acting();
  document.querySelectorAll("button.answer").forEach(b => b.disabled = true);
  try {
    const v = await api(`${base}/answer`, {method: "POST", body: JSON.stringify({index, expect})}, key);
    shown = drawn(v); render(v);
  } catch (e) { refused(`Your answer was refused: ${e.message}`); shown = ""; }
  busy = false;
}

async function manage(path, method, body = null) {
  acting();
  try {
    await api(`/api/games/${gameId}${path}`, {method, body: body && JSON.stringify(body)}, null, owner);
    if (method === "DELETE") { location.href = "/"; return; }
    shown = ""; refresh();
  } catch (e) { refused(e.message); }
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
