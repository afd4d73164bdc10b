"""Batched self-play PPO: ``singapore-1819 train --config training/configs/selfplay.toml``.

A small PPO of our own (CleanRL-sized, one torch thread): the British and the Malay
policy learn at the same time, against each other and a pool of their past selves, on
a :class:`singapore_env.vector.VectorEnv`; each rollout step makes one forward pass per
network over every game where its faction acts (:mod:`training.loop.rollout`), the
network's first layer reads only the observation's non-zero entries and its head only
the legal actions (:mod:`training.network.actor_critic`). Every rollout of ``rollout_steps``
steps makes one PPO update per faction (``epochs`` passes over its rows in minibatches).

Files in ``--out``: ``checkpoint.pt`` (networks, optimizers, pool, counters and random
state; written every ``checkpoint_every_s`` seconds and at the end: starting again on
the folder continues from it), ``config.json``, ``british.npz`` / ``malay.npz`` (the
actors: ``learned:DIR/british.npz`` plays them), ``progress.csv`` (a row per
evaluation: ``decisions`` learned from so far, both factions, not counting the seats
of past selves; ``wall_s``; win rates against random and heuristic players and the
heuristic mirror's on the same seeds) and ``learning_curve.png``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Callable

import numpy as np
import torch

from singapore_env.engine.content import FACTIONS
from singapore_env.vector import VectorEnv

from training.config import TrainConfig
from training.config.base import TrainConfigError
from training.loop.evaluate import evaluate, plot_curve, trim_progress, write_row
from training.loop.league import pfsp_weights
from training.network.actor_critic import ActorCritic, PointerActorCritic
from training.network.rows import to_csr
from training.loop.rollout import Collector, Rollout

CHECKPOINT = "checkpoint.pt"


def new_network(cfg: TrainConfig, obs_size: int, n_actions: int) -> ActorCritic:
    """A network of ``cfg.network``: flat, or pointer (reading the rules-fact candidate
    features, :data:`singapore_env.candidates.RULES_FEATURES`)."""
    if cfg.network == "pointer":
        from singapore_env.candidates import RULES_FEATURES
        from singapore_env.engine.config import RulesConfig
        from singapore_env.engine.content import resolve_content

        n_cards = len(resolve_content(None, RulesConfig.named(cfg.ruleset).slavery).defs)
        return PointerActorCritic(obs_size, n_actions, list(cfg.hidden), cfg.activation,
                                  len(RULES_FEATURES), n_cards, cfg.embed_dim,
                                  vp_weight=cfg.vp_weight)
    return ActorCritic(obs_size, n_actions, list(cfg.hidden), cfg.activation)


def load_actor(net: ActorCritic, path: Path) -> None:
    """Copy a saved actor of the same shape into ``net``'s policy: a flat
    ``NumpyPolicy``, or for the pointer network a :class:`~agents.pointer_actor.
    PointerActor` that reads no prior's scores (``learned:zero-policy``'s kind)."""
    from agents.learned import NumpyPolicy

    policy = NumpyPolicy.load(path)
    if isinstance(net, PointerActorCritic):
        try:
            net.copy_actor(policy)
        except ValueError as exc:
            raise TrainConfigError(f"init: {path}: {exc}") from None
        return
    if not hasattr(policy, "head"):
        raise TrainConfigError(f"init: {path} is not a flat actor (network = \"flat\")")
    shapes = [w.shape for w, _ in policy.layers] + [policy.head[0].shape]
    want = ([tuple(net.w0.shape)] + [tuple(m.weight.T.shape) for m in net.dense]
            + [(net.head_w.shape[1], net.n_actions)])
    if shapes != want or policy.activation != net.activation:
        raise TrainConfigError(f"init: {path} is not an actor of this shape ({want}, "
                               f"{net.activation}); it has {shapes}")
    net.copy_layers(policy.layers)
    with torch.no_grad():
        net.head_w.copy_(torch.from_numpy(policy.head[0].T))
        net.head_b.copy_(torch.from_numpy(policy.head[1]))


def ppo_update(net: ActorCritic, opt: torch.optim.Optimizer, r: Rollout,
               cfg: TrainConfig, rng: np.random.Generator) -> dict:
    """PPO epochs over one faction's complete rows (:attr:`Rollout.ready`): the clipped
    ratio, or on a row the search chose (:mod:`training.loop.search`) the cross-entropy
    to its target; mean entropy and losses of the last epoch."""
    ready = np.flatnonzero(r.ready[:r.n])
    if len(ready) == 0:
        return {}
    stats = []
    for _ in range(cfg.epochs):
        stats = []
        order = rng.permutation(ready)
        for start in range(0, len(order), cfg.minibatch_size):
            mb = order[start:start + cfg.minibatch_size]
            legal = r.legal[mb]
            width = int((legal != net.n_actions).sum(axis=1).max())
            candidates = ((r.cand_card[mb][:, :width], r.cand_feat[mb][:, :width])
                          if net.reads_candidates else None)
            logits, values = net(to_csr(r.index[mb], r.value_in[mb], net.obs_size),
                                 legal[:, :width], candidates)
            logp_all = torch.log_softmax(logits, dim=-1)
            choice = torch.from_numpy(r.choice[mb])
            logp = logp_all.gather(1, choice[:, None]).squeeze(1)
            adv = torch.from_numpy(r.advantage[mb])
            adv = (adv - adv.mean()) / (adv.std() + 1e-8) if len(mb) > 1 else adv
            ratio = torch.exp(logp - torch.from_numpy(r.logp[mb]))
            clipped = torch.clamp(ratio, 1 - cfg.clip_range, 1 + cfg.clip_range)
            row_loss = -torch.min(ratio * adv, clipped * adv)
            target = torch.from_numpy(r.target[mb][:, :width])
            searched = target.sum(-1) > 0
            if searched.any():  # the search's improved policy, by cross-entropy
                cross_entropy = -(target * logp_all.clamp_min(-1e4)).sum(-1)
                row_loss = torch.where(searched, cross_entropy, row_loss)
            policy_loss = row_loss.mean()
            value_loss = ((values - torch.from_numpy(r.ret[mb])) ** 2).mean()
            entropy = -(logp_all.exp() * logp_all).sum(-1).mean()
            loss = policy_loss + cfg.vf_coef * value_loss - cfg.ent_coef * entropy
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
            opt.step()
            stats.append((entropy.item(), policy_loss.item(), value_loss.item()))
    entropy, policy_loss, value_loss = np.mean(stats, axis=0)
    return {"entropy": entropy, "policy_loss": policy_loss, "value_loss": value_loss}


def learn(trainer: "Trainer", collector: Collector, stats: dict) -> int:
    """One rollout and one PPO update per faction; the learned decisions (``stats``
    gets the update's entropy and losses)."""
    searching = (collector.search is not None
                 and trainer.counters["decisions"] >= trainer.cfg.search_after)
    learned = collector.collect(trainer.cfg.rollout_steps, searching)
    trainer.count_results(collector)
    for f in (0, 1):
        s = ppo_update(trainer.nets[f], trainer.opts[f], collector.rollouts[f], trainer.cfg,
                       trainer.rng)
        stats.update({f"{k}_{FACTIONS[f]}": v for k, v in s.items()})
    return learned


def imitate(trainer: "Trainer", log: Callable[[str], None]) -> None:
    """The imitation warm start (:mod:`training.loop.warm_start`)."""
    from training.loop.warm_start import collect, fit

    cfg = trainer.cfg
    data = collect(cfg.teacher, cfg.imitation_games, cfg.seed, cfg.ruleset,
                   max(cfg.workers, 1), log)
    for f, name in enumerate(FACTIONS):
        agree = fit(trainer.nets[f], data[f], cfg.imitation_epochs, 1e-3, 512, trainer.rng)
        trainer.counters[f"imitation_agreement_{name}"] = agree
        log(f"imitation: {name} network agrees with the teacher on {agree:.1%} of its "
            f"decisions")


class Trainer:
    """The state of a run: networks, optimizers, pool, counters; saved and restored."""

    def __init__(self, cfg: TrainConfig, out: Path):
        self.cfg, self.out = cfg, out
        probe = VectorEnv(1, cfg.ruleset, seed=0)
        self.obs_size, self.n_actions = probe.obs_size, probe.num_actions
        probe.close()
        torch.manual_seed(cfg.seed)
        self.nets = [new_network(cfg, self.obs_size, self.n_actions) for _ in FACTIONS]
        if cfg.init:
            for net, name in zip(self.nets, FACTIONS):
                load_actor(net, Path(cfg.init) / f"{name}.npz")
        # (fused: one pass over each tensor; the unfused step's square root takes the
        # slow path of the many zeros of the first layer's unused rows, ~7x slower)
        self.opts = [torch.optim.Adam(n.parameters(), lr=cfg.learning_rate, eps=1e-5,
                                      fused=True) for n in self.nets]
        self.pool: list[list[dict]] = [[], []]
        # the pool's past selves' numbers, and each one's [games, win share] against
        # the learner (prioritized fictitious self-play weighs them by it)
        self.pool_ids: list[list[int]] = [[], []]
        self.pool_results: dict[int, list] = {}
        self.rng = np.random.default_rng(cfg.seed)
        self.counters = {"decisions": 0, "updates": 0, "games": 0, "wall_s": 0.0,
                         "eval_s": 0.0, "last_eval": -1, "snapshots": 0}
        self.mirror: dict | None = None

    # -------------------------------------------------------------- files
    def save(self) -> None:
        state = {"config": self.cfg.to_dict(), "nets": [n.state_dict() for n in self.nets],
                 "opts": [o.state_dict() for o in self.opts], "pool": self.pool,
                 "pool_ids": self.pool_ids, "pool_results": self.pool_results,
                 "rng": self.rng.bit_generator.state, "counters": self.counters,
                 "mirror": self.mirror, "torch_rng": torch.get_rng_state()}
        tmp = self.out / (CHECKPOINT + ".tmp")
        torch.save(state, tmp)
        tmp.replace(self.out / CHECKPOINT)
        for net, name in zip(self.nets, FACTIONS):
            net.to_numpy({"trainer": "selfplay", "decisions": self.counters["decisions"],
                          **self.cfg.layout_meta()}
                         ).save(self.out / f"{name}.npz")

    def restore(self) -> bool:
        """Continue from the folder's checkpoint if there is one (TrainConfigError if
        it was made with another configuration)."""
        path = self.out / CHECKPOINT
        if not path.exists():
            return False
        state = torch.load(path, weights_only=False)
        # a checkpoint of an older version named the kind with backend "native" and
        # algorithm "selfplay", or not at all
        saved = {k: v for k, v in state["config"].items() if k != "algorithm"}
        saved["backend"] = "selfplay"
        if saved != self.cfg.to_dict():
            changed = sorted(k for k, v in self.cfg.to_dict().items() if saved.get(k) != v)
            raise TrainConfigError(f"{self.out} holds a run of another configuration "
                                   f"(differs in {changed}); use another --out")
        for net, opt, s_net, s_opt in zip(self.nets, self.opts, state["nets"], state["opts"]):
            net.load_state_dict(s_net)
            opt.load_state_dict(s_opt)
            opt.param_groups[0]["fused"] = True   # (an older checkpoint's are unfused)
        self.pool, self.counters, self.mirror = state["pool"], state["counters"], state["mirror"]
        self.pool_ids, self.pool_results = state["pool_ids"], state["pool_results"]
        self.rng.bit_generator.state = state["rng"]
        torch.set_rng_state(state["torch_rng"])
        return True

    def session_seed(self) -> int:
        """The seed of this invocation's games (drawn from the seed and the updates
        done, so a resumed run plays new games)."""
        return int(np.random.SeedSequence([self.cfg.seed, self.counters["updates"]]
                                          ).generate_state(1)[0] >> 1)

    def collector(self, ray_address: str | None = None,
                  log: Callable[[str], None] = print) -> Collector:
        """A collector on new games: here, or on Ray actors at ``ray_address``
        (:mod:`training.loop.ray_collect`)."""
        cfg = self.cfg
        if ray_address:
            from training.loop.ray_collect import RayCollector

            if cfg.network != "flat" or cfg.league_share or cfg.pfsp_power or cfg.search_worlds:
                raise TrainConfigError("--ray collects for network = \"flat\" without a "
                                       "league, prioritized past selves or search "
                                       "(league_share = 0, pfsp_power = 0, search_worlds = 0)")
            return RayCollector(self, ray_address, log)
        venv = VectorEnv(cfg.num_games, cfg.ruleset, seed=self.session_seed(),
                         engine=cfg.engine, workers=cfg.workers)
        search = None
        if cfg.search_worlds:
            from training.loop.search import SelfPlaySearch

            search = SelfPlaySearch(venv, cfg.search_worlds, cfg.target_temperature, self.rng,
                                    cfg.vp_weight)
        collector = Collector(venv, self.nets, self.rng, cfg.past_self_share,
                              cfg.rollout_steps, cfg.gamma, cfg.gae_lambda,
                              cfg.league, cfg.league_share, search, cfg.vp_weight)
        self.show_pool(collector)
        return collector

    def show_pool(self, collector: Collector) -> None:
        """Give the collector the pool as it is now: frozen copies, their numbers and
        their weights."""
        collector.pool = [self.frozen(0), self.frozen(1)]
        collector.pool_ids = [list(ids) for ids in self.pool_ids]
        self.weigh_pool(collector)

    def weigh_pool(self, collector: Collector) -> None:
        """Give the collector the past selves' weights (prioritized fictitious self-play,
        :func:`training.loop.league.pfsp_weights`)."""
        collector.pool_weights = [
            pfsp_weights([self.pool_results[i] for i in ids], self.cfg.pfsp_power)
            for ids in self.pool_ids]

    def count_results(self, collector: Collector) -> None:
        """Add the past selves' results of the collector's finished games to theirs
        and weigh the pool again."""
        for number, (games, wins) in collector.results.items():
            if number in self.pool_results:
                record = self.pool_results[number]
                record[0] += games
                record[1] += wins
        collector.results.clear()
        self.weigh_pool(collector)

    def frozen(self, faction: int) -> list[ActorCritic]:
        nets = []
        for sd in self.pool[faction]:
            net = new_network(self.cfg, self.obs_size, self.n_actions)
            net.load_state_dict(sd)
            nets.append(net.eval())
        return nets

    def snapshot(self) -> None:
        """A copy of each learner joins its pool (the oldest leaves when full)."""
        for f, net in enumerate(self.nets):
            self.pool[f].append({k: v.clone() for k, v in net.state_dict().items()})
            self.pool_ids[f].append(self.counters["snapshots"])
            self.pool_results[self.counters["snapshots"]] = [0, 0.0]
            self.counters["snapshots"] += 1
            for gone in self.pool_ids[f][:-self.cfg.pool_size]:
                del self.pool_results[gone]
            del self.pool[f][:-self.cfg.pool_size]
            del self.pool_ids[f][:-self.cfg.pool_size]


def train(cfg: TrainConfig, out: str | Path, seconds: float | None = None,
          progress: bool = True, log: Callable[[str], None] = print,
          ray_address: str | None = None) -> dict:
    """Train (or continue) a run in ``out`` for ``seconds`` of wall time or until
    ``total_decisions``, collecting on Ray actors at ``ray_address`` if given; the
    counters at the end."""
    from agents.threads import limit_threads

    limit_threads()
    torch.set_num_threads(1)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if seconds is None and cfg.total_decisions == 0:
        raise TrainConfigError("give --seconds or total_decisions in the config: the run "
                               "would not end")
    trainer = Trainer(cfg, out)
    resumed = trainer.restore()
    (out / "config.json").write_text(json.dumps(cfg.to_dict(), indent=2, sort_keys=True))
    c = trainer.counters
    if not resumed and cfg.imitation_games:
        imitate(trainer, log)
        trainer.save()
    if resumed:
        trim_progress(out, c["last_eval"])
        log(f"resuming {out}: {c['decisions']:,} decisions, {c['updates']} updates")
    evaluator = Evaluator(cfg, out, trainer)  # its process forks before any Ray connection
    try:
        collector = trainer.collector(ray_address, log)
    except BaseException:
        evaluator.close()
        raise
    started = time.perf_counter()
    last_save = started
    base_wall = c["wall_s"]
    stats: dict = {}
    bar = _bar(progress, cfg, c["decisions"])

    def wall() -> float:
        return base_wall + time.perf_counter() - started

    try:
        if c["last_eval"] < 0:
            evaluator.start(dict(c, wall_s=wall()), stats)
        while True:
            elapsed = time.perf_counter() - started
            if seconds is not None and elapsed >= seconds:
                break
            if cfg.total_decisions and c["decisions"] >= cfg.total_decisions:
                break
            learned = learn(trainer, collector, stats)
            c["decisions"] += learned
            c["updates"] += 1
            c["games"] = c["games"] + collector.games_played
            collector.games_played = 0
            c["wall_s"] = wall()
            if c["updates"] % cfg.pool_every == 0:
                trainer.snapshot()
                trainer.show_pool(collector)
            # idle() first: a finished evaluation's row is written as soon as it is done
            if evaluator.idle() and c["decisions"] - c["last_eval"] >= cfg.eval_every:
                evaluator.start(dict(c), stats)
            if time.perf_counter() - last_save >= cfg.checkpoint_every_s:
                trainer.save()
                last_save = time.perf_counter()
            if bar is not None:
                bar.update(learned)
                bar.set_postfix(dec_s=f"{c['decisions'] / max(c['wall_s'], 1e-9):,.0f}",
                                games=c["games"])
        c["wall_s"] = wall()
        trainer.save()
        if c["last_eval"] != c["decisions"]:
            evaluator.wait()
            evaluator.start(dict(c), stats)
        evaluator.wait()
        trainer.save()
    finally:
        evaluator.close()
        collector.close()
        if bar is not None:
            bar.close()
    return dict(c)


class Evaluator:
    """Evaluations in one background process (the trainer goes on meanwhile; its rows
    reach ``progress.csv`` in order). The mirror is measured by the first one."""

    def __init__(self, cfg: TrainConfig, out: Path, trainer: Trainer):
        import multiprocessing as mp

        self.cfg, self.out, self.trainer = cfg, out, trainer
        self.pool = mp.get_context("fork").Pool(1, initializer=_ignore_interrupts)
        self.pending = None

    def idle(self) -> bool:
        """Whether no evaluation is running (a finished one's row is written now)."""
        if self.pending is not None and self.pending[0].ready():
            self.wait()
        return self.pending is None

    def start(self, counters: dict, stats: dict) -> None:
        """Evaluate the learners as they are now (``counters`` at this point)."""
        policies = [n.to_numpy() for n in self.trainer.nets]
        self.trainer.counters["last_eval"] = counters["decisions"]
        future = self.pool.apply_async(_evaluate_job, (policies, self.cfg, self.trainer.mirror))
        self.pending = (future, counters, dict(stats))

    def wait(self) -> None:
        """Wait for the running evaluation and write its row."""
        if self.pending is None:
            return
        future, counters, stats = self.pending
        self.pending = None
        rates, mirror, seconds = future.get()
        self.trainer.mirror = mirror
        self.trainer.counters["eval_s"] += seconds
        write_row(self.out, {**rates, **mirror}, counters, counters["wall_s"], stats)
        plot_curve(self.out)

    def close(self) -> None:
        """Stop the evaluation process (a running evaluation is dropped)."""
        self.pool.terminate()
        self.pool.join()


def _ignore_interrupts() -> None:
    """In the evaluation process: Ctrl-C stops the trainer, which stops this process."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _evaluate_job(policies, cfg: TrainConfig, mirror: dict | None):
    """In the evaluation process: the rates, the mirror's and the seconds it took."""
    started = time.perf_counter()
    mirror = mirror or evaluate(None, cfg)
    return evaluate(policies, cfg), mirror, time.perf_counter() - started


def _bar(progress: bool, cfg: TrainConfig, start: int):
    if not progress:
        return None
    from tqdm import tqdm

    return tqdm(total=cfg.total_decisions or None, initial=start, unit="dec",
                desc="self-play", unit_scale=True, dynamic_ncols=True)


def run_cli(cfg: TrainConfig, out: str | Path, seconds: float | None, *,
            progress: bool = True, log: Callable[[str], None] = print,
            ray_address: str | None = None) -> None:
    """``singapore-1819 train`` with a self-play config (``--ray``: the rollouts
    collected on that Ray cluster): train, then say where the actors and the curve
    are."""
    try:
        c = train(cfg, out, seconds=seconds, progress=progress, log=log,
                  ray_address=ray_address)
    except KeyboardInterrupt:
        log(f"interrupted: {out} holds the last checkpoint; run the command again to "
            f"continue")
        return
    log(f"{c['decisions']:,} learned decisions in {c['wall_s']:.0f} s "
        f"({c['decisions'] / max(c['wall_s'], 1e-9):,.0f}/s); actors: "
        f"{out}/british.npz, {out}/malay.npz (learned:{out}/british.npz); curve: "
        f"{out}/progress.csv, {out}/learning_curve.png")
