"""Search targets for expert iteration: games played by searching seats, every decision
of the recorded seats stored with a policy target and the game's outcome.

For each decision of a recorded seat a row holds what the network will read (the
observation dict with the candidate keys, built exactly as
:class:`~agents.learned.LearnedAgent` builds it, with the network's candidate prior),
the legal-action mask, the action chosen (the *target*: all the mass on the candidate
the search chose -- the prior unless a candidate beat it significantly -- or on the
agent's own answer where it did not search, the heuristic's for the questions the search
leaves to it), and, for a **searched** decision (:class:`~agents.mcts.MctsAgent` ran a
search), each candidate's mean paired advantage over the prior (the prior's is 0).

When the game ends each row gets the outcome for its seat's faction
(:func:`agents.outcome.outcome`: win share, VP margin over 20 clipped to ±1): the value
head's target.

Game ``i`` of a batch uses ``arena.simulate.game_seeds(seed, n_games)[i]`` (engine seed,
then one seed per seat), and agents are reset with those seeds before each game, so a
batch gives the same rows on one process or on ``workers`` processes (each limited to
one BLAS / torch thread, :func:`agents.threads.limit_threads`).
"""

from __future__ import annotations

import multiprocessing
import sys
from collections import defaultdict
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Iterator

import numpy as np

from agents.base import _encoder_for
from agents.outcome import outcome
from agents.priors import resolve_prior
from agents.registry import make_agent
from arena.simulate import MAX_DECISIONS, game_seeds
from singapore_env.candidates import FEATURES, CandidateEncoder
from singapore_env.engine import Game
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import SEAT_FACTION, resolve_content

from .imitation import _COMPACT
from .sparse_rows import SparseRows

#: Observation arrays of a row that are almost all zeros (about 2 % and 0.2 % non-zero):
#: loaded rows keep them sparse, about a twentieth of their dense size.
SPARSE_KEYS = ("observation", "candidate_card", "candidate_features")


@dataclass
class SearchSamples:
    """Recorded decisions: row ``i`` is one decision of a recorded seat.

    ``obs`` holds ``observation`` (float32) and the candidate keys (compact types as in
    :class:`training.imitation.Demonstrations`)."""

    obs: dict              # name -> array with n rows
    masks: np.ndarray      # bool (n, N)
    targets: np.ndarray    # float32 (n, N): the chosen action (one-hot)
    outcomes: np.ndarray   # float32 (n, 2): faction win share and VP margin
    seats: np.ndarray      # int8 (n,): the deciding seat
    searched: np.ndarray   # bool (n,): whether a search made the target
    games: np.ndarray      # int64 (n,): the game's index in its batch
    questions: np.ndarray  # str (n,): the pending question's kind
    advantages: np.ndarray  # float32 (n, N): a searched candidate's mean paired
    #                         advantage over the prior (the prior's is 0); NaN elsewhere

    def __len__(self) -> int:
        return len(self.masks)

    def _arrays(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "obs"}

    def subset(self, rows) -> "SearchSamples":
        """The rows ``rows`` (indices or a boolean mask)."""
        return SearchSamples({k: v[rows] for k, v in self.obs.items()},
                             **{k: v[rows] for k, v in self._arrays().items()})

    def of_faction(self, faction: int) -> "SearchSamples":
        """The rows of the seats of ``faction`` (0 British, 1 Malay)."""
        return self.subset(np.isin(self.seats, [p for p in range(4)
                                                if SEAT_FACTION[p] == faction]))

    @classmethod
    def concat(cls, parts: list["SearchSamples"]) -> "SearchSamples":
        """The rows of ``parts`` one after the other (game indices kept as they are)."""
        parts = [p for p in parts if len(p)] or parts[:1]
        return cls({k: _concat_rows([p.obs[k] for p in parts]) for k in parts[0].obs},
                   **{k: np.concatenate([p._arrays()[k] for p in parts])
                      for k in parts[0]._arrays()})

    def save(self, path: str | Path) -> None:
        """Write a compressed ``.npz``."""
        np.savez_compressed(path, **{f"obs_{k}": v for k, v in self.obs.items()},
                            **self._arrays())

    @classmethod
    def load(cls, path: str | Path) -> "SearchSamples":
        """The rows of a file :meth:`save` wrote, the mostly-zero observation arrays
        (:data:`SPARSE_KEYS`) kept by their non-zero entries (:class:`SparseRows`)."""
        with np.load(path, allow_pickle=False) as data:
            missing = [f.name for f in fields(cls) if f.name != "obs" and f.name not in data]
            if missing:
                raise ValueError(f"{path}: no {', '.join(missing)} (rows written by an older "
                                 f"version; generate them again in a new --out folder)")
            obs = {k[4:]: data[k] for k in data.files if k.startswith("obs_")}
            obs = {k: SparseRows.from_dense(v) if k in SPARSE_KEYS else v
                   for k, v in obs.items()}
            return cls(obs, **{f.name: data[f.name] for f in fields(cls) if f.name != "obs"})


