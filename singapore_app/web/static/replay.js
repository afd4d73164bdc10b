// A replay: step forward and back through every decision with the board as it was, the
// VP of each seat over time (by source) and jumps to the first decision of a turn.
"use strict";
const gameId = location.pathname.split("/").pop();
const SOURCE_COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                       "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#444"];
let summary = null, step = 0;

function total(row) { return row.reduce((a, b) => a + b, 0); }

// A legend in HTML (it wraps, so no label ever covers another): a swatch and a name each.
function legend(id, names, colors) {
  return el("div", {class: "legend", id}, ...names.map((name, i) =>
    el("span", {class: "key"}, el("span", {class: "swatch", style: `background: ${colors[i]}`}), name)));
}

// VP of each seat over the decisions: a line each, VP on the left (0, half, top), the
// rounds along the bottom, the step shown as a dashed line.
function vpChart() {
  const W = 460, H = 200, left = 34, n = summary.vp.length - 1 || 1;
  const top = Math.max(10, ...summary.vp.flatMap(seats => seats.map(total)));
  const svg = s("svg", {viewBox: `0 0 ${W} ${H + 34}`, width: "100%", id: "vp-svg"});
  const xAt = i => left + (W - left - 10) * i / n, yAt = vp => 8 + (H - 8) * (1 - vp / top);
  [0, Math.round(top / 2), top].forEach(vp => {
    svg.append(s("line", {x1: left, x2: W - 10, y1: yAt(vp), y2: yAt(vp), stroke: "#ddd"}));
    svg.append(s("text", {x: left - 4, y: yAt(vp) + 4, "font-size": 10, "text-anchor": "end"}, String(vp)));
  });
  let last = -1;
  summary.marks.forEach(m => {
    if (m.round === last) return;
    last = m.round;
    svg.append(s("line", {x1: xAt(m.step), x2: xAt(m.step), y1: H, y2: H + 4, stroke: "#888"}));
    svg.append(s("text", {x: xAt(m.step) + 2, y: H + 15, "font-size": 10, fill: "#555"}, `R${m.round}`));
  });
  svg.append(s("text", {x: left, y: H + 30, "font-size": 10, fill: "#555"}, "VP by decision; R1, R2…: where each round starts"));
  SEATS.forEach((_, p) => {
    const pts = summary.vp.map((seats, i) => `${xAt(i)},${yAt(total(seats[p]))}`);
    svg.append(s("polyline", {points: pts.join(" "), fill: "none", stroke: COLORS[p], "stroke-width": 2}));
  });
  const x = xAt(step);
  svg.append(s("line", {x1: x, x2: x, y1: 0, y2: H, stroke: "#000", "stroke-dasharray": "3 3", id: "now"}));
  document.getElementById("vp-chart").replaceChildren(svg, legend("vp-legend", SEAT_WORDS, COLORS));
}

function sourceBars() {
  const now = summary.vp[step], W = 460, top = Math.max(10, ...now.map(total));
  const svg = s("svg", {viewBox: `0 0 ${W} 130`, width: "100%", id: "sources-svg"});
  now.forEach((row, p) => {
    let x = 118;
    svg.append(s("text", {x: 0, y: 22 + p * 30, "font-size": 11}, SEAT_WORDS[p]));
    row.forEach((v, i) => {
      if (v <= 0) return;
      const w = (W - 200) * v / top;
      const r = s("rect", {x, y: 8 + p * 30, width: w, height: 20, fill: SOURCE_COLORS[i]});
      r.append(s("title", {}, `${summary.sources[i].replace(/_/g, " ")}: ${v} VP`)); svg.append(r); x += w;
    });
    svg.append(s("text", {x: x + 4, y: 22 + p * 30, "font-size": 12}, String(total(row))));
  });
  document.getElementById("sources").replaceChildren(svg,
    legend("sources-legend", summary.sources.map(name => name.replace(/_/g, " ")), SOURCE_COLORS));
}

async function show(target) {
  step = Math.max(0, Math.min(summary.steps, target));
  try {
    const v = await api(`/api/games/${gameId}/replay/${step}`);
    document.getElementById("board").replaceChildren(drawBoard(v.board));
    drawMarket(v.board, document.getElementById("market"));
    document.getElementById("final").replaceChildren(...(v.board.final ? [el("section", {}, el("h2", {}, "Final scores"), finalTable(v.board.final))] : []));
    drawPlayers(v.board, document.getElementById("players"), v.hands);
    document.getElementById("where").textContent = `step ${step}/${summary.steps}, round ${v.board.round}`;
    document.getElementById("where").dataset.step = step;
    document.getElementById("decision").textContent = v.decision ? "next: " + v.decision : "end of the game";
    document.getElementById("log").textContent = v.log.join("\n");
    document.getElementById("step").value = step;
    vpChart(); sourceBars();
  } catch (e) { document.getElementById("error").textContent = e.message; }
}

async function init() {
  try { summary = await api(`/api/games/${gameId}/replay`); }
  catch (e) { document.getElementById("error").textContent = e.message; return; }
  document.getElementById("step").max = summary.steps;
  const jump = document.getElementById("jump");
  summary.marks.forEach(m => jump.append(el("option", {value: m.step}, `round ${m.round}: ${seatWords(m.seat)} (step ${m.step})`)));
  jump.addEventListener("change", () => show(Number(jump.value)));
  document.getElementById("first").onclick = () => show(0);
  document.getElementById("back").onclick = () => show(step - 1);
  document.getElementById("forward").onclick = () => show(step + 1);
  document.getElementById("last").onclick = () => show(summary.steps);
  document.getElementById("step").addEventListener("change", e => show(Number(e.target.value)));
  document.addEventListener("keydown", e => { if (e.key === "ArrowRight") show(step + 1); if (e.key === "ArrowLeft") show(step - 1); });
  show(0);
}
init();
