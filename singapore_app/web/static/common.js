// Shared by the pages: the API client and the board drawn as SVG. No build step.
"use strict";
const SEATS = ["lieutenant_governor", "resident", "temenggong", "sultan"];
// The seats as players name them (SEATS are the API's identifiers).
const SEAT_WORDS = ["Lieutenant-Governor", "Resident", "Temenggong", "Sultan"];
const seatWords = id => SEAT_WORDS[SEATS.indexOf(id)] || id;
// "1 token", "2 tokens"
const count = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const COLORS = ["#c0392b", "#2e86c1", "#27ae60", "#b7950b"];

// A JSON call; a refusal throws an Error with the server's words and its status.
async function api(path, options = {}, key = null, owner = null) {
  const headers = {"content-type": "application/json"};
  if (key) headers["x-seat-key"] = key;
  if (owner) headers["x-owner-key"] = owner;
  const response = await fetch(path, {...options, headers});
  const data = await response.json().catch(() => ({error: response.statusText}));
  if (!response.ok) { const e = new Error(data.error || response.statusText); e.status = response.status; throw e; }
  return data;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

// Why a tableau card is face down (greyed), in words.
const FACE_DOWN = {closed: "face down: closed", outlawed: "face down: outlawed"};

function cardNode(card, extra = "") {
  if (!card) return el("span", {class: "card down"}, "(empty)");
  const down = card.up === false ? ` (${FACE_DOWN[card.down] || "face down"})` : "";
  return el("span", {class: "card" + (down ? " down" : ""), title: card.text},
    el("div", {class: "name"}, card.name + extra + down), el("div", {class: "text"}, card.text));
}

const SVGNS = "http://www.w3.org/2000/svg";
function s(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

// The board: the loop of districts and Storehouses with their tokens and the Influence
// marker, the Leader spaces with the Leaders on them, the centre (round, treaty, ships,
// Event, multiplier, Population), the VP track, the vices and a legend of whose token
// circle is whose. The Market is HTML (drawMarket), where card text wraps in its box.
function drawBoard(board) {
  const W = 760, H = 440;
  const svg = s("svg", {viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img",
                        "aria-label": "the board", id: "board-svg"});
  svg.append(s("rect", {x: 0, y: 0, width: W, height: H, fill: "#f3ead7", rx: 10}));
  const cx = 250, cy = 190, R = 150, n = board.loop.length, marker = board.influence;
  board.loop.forEach((sp, i) => {
    const a = -Math.PI / 2 + 2 * Math.PI * i / n;
    const x = cx + R * Math.cos(a), y = cy + R * Math.sin(a);
    const g = s("g", {class: "space", "data-name": sp.name});
    const fill = sp.kind === "storehouse" ? "#e8d5b5" : (sp.open ? "#fff" : "#ccc");
    const here = marker && marker.space === i;
    g.append(s("rect", {x: x - 50, y: y - 30, width: 100, height: 60, rx: 8, fill,
                        stroke: here ? COLORS[SEATS.indexOf(marker.seat)] : "#555",
                        "stroke-width": here ? 5 : 1}));
    const closed = sp.kind !== "storehouse" && !sp.open ? " (closed: it opens when its faction's Population is large enough)" : "";
    g.append(s("title", {}, here ? `${sp.title}: the ${seatWords(marker.seat)}'s Influence, ${count(marker.left, "token")} left` : sp.title + closed));
    g.append(s("text", {x: x, y: y - 14, "text-anchor": "middle", "font-weight": 700, "font-size": 13},
               sp.kind === "storehouse" ? `${sp.faction === "british" ? "British" : "Malay"} Storehouse`
               : sp.name + (sp.open ? "" : " (closed)")));
    if (sp.kind === "storehouse") g.append(s("text", {x: x, y: y + 14, "text-anchor": "middle", "font-size": 12},
      count(board.storehouse[sp.faction], "token")));
    (sp.tokens || []).forEach((t, p) => {
      const tx = x - 36 + p * 24, ty = y + 10;
      const circle = s("circle", {cx: tx, cy: ty, r: 9, fill: t ? COLORS[p] : "#eee", stroke: "#666"});
      circle.append(s("title", {}, `${SEAT_WORDS[p]}: ${count(t, "token")}`));
      g.append(circle);
      g.append(s("text", {x: tx, y: ty + 4, "text-anchor": "middle", "font-size": 11, fill: t ? "#fff" : "#999"}, String(t)));
    });
    if (here) {
      g.setAttribute("id", "influence-marker");
      g.append(s("text", {x: x, y: y + 44, "text-anchor": "middle", "font-size": 12, "font-weight": 700,
                          fill: COLORS[SEATS.indexOf(marker.seat)]}, `${count(marker.left, "token")} left`));
    }
    svg.append(g);
  });
  if (marker && marker.space === null) svg.append(s("text", {x: 20, y: 382,
    "font-size": 12, "font-weight": 700, id: "influence-marker"}, `${seatWords(marker.seat)} places ${count(marker.left, "Influence token")}`));
  const taxed = board.tax.map((n, p) => n ? `${SEAT_WORDS[p]} ${n}` : null).filter(x => x);
  if (board.neutral_tax) taxed.push(`neutral ${board.neutral_tax}`);
  const centre = [
    `Round ${board.round} of ${board.rounds}`,
    `First player: ${seatWords(board.first_player)}`,
    `${board.treaty} Treaty, ${count(board.ships, "ship")}`,
    `Upkeep multiplier ×${board.multiplier}`,
    `Event: ${board.event ? board.event.name : "none"}`,
    "Population cubes:",
    `British ${board.population.british}, Malay ${board.population.malay}`,
    `Public Works: ${count(board.public_works.length, "token")}`,
    `Tax tokens: ${taxed.length ? taxed.join(", ") : "none"}`,
  ];
  centre.forEach((line, i) => svg.append(s("text", {x: cx, y: cy - 58 + i * 15, "text-anchor": "middle", "font-size": 11, class: "centre"}, line)));
  // Leader spaces, with the Leader placed on each
  svg.append(s("text", {x: 520, y: 24, "font-weight": 700, "font-size": 13}, "Leader spaces"));
  board.leader_spaces.forEach((ls, i) => {
    const x = 520 + (i % 2) * 116, y = 32 + Math.floor(i / 2) * 40;
    const who = ls.leader ? SEATS.indexOf(ls.leader) : -1;
    const g = s("g", {class: "leader-space"});
    g.append(s("rect", {x, y, width: 110, height: 34, rx: 6, fill: who >= 0 ? COLORS[who] : "#fff", stroke: "#555"}));
    g.append(s("title", {}, ls.name + (ls.leader ? `: the ${seatWords(ls.leader)}'s Leader` : ": free")));
    g.append(s("text", {x: x + 55, y: y + 14, "text-anchor": "middle", "font-size": 11, fill: who >= 0 ? "#fff" : "#222"},
               ls.name.replace("the ", "").replace(" Leader space", "")));
    g.append(s("text", {x: x + 55, y: y + 28, "text-anchor": "middle", "font-weight": 700,
                        "font-size": who >= 0 && SEAT_WORDS[who].length > 12 ? 9 : 11,
                        fill: who >= 0 ? "#fff" : "#999"}, who >= 0 ? SEAT_WORDS[who] : "free"));
    svg.append(g);
  });
  // VP track (the final scores once the game is over)
  const vp = board.final ? board.final.map(f => f.total) : board.players.map(p => p.vp);
  const top = Math.max(30, ...vp);
  svg.append(s("text", {x: 520, y: 134, "font-weight": 700, "font-size": 13}, board.final ? "Final scores" : "VP track"));
  board.players.forEach((p, i) => {
    const y = 142 + i * 26, w = 230 * vp[i] / top;
    svg.append(s("text", {x: 520, y: y + 10, "font-size": 11.5}, `${SEAT_WORDS[i]}: ${vp[i]} VP, $${p.wealth}`));
    svg.append(s("rect", {x: 520, y: y + 13, width: Math.max(2, w), height: 7, fill: COLORS[i], class: "vp-bar"}));
  });
  // vices
  svg.append(s("text", {x: 520, y: 268, "font-weight": 700, "font-size": 13}, "Vices"));
  board.vices.forEach((v, i) => svg.append(s("text", {x: 520, y: 286 + i * 16, "font-size": v.outlawed_by ? 10.5 : 12},
    v.name + (v.outlawed_by ? `, outlawed by ${seatWords(v.outlawed_by)}` : ""))));
  // whose token circle is whose
  const legend = s("g", {id: "token-legend"});
  legend.append(s("text", {x: 20, y: 430, "font-size": 11, "font-weight": 700}, "Tokens on a district:"));
  let lx = 162;
  SEAT_WORDS.forEach((name, p) => {
    legend.append(s("circle", {cx: lx + 7, cy: 426, r: 7, fill: COLORS[p], stroke: "#666"}));
    legend.append(s("text", {x: lx + 18, y: 430, "font-size": 11}, name));
    lx += 30 + name.length * 6.2;
  });
  legend.append(s("text", {x: lx + 4, y: 430, "font-size": 11, fill: "#555"}, "· grey space: closed"));
  svg.append(legend);
  if (board.modifiers.length) svg.append(s("text", {x: 20, y: 400, "font-size": 12, id: "round-rules"}, `This round: ${board.modifiers.join("; ")}`));
  board.in_progress.forEach((t, i) =>
    svg.append(s("text", {x: 520, y: 380 + i * 16, "font-size": 13, fill: "#a00", "font-weight": 700, class: "in-progress"}, t)));
  return svg;
}

// The Market: each open card with its slot, its price (this seat's, or British /
// Malay) and its text in words.
function drawMarket(board, container) {
  container.replaceChildren(...board.market.map((c, i) => {
    if (!c) return el("div", {class: "card market-card down"}, `slot ${i + 1}: empty`);
    const price = typeof c.price === "number" ? `$${c.price}` : `British $${c.price.british}, Malay $${c.price.malay}`;
    return el("div", {class: "card market-card"}, el("div", {class: "name"}, c.name),
              el("div", {class: "price"}, `slot ${i + 1} · ${price}`), el("div", {class: "text"}, c.text));
  }));
}

// The final scores after final scoring: VP track, Legacies, End Game bonuses, total.
function finalTable(final) {
  const table = el("table", {class: "final", id: "final-scores"},
    el("tr", {}, ...["seat", "track", "legacies", "end game", "total"].map(h => el("th", {}, h))));
  final.forEach(f => table.append(el("tr", {class: f.won ? "won" : ""}, el("td", {}, seatWords(f.seat) + (f.won ? " ★" : "")),
    el("td", {}, String(f.track)), el("td", {}, String(f.legacies)), el("td", {}, String(f.end_game)),
    el("td", {}, el("b", {}, String(f.total))))));
  return table;
}

// Each player's row: who plays the seat (and whether its agent is thinking), VP,
// money, hand size (own hand open), revealed cards, tableau, role; a note on the grey
// (face-down) cards when a tableau holds one.
function drawPlayers(board, container, hands = null, players = null, thinking = null, me = null) {
  container.replaceChildren();
  if (board.players.some(p => p.tableau.some(c => c.up === false)))
    container.append(el("p", {class: "note", id: "face-down-note"}, "Grey cards are face down: " +
      "closed at Upkeep (rebuild it to turn it up) or outlawed by a Decree (face up again once " +
      "legalized). A face-down card does nothing until it is face up again."));
  board.players.forEach((p, i) => {
    const div = el("div", {class: `player seat-${p.seat}`});
    const who = players ? (p.seat === me ? "you" : players[i] === "person" ? "a person" : players[i]) : null;
    const faction = p.faction === "british" ? "British" : "Malay";
    div.append(el("div", {}, el("b", {}, seatWords(p.seat)), ` (${faction}) ${p.vp} VP, $${p.wealth}, ` +
      `${count(p.hand_count, "card")} in hand, ${count(p.wars_won, "War")} won` + (p.role ? `, ${p.role}` : ""),
      who ? el("span", {class: "who"}, " · played by " + who) : null,
      thinking === p.seat ? el("span", {class: "thinking"}, " thinking…") : null));
    const tableau = el("div", {class: "tableau"});
    p.tableau.forEach(c => tableau.append(cardNode(c, (c.pops.length ? ` + ${count(c.pops.length, "Population card")}` : "") +
      (c.stored ? `, ${count(c.stored, "token")} stored` : "") + (c.link ? ", connected" : ""))));
    div.append(tableau);
    const hand = hands ? hands[i] : p.hand;
    if (hand) { const h = el("div", {class: "hand"}, hand.length ? "hand: " : "No cards in hand"); hand.forEach(c => h.append(cardNode(c))); div.append(h); }
    if (p.revealed.length) { const r = el("div", {}, "revealed: "); p.revealed.forEach(c => r.append(cardNode(c))); div.append(r); }
    container.append(div);
  });
}
