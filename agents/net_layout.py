"""What a network reads is part of its identity: the observation layout it was trained on.

A network's first layer reads the observation vector slice by slice
(:class:`singapore_env.encoding.layout.ObservationLayout`); its head scores the action
table; a pointer network also embeds the content's cards. A table whose settings or
content change any of these (the Event card counts change the ``round`` slice, the
Market slots the ``market`` slice, the engine limits the tableau, the hand and the
action table, the content the card vocabularies: :data:`LAYOUT_SETTINGS`) gives an
observation the network cannot read, so such a table is refused before any game, with
a message naming the settings and the slices they change (:func:`check_table`), by
every entry that seats players at a table: ``simulate``, ``evaluate``, ``ladder`` and
``balance`` (through :func:`arena.runner.play_tables`), :func:`arena.simulate.play_game`,
the web app's game creation and the faction env's opponents.

A network saved by the trainers carries the layout it was trained on in its meta
(:func:`layout_meta`: ``obs_size``, the width; ``obs_layout``, a fingerprint of every
slice's name and shape, the vocabularies and the action table; ``obs_slices``, the
slices' names and sizes, for the message). A file without it (the shipped networks) is
taken to read the standard table's layout where its input width is that layout's
(they were trained on it), else the layout of its width alone.
"""

from __future__ import annotations

import functools
import hashlib

from singapore_env.candidates import FEATURES
from singapore_env.encoding import encoder_for
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import Content, default_content

#: The settings that change the observation's layout (the other ones change no slice's
#: size: ``actions_per_turn`` and the deck sizes only scale a value), and what each
#: changes: the list ``docs/observation.md`` shows.
LAYOUT_SETTINGS = {
    "event_i_cards": "the rounds: the `round` slice (one value per round)",
    "event_ii_cards": "the rounds: the `round` slice (one value per round)",
    "market_slots": "the `market` slice (one row per slot)",
    "spoils_shares": "the `war_numbers` slice (one value per share)",
    "max_tableau": "the `tableau` slice (one row per position) and every action that "
                   "names a tableau position",
    "max_hand": "the hand slices (`own_hand`, `own_revealed`, `own_folk`) and the actions "
                "that name a hand index",
}


class LayoutMismatch(ValueError):
    """A network that cannot read the observation of a table: which network, and which
    settings change what it reads."""


@functools.lru_cache(maxsize=64)  # (an encoder is shared: one per observation key)
def fingerprint(layout) -> str:
    """A digest of what shapes an observation and the action table: every slice's name
    and shape, the card-key vocabularies, the board's loop, the table's size and the
    content's card count."""
    parts = (tuple((name, shape) for name, shape, *_ in layout.slices),
             tuple(layout.all_keys), tuple(layout.tableau_keys), tuple(layout.market_keys),
             tuple(layout.battle_keys), tuple(layout.event_keys), tuple(layout.folk_keys),
             layout.modifier_types, layout.conflict_tables, tuple(layout.c.board.loop_ids),
             layout.n_actions, len(layout.c.defs))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


@functools.lru_cache(maxsize=64)
def _slices(layout) -> str:
    return ",".join(f"{name}:{_size(shape)}" for name, shape, *_ in layout.slices)


def _size(shape) -> int:
    size = 1
    for d in shape:
        size *= d
    return size


def layout_meta(content=None, config: RulesConfig | None = None) -> dict:
    """The meta entries that record the observation layout of ``content`` (a loaded
    content, a data folder or None for the shipped cards) and ``config`` (the standard
    one by default) in a saved network: what the trainers write."""
    from singapore_env.engine.content import resolve_content

    cfg = config if config is not None else RulesConfig.standard()
    encoder = encoder_for(resolve_content(content, cfg.slavery), cfg)
    return {"obs_size": encoder.size, "obs_layout": fingerprint(encoder),
            "obs_slices": _slices(encoder)}


def _standard():
    cfg = RulesConfig.standard()
    return encoder_for(default_content(cfg.slavery), cfg)


def _reads(policy) -> tuple[int, int | None, int | None]:
    """(observation width, actions, cards embedded) of a policy, from its arrays."""
    if policy.needs_candidates:
        arrays = policy.arrays
        actions = arrays["action_embedding"].shape[0] if "action_embedding" in arrays else None
        cards = arrays["card_embedding"].shape[0] if "card_embedding" in arrays else None
        return arrays["w0"].shape[0] - 4, actions, cards
    return policy.obs_dim, policy.n_actions, None


