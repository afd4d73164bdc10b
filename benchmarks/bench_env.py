"""Agent-steps per second of random masked play through the environment layers.

    .venv/bin/python benchmarks/bench_env.py [--steps 20000] [--reps 3] [--seed 0]
    git worktree add /tmp/base <commit>          # the code to compare with
    .venv/bin/python benchmarks/bench_env.py --baseline /tmp/base --reps 3

With ``--baseline DIR`` every repetition runs once with this checkout's code and once
with ``DIR``'s (this script, in fresh processes, alternating, on the same seeds), and
the table shows both sides' medians and their ratio: the env before and after a change,
each next to its trivial-env reference.

Measured in the same run, every path once per repetition (alternating), medians of
the repetitions, CPU time of this process (``time.process_time``, which other processes
on a loaded machine disturb less than wall time):

* ``engine``: the engine alone (``Game.step`` with a uniformly random legal decision),
  the floor under every env figure;
* ``env()``: the wrapped PettingZoo env (``last()`` + ``step()``; the action is sampled
  uniformly among the mask's nonzeros with a ``numpy.random.Generator``);
* ``env() with the stock chain``: the same env in PettingZoo's stock
  ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(...))`` (what ``env()`` was before
  :mod:`singapore_env.standard_wrappers`);
* ``raw_env``: the same without the PettingZoo wrappers;
* ``FactionEnv``: the single-agent wrapper (random learner, default random opponents);
  learner steps/s and all agent-steps/s (learner + opponents);
* ``trivial``: an AEC env with the same observation size D and action count N whose
  ``observe`` returns a preallocated dict and whose ``step`` only rotates the agents
  (a game ends after 250 steps), in PettingZoo's stock wrapper chain (the reference
  for ``env()``: what any PettingZoo env pays) and raw (the reference for ``raw_env``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
# --baseline runs this script again with BENCH_TREE set to the other checkout
sys.path.insert(0, os.environ.get("BENCH_TREE", HERE))

from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402

from singapore_env.engine import Game  # noqa: E402
from singapore_env.env import env as make_env, raw_env  # noqa: E402

clock = time.process_time


class TrivialEnv(AECEnv):
    """Same spaces as the real env; no game at all."""

    metadata = {"name": "trivial_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, obs_size: int, n_actions: int, length: int = 250):
        super().__init__()
        self.possible_agents = ["a0", "a1", "a2", "a3"]
        self.length = length
        self._act = spaces.Discrete(n_actions)
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0, 1, (obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (n_actions,), np.int8)})
        mask = np.zeros(n_actions, np.int8)
        mask[:7] = 1
        self._obs = {"observation": np.zeros(obs_size, np.float32), "action_mask": mask}

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act

    def reset(self, seed=None, options=None):
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._i = 0
        self._t = 0

    def observe(self, agent):
        return self._obs

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._t += 1
        if self._t >= self.length:
            for a in self.agents:
                self.terminations[a] = True
            return
        self._i = (self._i + 1) % 4
        self.agent_selection = self.agents[self._i]

    def render(self):
        return None

    def close(self):
        pass


def wrap(e: AECEnv) -> AECEnv:
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(e))


def play_aec(e: AECEnv, steps: int, seed: int) -> tuple[float, int]:
    """Random masked play; returns (seconds, live agent-steps)."""
    rng = np.random.default_rng(seed)
    n = 0
    episode = 0
    t0 = clock()
    while n < steps:
        e.reset(seed=seed + episode)
        episode += 1
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[int(rng.random() * legal.size)]))
            n += 1
    return clock() - t0, n


def play_engine(steps: int, seed: int) -> tuple[float, int]:
    rng = np.random.default_rng(seed)
    n = 0
    episode = 0
    t0 = clock()
    while n < steps:
        g = Game(seed + episode, keep_text_log=False)
        episode += 1
        while not g.is_over:
            legal = g.legal_decisions()
            g.step(legal[int(rng.random() * len(legal))])
            n += 1
    return clock() - t0, n


def encoder_costs(steps: int, seed: int) -> tuple[float, float]:
    """Microseconds per ``encode`` and per ``legal_mask`` call, measured in play."""
    e = raw_env()
    enc = e.encoder
    rng = np.random.default_rng(seed)
    t_enc = t_mask = 0.0
    n = 0
    episode = 0
    clock = time.perf_counter  # per call: finer than CPU time
    while n < steps:
        e.reset(seed=seed + episode)
        episode += 1
        g = e.game
        while not g.is_over:
            seat = g.acting_seat
            t0 = clock()
            enc.encode(g, seat)
            t1 = clock()
            mask = enc.legal_mask(g, seat)
            t2 = clock()
            t_enc += t1 - t0
            t_mask += t2 - t1
            legal = np.flatnonzero(mask)
            e.step(int(legal[int(rng.random() * legal.size)]))
            n += 1
    return t_enc / n * 1e6, t_mask / n * 1e6


def play_faction(steps: int, seed: int) -> tuple[float, int, int]:
    from arena.faction_env import FactionEnv
    fe = FactionEnv(faction="british", seats="one", seed=seed)
    rng = np.random.default_rng(seed)
    n = 0
    engine0 = 0
    total = 0
    t0 = clock()
    fe.reset(seed=seed)
    while n < steps:
        legal = np.flatnonzero(fe.action_masks())
        _, _, term, trunc, _ = fe.step(int(legal[int(rng.random() * legal.size)]))
        n += 1
        if term or trunc:
            total += fe.game.s.decisions - engine0
            fe.reset()
            engine0 = fe.game.s.decisions
    total += fe.game.s.decisions - engine0
    return clock() - t0, n, total


def paths(steps: int, seed: int, d: int, n: int) -> list:
    """Every measured path: fns returning {name: agent-steps per second}."""
    def rate(name: str, play):
        def run():
            dt, k = play()
            return {name: k / dt}
        return run

    def faction():
        dt, learner, total = play_faction(steps // 4, seed)
        return {"FactionEnv learner steps": learner / dt,
                "FactionEnv all agent-steps": total / dt}

    return [
        rate("engine (Game.step only)", lambda: play_engine(steps, seed)),
        rate("env() (wrapped AEC)", lambda: play_aec(make_env(), steps, seed)),
        rate("env() with the stock chain", lambda: play_aec(wrap(raw_env()), steps, seed)),
        rate("raw_env (no wrappers)", lambda: play_aec(raw_env(), steps, seed)),
        faction,
        rate("trivial AEC env (stock chain)",
             lambda: play_aec(wrap(TrivialEnv(d, n)), steps, seed)),
        rate("trivial AEC env (raw)", lambda: play_aec(TrivialEnv(d, n), steps, seed)),
    ]


RATIOS = (("env() (wrapped AEC)", "trivial AEC env (stock chain)", "env() / trivial (stock chain)"),
          ("env() with the stock chain", "trivial AEC env (stock chain)",
           "env() stock chain / trivial (stock chain)"),
          ("raw_env (no wrappers)", "trivial AEC env (raw)", "raw_env / trivial (both raw)"),
          ("env() (wrapped AEC)", "env() with the stock chain",
           "env() / env() with the stock chain"))


def measure(steps: int, seed: int) -> dict[str, float]:
    """One repetition of every path (agent-steps/s) and the translation costs (us)."""
    probe = raw_env()
    out: dict[str, float] = {}
    for fn in paths(steps, seed, probe.encoder.size, len(probe.table)):
        out.update(fn())
    out["encode us"], out["legal_mask us"] = encoder_costs(steps // 4, seed)
    return out


def run_in(tree: str, args) -> dict[str, float]:
    """:func:`measure` in a fresh process importing the project from ``tree``."""
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", "--steps", str(args.steps),
           "--seed", str(args.seed)]
    env = {**os.environ, "BENCH_TREE": tree, "PYTHONPATH": tree}
    done = subprocess.run(cmd, env=env, cwd=tree, check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--reps", type=int, default=3, help="alternating repetitions")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--baseline", help="another checkout to measure side by side")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(measure(args.steps, args.seed)))
        return
    probe = raw_env()
    print(f"observation size D = {probe.encoder.size}, action count N = {len(probe.table)}; "
          f"CPU time, medians of {args.reps} alternating repetitions; "
          f"load average {os.getloadavg()[0]:.2f}")
    trees = {"this": HERE} | ({"baseline": os.path.abspath(args.baseline)}
                              if args.baseline else {})
    runs: dict[str, list[dict]] = {name: [] for name in trees}
    for _ in range(args.reps):
        for name, tree in trees.items():
            runs[name].append(run_in(tree, args) if args.baseline
                              else measure(args.steps, args.seed))
    med = {name: {k: statistics.median(r[k] for r in rs) for k in rs[0]}
           for name, rs in runs.items()}
    rates = [k for k in med["this"] if not k.endswith(" us")]
    width = max(map(len, rates))
    if args.baseline:
        print(f"{'agent-steps/s':<{width}}  {'this':>10}  {'baseline':>10}  ratio")
    for name in rates:
        a = med["this"][name]
        if args.baseline:
            b = med["baseline"][name]
            print(f"{name:<{width}}  {a:>10,.0f}  {b:>10,.0f}  {a / b:5.2f}")
        else:
            print(f"{name:<{width}}  {a:>10,.0f} agent-steps/s  ({1e6 / a:6.1f} us/step)")
    for a, b, label in RATIOS:
        shown = "  ".join(f"{m[a] / m[b]:.2f}" for m in med.values())
        print(f"{label + ':':<42} {shown}")
    for name in ("encode us", "legal_mask us"):
        print(f"{name.replace(' us', '') + ' per step (us):':<42} "
              + "  ".join(f"{m[name]:.1f}" for m in med.values()))
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
