#!/usr/bin/env bash
# The strength rows of docs/agents.md on fresh seeds (never used to train or tune), on
# the native engine, each agent on both seats of its faction against two heuristics,
# with the mirror (four heuristics) on the same seeds (OpenSpiel's ISMCTS on the Python
# engine, 10 seeds); then the head-to-head rows (each pair of the strong players: the
# first on one faction against the second, whose own mirror is four of it) and the CPU
# column. Every command writes its JSON to OUT (default runs/strength).
#   bash scripts/strength_table.sh [OUT] [SEED] [GAMES] [H2H_GAMES]
# AGENTS (space-separated specs) picks the rows' agents and PARTS (any of rows openspiel
# h2h cpu) the parts and WORKERS the processes of each evaluation, e.g. after new learned:zero networks:
#   AGENTS="learned:zero learned:zero-policy" PARTS="rows h2h" bash scripts/strength_table.sh
set -euo pipefail
out=${1:-runs/strength}
seed=${2:-13001}
games=${3:-200}
h2h_games=${4:-100}
py=${PYTHON:-.venv/bin/python}
workers=${WORKERS:-1}
agents=${AGENTS:-learned:zero learned:zero-policy mcts:iters=24 mcts:iters=24:net=zero rerank:net=zero}
parts=" ${PARTS:-rows openspiel h2h cpu} "
mkdir -p "$out"
run() { nice -n 10 "$py" -m singapore_app evaluate --engine native --no-progress --workers "$workers" "$@"; }
if [[ $parts == *" rows "* ]]; then
  for agent in $agents; do
    name=${agent//[:=]/_}
    run --british "$agent" --malay heuristic --games "$games" --seed "$seed" --mirror \
      --json "$out/${name}_british.json"
    run --british heuristic --malay "$agent" --games "$games" --seed "$seed" --mirror \
      --json "$out/${name}_malay.json"
  done
fi
# OpenSpiel's ISMCTS has no native twin: the Python engine, fewer seeds (a game takes
# about 10 s of its time budget)
if [[ $parts == *" openspiel "* ]]; then
  for faction in british malay; do
    if [ "$faction" = british ]; then pair=(--british openspiel-ismcts:seconds=0.05 --malay heuristic)
    else pair=(--british heuristic --malay openspiel-ismcts:seconds=0.05); fi
    nice -n 10 "$py" -m singapore_app evaluate --engine python --no-progress "${pair[@]}" \
      --games 10 --seed "$((seed + 2))" --mirror --json "$out/openspiel-ismcts_$faction.json"
  done
fi
# head to head: each pair of the strong players, the first on one faction and the second
# on the other, next to the second's own faction in the same seats (its mirror: four of it)
pairs="learned:zero,mcts:iters=24 learned:zero,mcts:iters=24:net=zero learned:zero,rerank:net=zero
  mcts:iters=24:net=zero,mcts:iters=24 rerank:net=zero,mcts:iters=24
  mcts:iters=24:net=zero,rerank:net=zero"
if [[ $parts == *" h2h "* ]]; then
  for pair in $pairs; do
    first=${pair%,*} second=${pair#*,}
    name="h2h_${first//[:=]/_}_vs_${second//[:=]/_}"
    run --british "$first" --malay "$second" --games "$h2h_games" --seed "$((seed + 1))" \
      --mirror --mirror-agent "$second" --json "$out/${name}_british.json"
    run --british "$second" --malay "$first" --games "$h2h_games" --seed "$((seed + 1))" \
      --mirror --mirror-agent "$second" --json "$out/${name}_malay.json"
  done
fi
if [[ $parts == *" cpu "* ]]; then
  nice -n 10 "$py" benchmarks/bench_agents_cpu.py --engine native | tee "$out/cpu_native.md"
fi