def check_reads(policy, encoder, who: str = "this network") -> None:
    """LayoutMismatch unless ``policy`` (a numpy actor) reads the observation and the
    action table of ``encoder`` (a table's), saying which settings change what."""
    width, actions, cards = _reads(policy)
    meta = policy.meta
    problems = []
    if "obs_layout" in meta:
        same = meta["obs_layout"] == fingerprint(encoder)
        trained = str(meta.get("obs_slices", ""))
    else:
        standard = _standard()
        trained = _slices(standard) if width == standard.size else ""
        same = width == encoder.size and (not trained or trained == _slices(encoder))
    if not same:
        problems.append(f"the network reads an observation of {width} values, this table's has "
                        f"{encoder.size}{_slice_changes(trained, _slices(encoder))}")
    if actions is not None and actions != encoder.n_actions:
        problems.append(f"it scores {actions} actions, this table has {encoder.n_actions}")
    if cards is not None and cards != len(encoder.c.defs) + 1:
        problems.append(f"it embeds {cards - 1} cards, this content has {len(encoder.c.defs)}")
    if policy.needs_candidates and "feature_key" in policy.arrays \
            and policy.arrays["feature_key"].shape[0] != len(FEATURES):
        problems.append(f"it reads {policy.arrays['feature_key'].shape[0]} candidate "
                        f"features, the candidates give {len(FEATURES)}")
    if problems:
        raise LayoutMismatch(f"{who} cannot play this table: {_settings(encoder)}"
                             f"{'; '.join(problems)}. A network reads the layout it was "
                             f"trained on: play it on a table that keeps it, or train one "
                             f"for these settings (docs/observation.md lists the settings "
                             f"that change the layout)")


def _slice_changes(trained: str, table: str) -> str:
    """`` (slice 'round': 10 values, here 9; ...)`` between two slice lists."""
    if not trained:
        return ""
    was = dict(part.split(":") for part in trained.split(",") if ":" in part)
    now = dict(part.split(":") for part in table.split(",") if ":" in part)
    changed = [f"'{name}': {was.get(name, 'no')} values, here {now.get(name, 'none')}"
               for name in dict.fromkeys([*was, *now]) if was.get(name) != now.get(name)]
    return f" (slice {'; '.join(changed[:6])})" if changed else ""


def _settings(encoder) -> str:
    """What of the table differs from the standard one in the settings and content that
    change the layout (each followed by ``"; "``)."""
    cfg, standard = encoder.cfg, RulesConfig.named(encoder.cfg.ruleset)
    changed = []
    for name, what in LAYOUT_SETTINGS.items():
        value, base = getattr(cfg, name), getattr(standard, name)
        if name == "spoils_shares":
            value, base = len(value), len(base)
            name = "the number of spoils_shares"
        if value != base:
            changed.append(f"{name} = {value} (the {cfg.ruleset} ruleset has {base}) "
                           f"changes {what}")
    if encoder.c.digest != default_content(cfg.slavery).digest:
        changed.append("the edited content (data folder) changes the card vocabularies")
    return "".join(f"{line}; " for line in changed)


def check_agent(agent, content: Content, config: RulesConfig, who: str | None = None) -> None:
    """LayoutMismatch unless every network ``agent`` reads (:meth:`agents.base.Agent.networks`)
    reads the observation of tables with ``content`` and ``config`` (an object that is
    no :class:`~agents.base.Agent` reads none)."""
    networks = agent.networks() if callable(getattr(agent, "networks", None)) else []
    if not networks:
        return
    encoder = encoder_for(content, config)
    name = who or getattr(agent, "name", "this agent")
    for policy in dict.fromkeys(networks):  # (a network shared by seats: checked once)
        check_reads(policy, encoder, name)


def check_table(agents, config: RulesConfig, content) -> None:
    """LayoutMismatch unless every agent of a table (agents or specs, built each once:
    :func:`agents.registry.as_agent`) reads the observation of its ``config`` and
    ``content`` (a loaded content, a data folder or None for the shipped cards)."""
    from singapore_env.engine.content import resolve_content

    from .registry import as_agent

    content = resolve_content(content, config.slavery)
    for agent in dict.fromkeys(agents):
        check_agent(as_agent(agent), content, config)
