"""What a learned player reads, against what a tuning study's rules give: a study whose
knobs change the observation's width or the action table a network was trained on is
refused before any game (:func:`check_layout`, called by
:meth:`singapore_app.tune_spec.TuneSpec.check`)."""

from __future__ import annotations

import math
from singapore_env.engine.content import resolve_content

from .study import StudyError

def _networks(agent) -> list:
    """The policy and value networks an agent holds (found by walking its attributes:
    a flat actor, ``NumpyPolicy``, or a pointer network, ``PointerActor``)."""
    from agents.learned import NumpyPolicy
    from agents.pointer_actor import PointerActor

    found, seen, todo = [], set(), [agent]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or obj is None or isinstance(obj, (str, int, float, bytes)):
            continue
        seen.add(id(obj))
        if isinstance(obj, (NumpyPolicy, PointerActor)):
            found.append(obj)
        elif isinstance(obj, dict):
            todo.extend(obj.values())
        elif isinstance(obj, (list, tuple, set)):
            todo.extend(obj)
        elif hasattr(obj, "__dict__") and type(obj).__module__.split(".")[0] == "agents":
            todo.extend(vars(obj).values())
    return found


def _reads(net) -> tuple[int, int]:
    """``(observation width, actions)`` a network reads: a pointer network's input is
    the observation and the four projected VP."""
    from agents.pointer_actor import PointerActor

    if isinstance(net, PointerActor):
        return net.layers[0][0].shape[0] - 4, net.n_actions
    return net.obs_dim, net.n_actions


def check_layout(spec) -> None:
    """Refuse (StudyError) a tuning study (:class:`~singapore_app.tune_spec.TuneSpec`)
    whose knobs change what a learned player reads: for each knob at each end of its
    range (each value of a list), and all knobs at their low and at their high ends,
    the observation encoder of those rules is built and its width and action table
    compared with the input and output of every network of every player (the search's
    and ``confirm_with``'s). The observation's width follows the Event card counts, the
    Market and spoils sizes and the hand and tableau limits
    (:mod:`singapore_env.encoding.layout`) and some board numbers (card-data knobs are
    built into their edited data, :meth:`~singapore_app.tune_spec.TuneSpec.game`); a
    network trained on other widths cannot read these games."""
    from agents.registry import make_agent
    from singapore_env.encoding import ObservationEncoder

    nets = {spec_: _networks(make_agent(spec_)) for spec_ in dict.fromkeys(spec.all_players())}
    nets = {k: v for k, v in nets.items() if v}
    if not nets:
        return
    trials = [{k.name: v} for k in spec.knobs for v in k.values()]
    for pick in (min, max):
        trials.append({k.name: pick(k.values(), key=_order) for k in spec.knobs})
    for settings in trials:
        cfg, data = spec.game(settings)
        encoder = ObservationEncoder(resolve_content(data, cfg.slavery), cfg)
        for player, networks in nets.items():
            for net in networks:
                width, actions = _reads(net)
                if (width, actions) != (encoder.size, encoder.n_actions):
                    shown = ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in settings.items())
                    raise StudyError(
                        f"{player} cannot read these games: with {shown} the observation "
                        f"is {encoder.size} values wide with {encoder.n_actions} actions, "
                        f"but its network reads {width} values and {actions} actions "
                        f"(trained on other rules). The observation's width follows "
                        f"event_i_cards, event_ii_cards, market_slots, spoils_shares, "
                        f"max_hand and max_tableau, and board numbers such as "
                        f"board.max_ships: drop those knobs, or play players "
                        f"without a network (heuristic, mcts)")


def _order(value):
    return (0, value) if isinstance(value, (int, float)) else (1, math.inf)
