// Shared by the pages: the API client and the board drawn as SVG. No build step.
"use strict";
const SEATS = ["lieutenant_governor", "resident", "temenggong", "sultan"];
const SHORT = ["LG", "Res", "Tem", "Sul"];
const COLORS = ["#c0392b", "#2e86c1", "#27ae60", "#b7950b"];

async function api(path, options = {}, key = null) {
  const headers = {"content-type": "application/json"};
  if (key) headers["x-seat-key"] = key;
  const response = await fetch(path, {...options, headers});
  const data = await response.json().catch(() => ({error: response.statusText}));
  if (!response.ok) throw new Error(data.error || response.statusText);
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

function cardNode(card, extra = "") {
  if (!card) return el("span", {class: "card down"}, "(empty)");
  return el("span", {class: "card" + (card.up === false ? " down" : ""), title: card.text},
    el("div", {class: "name"}, card.name + extra), el("div", {class: "text"}, card.text));
}

const SVGNS = "http://www.w3.org/2000/svg";
function s(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

// The board: the loop of districts and Storehouses with their tokens, the centre
// (round, treaty, ships, Event, multiplier, Storehouses, Population), the Market with
// prices and the VP track.
function drawBoard(board) {
  const W = 760, H = 520;
  const svg = s("svg", {viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img",
                        "aria-label": "the board", id: "board-svg"});
  svg.append(s("rect", {x: 0, y: 0, width: W, height: H, fill: "#f3ead7", rx: 10}));
  const cx = 250, cy = 190, R = 150, n = board.loop.length;
  board.loop.forEach((sp, i) => {
    const a = -Math.PI / 2 + 2 * Math.PI * i / n;
    const x = cx + R * Math.cos(a), y = cy + R * Math.sin(a);
    const g = s("g", {class: "space", "data-name": sp.name});
    const fill = sp.kind === "storehouse" ? "#e8d5b5" : (sp.open ? "#fff" : "#ccc");
    g.append(s("rect", {x: x - 48, y: y - 30, width: 96, height: 60, rx: 8, fill, stroke: "#555"}));
    g.append(s("text", {x: x, y: y - 14, "text-anchor": "middle", "font-weight": 700, "font-size": 13},
               sp.name + (sp.kind === "storehouse" ? " (Storehouse)" : sp.open ? "" : " (closed)")));
    if (sp.kind === "storehouse") g.append(s("text", {x: x, y: y + 14, "text-anchor": "middle", "font-size": 12},
      `${board.storehouse[sp.faction]} tokens`));
    (sp.tokens || []).forEach((t, p) => {
      const tx = x - 36 + p * 24, ty = y + 10;
      g.append(s("circle", {cx: tx, cy: ty, r: 9, fill: t ? COLORS[p] : "#eee", stroke: "#666"}));
      g.append(s("text", {x: tx, y: ty + 4, "text-anchor": "middle", "font-size": 11, fill: t ? "#fff" : "#999"}, String(t)));
    });
    svg.append(g);
  });
  const centre = [
    `Round ${board.round}/${board.rounds}   first: ${board.first_player}`,
    `Treaty: ${board.treaty}   ships: ${board.ships}   x${board.multiplier}`,
    `Event: ${board.event ? board.event.name : "-"}`,
    `Storehouse B ${board.storehouse.british}  M ${board.storehouse.malay}`,
    `Population B ${board.population.british}  M ${board.population.malay}`,
    `Public Works ${board.public_works.length}   Tax ${board.tax.join("/")} (+${board.neutral_tax})`,
    board.modifiers.length ? `This round: ${board.modifiers.join(", ")}` : "",
  ];
  centre.forEach((line, i) => svg.append(s("text", {x: cx, y: cy - 48 + i * 18, "text-anchor": "middle", "font-size": 12}, line)));
  // VP track
  const top = Math.max(30, ...board.players.map(p => p.vp));
  svg.append(s("text", {x: 520, y: 24, "font-weight": 700, "font-size": 13}, "VP track"));
  board.players.forEach((p, i) => {
    const y = 40 + i * 28, w = 150 * p.vp / top;
    svg.append(s("rect", {x: 520, y, width: Math.max(2, w), height: 20, fill: COLORS[i], class: "vp-bar"}));
    svg.append(s("text", {x: 524 + Math.max(2, w), y: y + 15, "font-size": 12}, `${SHORT[i]} ${p.vp} VP  $${p.wealth}`));
  });
  // vices
  svg.append(s("text", {x: 520, y: 170, "font-weight": 700, "font-size": 13}, "Vices"));
  board.vices.forEach((v, i) => svg.append(s("text", {x: 520, y: 188 + i * 16, "font-size": 12},
    v.name + (v.outlawed_by ? ` (outlawed by ${SHORT[SEATS.indexOf(v.outlawed_by)]})` : ""))));
  // market
  svg.append(s("text", {x: 20, y: 390, "font-weight": 700, "font-size": 13}, "Market"));
  board.market.forEach((c, i) => {
    const x = 20 + i * 148, y = 400;
    const g = s("g", {class: "market-slot"});
    g.append(s("rect", {x, y, width: 140, height: 100, rx: 6, fill: c ? "#fffdf6" : "#e5e5e5", stroke: "#777"}));
    if (c) {
      g.append(s("text", {x: x + 6, y: y + 18, "font-weight": 700, "font-size": 12}, c.name.slice(0, 22)));
      const price = typeof c.price === "number" ? `$${c.price}` : `B $${c.price.british} / M $${c.price.malay}`;
      g.append(s("text", {x: x + 6, y: y + 36, "font-size": 12}, `slot ${i}   ${price}`));
      const title = s("title", {}, c.text); g.append(title);
      c.text.split("; ").slice(0, 3).forEach((t, j) => g.append(s("text", {x: x + 6, y: y + 54 + j * 14, "font-size": 9}, t.slice(0, 30))));
    }
    svg.append(g);
  });
  if (board.in_progress.length) board.in_progress.forEach((t, i) =>
    svg.append(s("text", {x: 520, y: 290 + i * 16, "font-size": 13, fill: "#a00", "font-weight": 700, class: "in-progress"}, t)));
  return svg;
}

// Each player's row: VP, money, hand size (own hand open), revealed cards, tableau, role.
function drawPlayers(board, container, hands = null) {
  container.replaceChildren();
  board.players.forEach((p, i) => {
    const div = el("div", {class: `player seat-${p.seat}`});
    div.append(el("div", {}, el("b", {}, p.seat), ` (${p.faction}) ${p.vp} VP, $${p.wealth}, ` +
      `hand ${p.hand_count}, wars won ${p.wars_won}` + (p.role ? `, ${p.role}` : "")));
    const tableau = el("div", {class: "tableau"});
    p.tableau.forEach(c => tableau.append(cardNode(c, (c.pops.length ? ` +${c.pops.length} pop` : "") +
      (c.stored ? ` [${c.stored}]` : "") + (c.link ? " =" : ""))));
    div.append(tableau);
    const hand = hands ? hands[i] : p.hand;
    if (hand) { const h = el("div", {class: "hand"}, "hand: "); hand.forEach(c => h.append(cardNode(c))); div.append(h); }
    if (p.revealed.length) { const r = el("div", {}, "revealed: "); p.revealed.forEach(c => r.append(cardNode(c))); div.append(r); }
    container.append(div);
  });
}