def _concat_rows(arrays: list) -> np.ndarray | SparseRows:
    """Row arrays one after the other: sparse if any of them is."""
    if all(isinstance(a, np.ndarray) for a in arrays):
        return np.concatenate(arrays)
    return SparseRows.concatenate([a if isinstance(a, SparseRows) else SparseRows.from_dense(a)
                                   for a in arrays])


# ---------------------------------------------------------------- one game
def search_advantages(agent, index: dict, n_actions: int, searched: bool) -> np.ndarray:
    """The searched candidates' mean paired advantages over the prior (0 for the prior
    itself) at their action indices, NaN at every other action (and everywhere when the
    decision was not searched)."""
    row = np.full(n_actions, np.nan, np.float32)
    if searched:
        search = agent.last_search
        for d, a in zip(search["candidates"], [0.0] + list(search["advantage"][1:])):
            row[index[d]] = a
    return row


def play_recorded(engine_seed: int, agent_seeds: list[int], players: list, recorded,
                  config: RulesConfig | None = None, content=None, candidate_prior=None,
                  game_index: int = 0, labellers: dict | None = None) -> SearchSamples:
    """Play one game (``players``: four agents, reset with ``agent_seeds``) and record
    every decision of the seats in ``recorded``. A recorded seat with an agent in
    ``labellers`` (seat -> agent, reset with the seat's seed too) is *labelled* by it
    (its search makes the row's target and advantages) while ``players`` answers the
    question in the game (DAgger: the search labels the states the player reaches)."""
    cfg = config if config is not None else RulesConfig.standard()
    labellers = labellers or {}
    for seat, (agent, s) in enumerate(zip(players, agent_seeds)):
        agent.reset(s)
        if seat in labellers:
            labellers[seat].reset(s)
    game = Game(engine_seed, cfg, resolve_content(content, cfg.slavery), keep_text_log=False)
    encoder = _encoder_for(game)
    cand = CandidateEncoder.for_observations(encoder, resolve_prior(candidate_prior))
    rows: dict[str, list] = defaultdict(list)
    while not game.is_over:
        if len(game.history) >= MAX_DECISIONS:
            raise RuntimeError(f"game seed {engine_seed} did not end")
        seat = game.acting_seat
        agent = players[seat]
        if seat not in recorded:
            game.step(agent.choose(game, seat))
            continue
        rows["observation"].append(encoder.encode(game, seat))
        for key, value in cand.encode(game, seat).items():
            rows[key].append(value.astype(_COMPACT.get(key, np.float32)))
        rows["masks"].append(encoder.legal_mask(game, seat).astype(bool))
        labeller = labellers.get(seat, agent)
        before = getattr(labeller, "stats", None)
        before = before.searched if before is not None else 0
        label = labeller.choose(game, seat)
        searched = getattr(labeller, "stats", None) is not None and labeller.stats.searched > before
        advantages = search_advantages(labeller, cand.index, encoder.n_actions, searched)
        target = np.zeros(encoder.n_actions, np.float32)
        target[cand.index[label]] = 1.0
        rows["targets"].append(target)
        decision = label if labeller is agent else agent.choose(game, seat)
        rows["advantages"].append(advantages)
        rows["searched"].append(searched)
        rows["seats"].append(seat)
        rows["questions"].append(game.pending.kind)
        game.step(decision)
    scores = game.final_scores
    n = len(rows["seats"])
    obs = {"observation": np.asarray(rows["observation"], np.float32).reshape(n, encoder.size)}
    obs.update({k: np.asarray(rows[k]).reshape((n,) + cand_shape)
                for k, cand_shape in _candidate_shapes(cand).items()})
    return SearchSamples(
        obs, np.asarray(rows["masks"], bool).reshape(n, encoder.n_actions),
        np.asarray(rows["targets"], np.float32).reshape(n, encoder.n_actions),
        np.asarray([outcome(scores, p) for p in rows["seats"]], np.float32).reshape(n, 2),
        np.asarray(rows["seats"], np.int8), np.asarray(rows["searched"], bool),
        np.full(n, game_index, np.int64), np.asarray(rows["questions"], str),
        np.asarray(rows["advantages"], np.float32).reshape(n, encoder.n_actions))


def _candidate_shapes(cand: CandidateEncoder) -> dict:
    """Row shapes of the candidate keys (so that a game without rows stacks too)."""
    return {"candidate_card": (cand.n_actions,),
            "candidate_features": (cand.n_actions, len(FEATURES)), "projected_vp": (4,)}


