"""Learned agents: a trained policy playing through the action mask, in numpy.

Training saves two files per checkpoint: the SB3 ``.zip`` (to resume training) and a
``.npz`` with the actor's weights (:mod:`training.bridges.export` copies a torch network out).
:class:`NumpyPolicy` runs an MLP actor in numpy (:class:`agents.pointer_actor.PointerActor`
an action-aware one), so playing needs no torch (and is several times faster than
``model.predict`` for one observation at a time).
A learned agent limits numpy's BLAS and torch to one thread per process
(:func:`agents.threads.limit_threads`).
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import numpy as np

from singapore_env.candidates import CandidateEncoder, projected_vp
from singapore_env.engine.content import FACTIONS

from .base import Agent, _encoder_for
from .net_files import meta_of, read_network, shared
from .numpy_nets import ACTIVATIONS, check_input_size, masked_choice, save_npz
from .pointer_actor import KIND as POINTER_KIND, PointerActor
from .priors import PRIORS, resolve_prior
from .threads import limit_threads

#: The folder of the shipped networks: one folder each, ``agents/policies/NAME/``
#: (``british.npz`` and ``malay.npz``), made by ``training/configs/NAME.toml``.
POLICY_DIR = Path(__file__).parent / "policies"
#: The shipped networks by name (``mcts:net=NAME``, ``rerank:net=NAME``,
#: ``lookahead:NAME``, ``learned:NAME``).
SHIPPED_NETS = ("zero",)
#: The retired shipped players and networks -> what replaced them (their networks did
#: not come from the self-play loop of ``training/configs/zero.toml``).
RETIRED = {"learned:default": "learned:zero", "learned:pure": "learned:zero",
           "learned:pure-policy": "learned:zero-policy", "net=default": "net=zero"}


def net_path(net: str | Path) -> Path:
    """Where the network ``net`` is: a shipped name of :data:`SHIPPED_NETS` -> its folder
    under :data:`POLICY_DIR`, anything else the path it names; ``default`` (retired)
    raises ValueError naming ``zero``."""
    check_retired(f"net={net}")
    return POLICY_DIR / str(net) if str(net) in SHIPPED_NETS else Path(net)


def check_retired(name: str) -> None:
    """ValueError, naming the replacement, where ``name`` (``learned:NAME`` or
    ``net=NAME``) is a retired shipped player or network of :data:`RETIRED`."""
    if name in RETIRED:
        raise ValueError(f"{name} was retired (every shipped network now comes from the "
                         f"self-play loop, training/configs/zero.toml): use {RETIRED[name]}")


class NumpyPolicy:
    """The actor of an MLP policy: hidden layers, then a linear head over actions."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]],
                 head: tuple[np.ndarray, np.ndarray], activation: str = "tanh",
                 meta: dict | None = None):
        if activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {activation!r}; known: {sorted(ACTIVATIONS)}")
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        self.head = (np.asarray(head[0], np.float32), np.asarray(head[1], np.float32))
        self.activation = activation
        self._act = ACTIVATIONS[activation]
        self.meta = dict(meta or {})

    @property
    def obs_dim(self) -> int:
        return (self.layers[0][0] if self.layers else self.head[0]).shape[0]

    @property
    def n_actions(self) -> int:
        return self.head[0].shape[1]

    def logits(self, x: np.ndarray) -> np.ndarray:
        check_input_size(x.shape[-1], self.obs_dim)
        for w, b in self.layers:
            x = self._act(x @ w + b)
        return x @ self.head[0] + self.head[1]

    needs_candidates = False

    def choose(self, obs: dict, mask: np.ndarray, rng: np.random.Generator | None,
               deterministic: bool = True) -> int:
        """Best (or sampled) legal action for one observation dict."""
        x = obs["observation"]
        return masked_choice(self.logits(x.astype(np.float32, copy=False)), mask, rng,
                             deterministic)

    # -------------------------------------------------------------- files
    def save(self, path: str | Path, dtype=np.float32) -> None:
        """Write the actor as a compressed ``.npz``, its weights as ``dtype`` (float16
        halves the file; loading reads them back as float32)."""
        arrays = {"activation": np.array(self.activation)}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(dtype), b.astype(dtype)
        arrays["head_w"], arrays["head_b"] = (a.astype(dtype) for a in self.head)
        for key, value in self.meta.items():
            arrays[f"meta_{key}"] = np.array(value)
        save_npz(path, **arrays)

    @classmethod
    def load(cls, path: str | Path):
        """Load a saved actor: a :class:`NumpyPolicy`, or a
        :class:`~agents.pointer_actor.PointerActor` when the file holds one. The file is
        read and checked by :func:`agents.net_files.read_network` (FileNotFoundError, or
        a :class:`~agents.net_files.NetFileError` naming the file and the array)."""
        return from_arrays(read_network(path))


