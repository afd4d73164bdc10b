"""Imitation stage: teach a fresh policy the heuristic's moves before self-play.

PPO from scratch learns slowly in a long game with ~1,000 actions, so the first phase
of each faction can start with behaviour cloning:

1. **Demonstrations**: the heuristic plays all four seats; every decision of the
   faction is recorded as (observation, mask, action, final return, question kind).
2. **Fit**: the policy's masked action distribution is fitted to the actions by
   cross-entropy (its own Adam optimiser, ``bc_lr``), the value head to the returns,
   for ``bc_epochs`` epochs. A share ``bc_holdout`` of the *games* is held out; the
   held-out top-1 agreement with the heuristic is logged overall and per question kind
   (leader space, main action, War, ...).
3. **DAgger** (``dagger_rounds``): the policy itself plays the faction's seats in
   ``dagger_games`` new games while the heuristic labels every state it reaches; the
   labelled states join the data set and the policy is fitted again. This teaches it to
   recover from the states its own mistakes lead to.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Callable

import numpy as np

from agents.base import Agent, _encoder_for
from agents.heuristic import HeuristicAgent
from agents.learned import LearnedAgent
from agents.priors import resolve_prior
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import FACTIONS, SEAT_FACTION, resolve_content
from singapore_env.candidates import CANDIDATE_KEYS, CandidateEncoder
from singapore_env.engine import Game
from singapore_env.rewards import rewards
from arena.simulate import game_seeds

from .export import actor_from_sb3


#: Storage types of the candidate keys (the rest is float32).
_COMPACT = {"candidate_card": np.int16, "candidate_features": np.float16}


@dataclass
class Demonstrations:
    """Labelled decisions of one faction: row ``i`` is one decision.

    ``obs`` holds ``observation`` (float32 (n, D)) and, for action-aware policies,
    ``candidate_card`` (int16 (n, N)), ``candidate_features`` (float16 (n, N, k):
    compact, since they are held for every decision of hundreds of games) and
    ``projected_vp`` (float32 (n, 4))."""

    obs: dict             # name -> array with n rows
    masks: np.ndarray     # bool (n, N)
    actions: np.ndarray   # int64 (n,): the heuristic's action index
    returns: np.ndarray   # float32 (n,): the deciding seat's final reward
    games: np.ndarray     # int64 (n,): which game the decision comes from
    questions: np.ndarray  # str (n,): the pending question's kind

    def __len__(self) -> int:
        return len(self.actions)

    def subset(self, rows: np.ndarray) -> "Demonstrations":
        return Demonstrations({k: v[rows] for k, v in self.obs.items()}, self.masks[rows],
                              self.actions[rows], self.returns[rows], self.games[rows],
                              self.questions[rows])

    def __add__(self, other: "Demonstrations") -> "Demonstrations":
        offset = int(self.games.max()) + 1 if len(self) else 0
        return Demonstrations(
            {k: np.concatenate([v, other.obs[k]]) for k, v in self.obs.items()},
            *(np.concatenate([a, b]) for a, b in [
                (self.masks, other.masks), (self.actions, other.actions),
                (self.returns, other.returns), (self.games, other.games + offset),
                (self.questions, other.questions)]))

    def observations(self, rows):
        """The policy's input for ``rows``: a tensor, or a dict of tensors for a policy
        with a dict observation space."""
        import torch

        if "candidate_card" not in self.obs:
            return torch.as_tensor(self.obs["observation"][rows])
        return {k: torch.as_tensor(v[rows].astype(np.float32)) for k, v in self.obs.items()}


def collect(faction: str, n_games: int, seed: int, reward_mode: str = "faction",
            config: RulesConfig | None = None, learner: Agent | None = None,
            candidates: bool = False, candidate_prior=None, content=None) -> Demonstrations:
    """``n_games`` (≥ 1) games labelled by the heuristic. Without ``learner`` the heuristic plays every
    seat; with one, ``learner`` plays the faction's seats (DAgger) and the heuristic only
    names the action it would have taken. With ``candidates`` the per-action features
    of :mod:`singapore_env.candidates` are recorded too (with ``candidate_prior``'s
    scores); ``content`` as for :class:`~singapore_env.engine.Game` (or a data folder)."""
    fac = FACTIONS.index(faction)
    rows: dict[str, list] = defaultdict(list)
    agents = [HeuristicAgent() for _ in range(4)]
    cards = resolve_content(content, (config or RulesConfig.standard()).slavery)
    for game_index, (engine_seed, *agent_seeds) in enumerate(game_seeds(seed, n_games)):
        for agent, s in zip(agents, agent_seeds):
            agent.reset(s)
        if learner is not None:
            learner.reset(agent_seeds[0])
        game = Game(engine_seed, config, cards, keep_text_log=False)
        encoder = _encoder_for(game)
        cand = (CandidateEncoder.for_observations(encoder, resolve_prior(candidate_prior))
                if candidates else None)
        seats_of_step = []
        while not game.is_over:
            seat = game.acting_seat
            decision = agents[seat].choose(game, seat)
            if SEAT_FACTION[seat] == fac:
                rows["obs"].append(encoder.encode(game, seat).copy())
                rows["masks"].append(encoder.legal_mask(game, seat).astype(bool))
                rows["actions"].append(encoder.table.index(decision))
                rows["questions"].append(game.pending.kind)
                if cand is not None:
                    for key, value in cand.encode(game, seat).items():
                        rows[key].append(value.astype(_COMPACT.get(key, np.float32)))
                seats_of_step.append(seat)
                if learner is not None:
                    decision = learner.choose(game, seat)
            game.step(decision)
        final = rewards(game.final_scores, reward_mode)
        rows["returns"].extend(final[seat] for seat in seats_of_step)
        rows["games"].extend([game_index] * len(seats_of_step))
    obs = {"observation": np.asarray(rows["obs"], np.float32)}
    if candidates:
        obs.update({key: np.asarray(rows[key]) for key in CANDIDATE_KEYS})
    return Demonstrations(
        obs, np.asarray(rows["masks"], bool),
        np.asarray(rows["actions"], np.int64), np.asarray(rows["returns"], np.float32),
        np.asarray(rows["games"], np.int64), np.asarray(rows["questions"], str))


def split_by_game(data: Demonstrations, holdout: float,
                  rng: np.random.Generator) -> tuple[Demonstrations, Demonstrations]:
    """(train, held-out): a share ``holdout`` of the games, whole, is held out."""
    games = np.unique(data.games)
    n_test = int(round(holdout * len(games))) if len(games) > 1 else 0
    test_games = rng.choice(games, size=n_test, replace=False) if n_test else []
    is_test = np.isin(data.games, test_games)
    return data.subset(np.flatnonzero(~is_test)), data.subset(np.flatnonzero(is_test))


def agreement(policy, data: Demonstrations, batch_size: int = 1024) -> dict:
    """Top-1 agreement of ``policy``'s greedy masked action with the labels: overall
    and per question kind (``{"overall": rate, "by_question": {kind: rate}}``)."""
    import torch

    if not len(data):
        return {"overall": float("nan"), "by_question": {}, "samples": 0}
    hits = np.zeros(len(data), bool)
    with torch.no_grad():
        for i in range(0, len(data), batch_size):
            rows = slice(i, i + batch_size)
            dist = policy.get_distribution(data.observations(rows),
                                           action_masks=data.masks[rows])
            hits[rows] = dist.distribution.probs.argmax(-1).numpy() == data.actions[rows]
    by_question = {q: float(hits[data.questions == q].mean())
                   for q in sorted(set(data.questions.tolist()))}
    return {"overall": float(hits.mean()), "by_question": by_question, "samples": len(data)}


def fit(policy, data: Demonstrations, epochs: int, lr: float, batch_size: int,
        rng: np.random.Generator) -> float:
    """Behaviour cloning: cross-entropy on the actions plus the value head on the
    returns, with a fresh Adam optimiser; returns the last epoch's mean NLL."""
    import torch

    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    nll_mean = float("nan")
    for _ in range(epochs):
        order = rng.permutation(len(data))
        losses = []
        for i in range(0, len(order), batch_size):
            idx = order[i:i + batch_size]
            x = data.observations(idx)
            dist = policy.get_distribution(x, action_masks=data.masks[idx])
            nll = -dist.log_prob(torch.as_tensor(data.actions[idx])).mean()
            values = policy.predict_values(x).flatten()
            v_loss = torch.nn.functional.mse_loss(values, torch.as_tensor(data.returns[idx]))
            optimizer.zero_grad()
            (nll + 0.5 * v_loss).backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            losses.append(float(nll.detach()))
        nll_mean = float(np.mean(losses)) if losses else nll_mean
    return nll_mean