# ---------------------------------------------------------------- many games
@dataclass(frozen=True)
class GameJob:
    """One game to generate: seeds, the four players (agent specs), the seats to record
    and, where the players do not label their own decisions, the labelling agents."""

    index: int
    seeds: tuple          # engine seed, then one per seat
    players: tuple        # four agent specs
    recorded: tuple       # seats whose decisions are recorded
    config: RulesConfig
    content: object = None
    candidate_prior: str | None = "heuristic"
    labellers: tuple = ()  # (seat, agent spec) pairs: who labels a recorded seat


_PLAYERS: dict = {}  # (seat, spec, role) -> agent, per process (reset before every game)


def _agent(seat: int, spec: str, role: str = "play"):
    """This process's agent for ``spec`` at ``seat`` in ``role`` ("play" or "label"),
    made once and reset before every game."""
    if (seat, spec, role) not in _PLAYERS:
        _PLAYERS[(seat, spec, role)] = make_agent(spec)
    return _PLAYERS[(seat, spec, role)]


def run_job(job: GameJob) -> SearchSamples:
    """Play one :class:`GameJob` and return its rows."""
    players = [_agent(seat, spec) for seat, spec in enumerate(job.players)]
    labellers = {seat: _agent(seat, spec, "label") for seat, spec in job.labellers}
    engine_seed, *agent_seeds = job.seeds
    return play_recorded(engine_seed, agent_seeds, players, set(job.recorded), job.config,
                         job.content, job.candidate_prior, job.index, labellers)


def _init_worker() -> None:
    from agents.threads import limit_threads

    limit_threads(1)
    _PLAYERS.clear()


def layouts(faction_players: dict[int, str], n_games: int) -> list[tuple]:
    """``(players, recorded seats)`` of each game: game ``i`` lets the factions of
    ``faction_players`` search in turn (faction ``i % 2`` when both do) against
    heuristic players, and records it."""
    searching = sorted(faction_players)
    out = []
    for i in range(n_games):
        f = searching[i % len(searching)]
        out.append((tuple(faction_players[f] if SEAT_FACTION[p] == f else "heuristic"
                          for p in range(4)),
                    tuple(p for p in range(4) if SEAT_FACTION[p] == f)))
    return out


def _behaving(players: tuple, recorded: tuple, behaviour: dict[int, str]) -> tuple:
    """``(players, labellers)`` of one game: a recorded seat whose faction has a
    ``behaviour`` spec is played by that spec and labelled by its layout's one."""
    labelled = [p for p in recorded if SEAT_FACTION[p] in behaviour]
    return (tuple(behaviour[SEAT_FACTION[p]] if p in labelled else spec
                  for p, spec in enumerate(players)),
            tuple((p, players[p]) for p in labelled))


def _local_parts(jobs: list[GameJob], workers: int) -> Iterator[SearchSamples]:
    if workers == 1 or len(jobs) == 1:
        try:
            yield from (run_job(job) for job in jobs)
        finally:
            _PLAYERS.clear()
        return
    with multiprocessing.get_context().Pool(min(workers, len(jobs)), _init_worker) as pool:
        yield from pool.imap(run_job, jobs)


def _ray_parts(jobs: list[GameJob], address: str) -> Iterator[SearchSamples]:
    """The games as remote Ray tasks, one per game (results in game order)."""
    import ray

    from arena.runner import connect_ray

    connect_ray(address)

    @ray.remote
    def play(job):
        from agents.threads import limit_threads

        limit_threads(1)
        return run_job(job)

    for future in [play.remote(job) for job in jobs]:
        yield ray.get(future)


def generate(faction_players: dict[int, str], n_games: int, seed: int, *,
             config: RulesConfig | None = None, content=None,
             candidate_prior: str | None = "heuristic", workers: int = 1,
             ray_address: str | None = None, progress: bool = False,
             behaviour: dict[int, str] | None = None) -> SearchSamples:
    """``n_games`` recorded games (see :func:`layouts`), on ``workers`` processes or, with
    ``ray_address`` (``"local"``, ``"auto"``, ``host:port``), on a Ray cluster; the same
    rows, in game order, either way. ``behaviour`` (faction -> agent spec): that
    faction's recorded seats are played by this agent, their searching spec only
    labelling the positions it reaches (DAgger). ``progress`` shows a bar (games/s,
    ETA) on a terminal."""
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    cfg = config if config is not None else RulesConfig.standard()
    jobs = []
    for i, (s, (players, recorded)) in enumerate(
            zip(game_seeds(seed, n_games), layouts(faction_players, n_games))):
        players, labellers = _behaving(players, recorded, behaviour or {})
        jobs.append(GameJob(i, tuple(s), players, recorded, cfg, content, candidate_prior,
                            labellers))
    source = _ray_parts(jobs, ray_address) if ray_address else _local_parts(jobs, workers)
    bar = None
    if progress and sys.stderr.isatty():
        from tqdm import tqdm
        bar = tqdm(total=len(jobs), unit="game", desc="self-play")
    parts = []
    try:
        for part in source:
            parts.append(part)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return SearchSamples.concat(parts)