def from_arrays(arrays: dict):
    """The actor of a network file's checked arrays (:func:`agents.net_files.read_network`)."""
    if arrays.get("kind") == POINTER_KIND:
        return PointerActor.from_arrays(arrays)
    n = sum(1 for k in arrays if k.startswith("w"))
    layers = [(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(n)]
    return NumpyPolicy(layers, (arrays["head_w"], arrays["head_b"]), arrays["activation"],
                       meta_of(arrays))


def load_shared(path: str | Path):
    """:meth:`NumpyPolicy.load` of ``path``, one actor a process while the file is
    unchanged (:func:`agents.net_files.shared`): every player built from the file shares
    the (read-only) network and its compiled twin."""
    return shared(path, from_arrays)


def load_value_nets(path: str | Path, need_value: bool = True) -> dict[int, PointerActor]:
    """Faction index -> policy-value network: a shipped name (:func:`net_path`), a folder
    holding ``british.npz`` and ``malay.npz`` (one per faction), or one ``.npz`` for
    both; each must be a pointer policy and, with ``need_value``, carry a value head
    (ValueError otherwise, FileNotFoundError for a missing file). A file is read once per
    process while it is unchanged: the players built from it share the (read-only)
    network and its compiled twin."""
    path = net_path(path)
    files = ([path / f"{name}.npz" for name in FACTIONS] if path.is_dir() else [path, path])
    loaded: dict[Path, PointerActor] = {}
    for file in files:
        if file in loaded:
            continue
        net = load_shared(file)
        if not isinstance(net, PointerActor):
            raise ValueError(f"{file}: not a pointer policy (the network reads the "
                             f"candidate features)")
        if need_value and not net.has_value:
            raise ValueError(f"{file}: this policy has no value head (the self-play "
                             f"trainer's pointer networks carry one: network = \"pointer\")")
        loaded[file] = net
    return {faction: loaded[file] for faction, file in enumerate(files)}


def reads_native_games(policy) -> bool:
    """Whether ``policy`` plays a native game: a flat actor reads the observation, a
    pointer policy also the candidate features, which the native engine writes too, and
    the columns of its prior when it reads one of :data:`agents.priors.PRIORS` (the
    heuristic's scores, from its native twin)."""
    return not policy.needs_candidates or policy.meta.get("candidate_prior") in (None, *PRIORS)


def reads_prior(policy) -> bool:
    """Whether ``policy`` reads a prior's candidate columns (``prior_score``,
    ``prior_gap``): a pointer policy trained with one."""
    return policy.needs_candidates and policy.meta.get("candidate_prior") is not None


def position_value(net: PointerActor, game, seat: int, vp_weight: float = 0.0) -> float:
    """``net``'s value head's score of ``game`` from ``seat``'s observation of it (its
    faction's predicted win share plus ``vp_weight`` times its VP margin)."""
    obs = {"observation": _encoder_for(game).encode(game, seat),
           "projected_vp": projected_vp(game, seat)}
    return network_for(net, game).value(obs, vp_weight)


def network_for(policy, game):
    """What runs ``policy`` on ``game``: the numpy actor, or on a native game its forward
    passes in C++ (:func:`agents.native_nets.native_twin`: the same logits within 1e-4,
    so the same decisions but at near-ties)."""
    native = sys.modules.get("singapore_env.native")  # not imported: no native game exists
    if native is not None and isinstance(game, native.NativeGame):
        from .native_nets import native_twin

        return native_twin(policy)
    return policy


class PolicyView:
    """The observation dict a policy reads at engine level: the observation vector and,
    for a pointer policy, the candidate keys (with the prior it was trained with). Every
    player that reads a policy does so through a view, so building one limits numpy's
    BLAS (and torch) to one thread in this process."""

    def __init__(self, policy: NumpyPolicy):
        limit_threads()
        self.policy = policy
        self._candidates: CandidateEncoder | None = None
        self._candidates_of = None  # the observation encoder they go with

    def observation(self, game, seat: int) -> dict:
        """``seat``'s observation of ``game`` as the policy reads it."""
        encoder = _encoder_for(game)
        obs = {"observation": encoder.encode(game, seat)}
        if self.policy.needs_candidates:
            if self._candidates_of is not encoder:  # (another engine, rules or content)
                self._candidates = CandidateEncoder.for_observations(
                    encoder, resolve_prior(self.policy.meta.get("candidate_prior")))
                self._candidates_of = encoder
            obs.update(self._candidates.encode(game, seat))
        return obs

    def logits(self, game, seat: int) -> np.ndarray:
        """The policy's logits over the action table for ``seat``'s view of ``game``."""
        obs = self.observation(game, seat)
        net = network_for(self.policy, game)
        return net.logits(obs if self.policy.needs_candidates else obs["observation"])

    def decision_logits(self, game, seat: int, decisions: list) -> np.ndarray:
        """The policy's logits of ``decisions`` (engine decisions of the pending
        question) for ``seat``'s view of ``game``."""
        logits = self.logits(game, seat)
        index = _encoder_for(game).table.index
        return np.array([logits[index(d)] for d in decisions], dtype=np.float64)


class LearnedAgent(Agent):
    """Plays a trained policy. ``deterministic`` takes the most likely legal action;
    otherwise it samples with its own seeded generator."""

    name = "learned"

    def __init__(self, policy: NumpyPolicy, deterministic: bool = True, seed: int | None = None,
                 name: str | None = None):
        self.policy = policy
        self._view = PolicyView(policy)
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        if name:
            self.name = name

    @classmethod
    def load(cls, path: str | Path, **kwargs) -> "LearnedAgent":
        """Load a ``.npz`` actor."""
        path = Path(path)
        if path.suffix == ".zip":
            raise ValueError(f"{path} is an SB3 checkpoint: play the .npz actor saved next "
                             f"to it ({path.with_suffix('.npz').name})")
        policy = load_shared(path)
        if policy.meta.get("value_only"):
            raise ValueError(f"{path} is a value network (a trunk and a value head): it "
                             f"has no policy to play")
        return cls(policy, **kwargs)

    @property
    def plays_native(self) -> bool:
        """A flat actor reads the observation alone; a pointer policy also reads the
        candidate features, which both engines write, and its prior's columns, which
        both engines score (:func:`reads_native_games`)."""
        return reads_native_games(self.policy)

    def networks(self) -> list:
        """Its policy."""
        return [self.policy]

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation: dict, mask: np.ndarray) -> int:
        if not isinstance(observation, dict):
            observation = {"observation": observation}
        if self.policy.needs_candidates and "candidate_card" not in observation:
            raise ValueError("this policy reads the candidate features: use an env made "
                             "with candidates=True, or play it at engine level (choose)")
        return self.policy.choose(observation, mask, self.rng, self.deterministic)

    def choose(self, game, seat: int):
        """The policy's most likely (or sampled) legal decision; on a native game a
        deterministic pointer policy reading no prior or the heuristic's decides in one
        C++ call (:func:`agents.native_nets.pointer_choose`), the same decision."""
        native = sys.modules.get("singapore_env.native")  # not imported: no native game exists
        if (native is not None and isinstance(game, native.NativeGame) and self.deterministic
                and self.policy.needs_candidates and seat == game.acting_seat
                and self.policy.meta.get("candidate_prior") in (None, "heuristic")):
            return self._choose_in_cpp(native, game)
        encoder = _encoder_for(game)
        mask = encoder.legal_mask(game, seat)
        observation = {**self._view.observation(game, seat), "action_mask": mask}
        net = network_for(self.policy, game)
        return encoder.table.decision(net.choose(observation, mask, self.rng,
                                                 self.deterministic))

    def _choose_in_cpp(self, native, game):
        from .native_nets import pointer_choose

        prior = (_default_heuristic_params(native)  # the prior's scorer: resolve_prior
                 if self.policy.meta.get("candidate_prior") is not None else None)
        return pointer_choose(game, self.policy, prior)


@functools.lru_cache(maxsize=1)
def _default_heuristic_params(native):
    """The native copy of the heuristic's default params (the ``heuristic`` prior's)."""
    from .heuristic import DEFAULT_PARAMS

    return native.heuristic_params(DEFAULT_PARAMS)