def uses_candidates(policy) -> bool:
    """Whether an SB3 policy reads the candidate keys (an action-aware policy)."""
    return "candidate_card" in getattr(policy.observation_space, "spaces", {})


@dataclass(frozen=True)
class ImitationSettings:
    """The imitation stage's knobs (the ``bc_*`` / ``dagger_*`` keys of the training
    config)."""

    games: int
    epochs: int = 6
    lr: float = 1e-3
    batch_size: int = 256
    holdout: float = 0.1
    dagger_rounds: int = 0
    dagger_games: int = 100


def pretrain(model, faction: str, settings: ImitationSettings, seed: int,
             reward_mode: str = "faction", config: RulesConfig | None = None,
             log: Callable[[str], None] = print, content=None) -> list[dict]:
    """Fit ``model.policy`` (MaskablePPO) to the heuristic, then run the DAgger rounds;
    return one stats row per round (held-out agreement overall and per question)."""
    policy = model.policy
    rng = np.random.default_rng(seed)
    candidates = uses_candidates(policy)
    prior = getattr(policy, "candidate_prior", None)
    data = collect(faction, settings.games, seed * 7_919, reward_mode, config,
                   candidates=candidates, candidate_prior=prior, content=content)
    history = []
    for round_ in range(settings.dagger_rounds + 1):
        if round_:
            learner = LearnedAgent(actor_from_sb3(policy), deterministic=True)
            data = data + collect(faction, settings.dagger_games, seed * 7_919 + round_ * 104_729,
                                  reward_mode, config, learner=learner, candidates=candidates,
                                  candidate_prior=prior, content=content)
        train, held_out = split_by_game(data, settings.holdout, rng)
        nll = fit(policy, train, settings.epochs, settings.lr, settings.batch_size, rng)
        stats = {"round": round_, "train_samples": len(train), "nll": nll,
                 "held_out": agreement(policy, held_out)}
        history.append(stats)
        worst = sorted(stats["held_out"]["by_question"].items(), key=lambda kv: kv[1])[:3]
        log(f"  imitation {faction} round {round_}: {len(train)} samples, "
            f"held-out agreement {stats['held_out']['overall']:.1%} "
            f"(lowest: {', '.join(f'{q} {r:.0%}' for q, r in worst)})")
    return history
