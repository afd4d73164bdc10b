// A replay: step forward and back through every decision with the board as it was, the
// VP of each seat over time (by source) and jumps to the first decision of a turn.
"use strict";
const gameId = location.pathname.split("/").pop();
const SOURCE_COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                       "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#444"];
let summary = null, step = 0;

function total(row) { return row.reduce((a, b) => a + b, 0); }

function vpChart() {
  const W = 460, H = 200, n = summary.vp.length - 1 || 1;
  const top = Math.max(10, ...summary.vp.flatMap(seats => seats.map(total)));
  const svg = s("svg", {viewBox: `0 0 ${W} ${H + 20}`, width: "100%", id: "vp-svg"});
  SEATS.forEach((_, p) => {
    const pts = summary.vp.map((seats, i) => `${30 + (W - 40) * i / n},${H - H * total(seats[p]) / top}`);
    svg.append(s("polyline", {points: pts.join(" "), fill: "none", stroke: COLORS[p], "stroke-width": 2}));
    svg.append(s("text", {x: 30 + p * 110, y: H + 16, fill: COLORS[p], "font-size": 11}, SEAT_WORDS[p]));
  });
  svg.append(s("text", {x: 2, y: 12, "font-size": 10}, String(top)));
  const x = 30 + (W - 40) * step / n;
  svg.append(s("line", {x1: x, x2: x, y1: 0, y2: H, stroke: "#000", "stroke-dasharray": "3 3", id: "now"}));
  document.getElementById("vp-chart").replaceChildren(svg);
}

function sourceBars() {
  const now = summary.vp[step], W = 460, top = Math.max(10, ...now.map(total));
  const svg = s("svg", {viewBox: `0 0 ${W} 190`, width: "100%", id: "sources-svg"});
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
  summary.sources.forEach((name, i) => svg.append(s("text", {x: (i % 4) * 115, y: 140 + Math.floor(i / 4) * 15,
    "font-size": 10, fill: SOURCE_COLORS[i]}, name.replace(/_/g, " "))));
  document.getElementById("sources").replaceChildren(svg);
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
