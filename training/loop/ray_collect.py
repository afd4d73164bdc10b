"""Self-play collection on a Ray cluster: ``singapore-1819 train --config
training/configs/selfplay.toml --out DIR --ray local|auto|HOST:PORT``.

The ``num_games`` games are split into blocks, one per CPU of the cluster (at most one
per game); a Ray actor (:class:`BlockCollector`) owns each block: a
:class:`~singapore_env.vector.VectorEnv` of its own (its own seed stream, in the actor's
process) and copies of the two learners and of the pool of past selves. For every
rollout the learner puts the current weights (numpy arrays) once in Ray's object store;
every actor loads them, plays ``rollout_steps`` steps of its games exactly as the local
collector does (:class:`training.loop.rollout.Collector`: one forward pass per faction
and step, the same assignment of past selves, the same advantages) and sends back its
rows; :class:`RayCollector` joins them into one rollout per faction and the trainer
makes the same PPO update as without Ray. So ``decisions`` (learned decisions of both
factions, not counting the seats of past selves), ``games`` and ``progress.csv`` mean
what they mean on one machine; only the games differ (each block its own seeds).
The pool is sent again only when it has changed.
"""

from __future__ import annotations

import copy

import numpy as np
import torch

from training.loop.rollout import Collector, Rollout

#: The fields of a rollout's rows that a PPO update reads (what an actor sends back).
ROW_FIELDS = ("index", "value_in", "legal", "choice", "logp", "advantage", "ret", "ready")


def weights(net: torch.nn.Module) -> dict[str, np.ndarray]:
    """A network's parameters as numpy arrays (copies)."""
    return {k: v.detach().numpy().copy() for k, v in net.state_dict().items()}


def block_seed(session: int, block: int) -> int:
    """The VectorEnv seed (and random stream) of block ``block`` of a session."""
    return int(np.random.SeedSequence([session, block]).generate_state(1)[0] >> 1)


class BlockCollector:
    """A block of games and copies of the two learners (``nets``: this object's own,
    e.g. unpickled in a Ray actor): what one Ray actor holds. A plain class (it runs
    without Ray too); one torch and one BLAS thread."""

    def __init__(self, cfg, num_games: int, seed: int, nets: list[torch.nn.Module]):
        from agents.threads import limit_threads
        from singapore_env.vector import VectorEnv

        limit_threads()
        torch.set_num_threads(1)
        self.nets = nets
        venv = VectorEnv(num_games, cfg.ruleset, seed=seed, engine=cfg.engine)
        self.collector = Collector(venv, self.nets, np.random.default_rng(seed),
                                   cfg.past_self_share, cfg.rollout_steps, cfg.gamma,
                                   cfg.gae_lambda, vp_weight=cfg.vp_weight)

    @staticmethod
    def _load(net: torch.nn.Module, params: dict) -> torch.nn.Module:
        net.load_state_dict({k: torch.tensor(v) for k, v in params.items()})
        return net

    def collect(self, steps: int, learners: list[dict],
                pool: list[list[dict]] | None) -> tuple[list[dict], int, int]:
        """Load the learners' weights (and the pool's, unless None: unchanged), play
        ``steps`` steps of every game: each faction's rows (:data:`ROW_FIELDS`, the
        pending ones included), the games finished and the learned decisions made."""
        for net, params in zip(self.nets, learners):
            self._load(net, params)
        if pool is not None:
            self.collector.pool = [[self._load(copy.deepcopy(net).eval(), p) for p in past]
                                   for net, past in zip(self.nets, pool)]
        decisions = self.collector.collect(steps)
        rows = [{k: getattr(r, k)[:r.n] for k in ROW_FIELDS}
                for r in self.collector.rollouts]
        games, self.collector.games_played = self.collector.games_played, 0
        return rows, games, decisions


def join(rollout: Rollout, rows: dict) -> None:
    """Append a block's rows (:meth:`BlockCollector.collect`) to ``rollout``."""
    at = slice(rollout.n, rollout.n + len(rows["choice"]))
    rollout.put_rows(at, rows["index"], rows["value_in"], rows["legal"])
    for key, value in rows.items():
        if key not in ("index", "value_in", "legal"):
            getattr(rollout, key)[at] = value
    rollout.n = at.stop


class RayCollector:
    """The trainer's collector (``collect``, ``rollouts``, ``games_played``, ``pool``,
    ``close``, as :class:`Collector`) over one Ray actor per block of games."""

    #: No search in the loop on Ray actors (the config check refuses it with --ray).
    search = None

    def __init__(self, trainer, address: str, log=print):
        import ray

        from arena.runner import connect_ray

        self.started = not ray.is_initialized()  # a cluster started here stops at close
        connect_ray(address, **({"num_cpus": 2} if address == "local" else {}))
        cfg = trainer.cfg
        n_blocks = max(1, min(cfg.num_games, int(ray.cluster_resources().get("CPU", 1))))
        bounds = np.linspace(0, cfg.num_games, n_blocks + 1).astype(int)
        actor = ray.remote(num_cpus=1)(BlockCollector)
        session = trainer.session_seed()
        self.actors = [actor.remote(cfg, int(hi - lo), block_seed(session, k), trainer.nets)
                       for k, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:]))]
        self.learners = trainer.nets
        self.rollouts = [Rollout(cfg.num_games * (cfg.rollout_steps + 4), trainer.n_actions)
                         for _ in range(2)]
        self.games_played = 0
        self.pool: list[list] = [[], []]
        self.results: dict = {}  # none: the blocks draw their past selves uniformly
        self._sent_pool = None
        log(f"collecting on {n_blocks} Ray actors ({address}): "
            f"{' + '.join(str(hi - lo) for lo, hi in zip(bounds[:-1], bounds[1:]))} games")

    def collect(self, steps: int, search: bool = False) -> int:
        """Every actor plays ``steps`` steps with the learners' current weights; their
        rows joined into ``rollouts``; the learned decisions (``search``: the
        :class:`~training.loop.rollout.Collector`'s signature; never true here, as
        :attr:`search` is None)."""
        import ray

        learners = ray.put([weights(net) for net in self.learners])
        pool = None
        if self.pool is not self._sent_pool:
            pool = ray.put([[weights(net) for net in past] for past in self.pool])
            self._sent_pool = self.pool
        parts = ray.get([a.collect.remote(steps, learners, pool) for a in self.actors])
        for r in self.rollouts:
            r.clear()
        decisions = 0
        for rows, games, made in parts:
            for rollout, faction_rows in zip(self.rollouts, rows):
                join(rollout, faction_rows)
            self.games_played += games
            decisions += made
        return decisions

    def close(self) -> None:
        """Stop the actors (and the cluster, if it was started here)."""
        import ray

        for actor in self.actors:
            ray.kill(actor)
        self.actors = []
        if self.started:
            ray.shutdown()
