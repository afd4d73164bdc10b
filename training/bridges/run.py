"""What both bridges do with a run's output folder and its bounds: a run needs a bound
(``total_decisions`` or ``--seconds``), and a folder holds one configuration, which
starting again on it continues (:func:`open_run`); :class:`Deadline` is the wall-clock
bound."""

from __future__ import annotations

import json
import time
from pathlib import Path

from training.config import TrainConfig
from training.config.base import TrainConfigError

#: The keys a run started again on its folder may change: its bound, not its training.
BOUND_KEYS = ("total_decisions",)


def open_run(cfg: TrainConfig, out: str | Path, seconds: float | None) -> Path:
    """The output folder ``out`` (made if missing) with ``cfg`` written to its
    ``config.json``; a TrainConfigError when the run would have no bound, or when the
    folder holds a run of another configuration (besides :data:`BOUND_KEYS`)."""
    if seconds is None and not cfg.total_decisions:
        raise TrainConfigError("give total_decisions in the config or --seconds: the run "
                               "would not end")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "config.json"
    if path.exists():
        saved, now = json.loads(path.read_text()), cfg.to_dict()
        changed = sorted(k for k in set(saved) | set(now)
                         if k not in BOUND_KEYS and saved.get(k) != now.get(k))
        if changed:
            raise TrainConfigError(f"{out} holds a run of another configuration (differs "
                                   f"in {changed}); use another --out")
    cfg.save(path)
    return out


class Deadline:
    """The wall-clock bound of one invocation: ``seconds`` from now (None: none)."""

    def __init__(self, seconds: float | None):
        self.end = None if seconds is None else time.perf_counter() + seconds

    def passed(self, ahead: float = 0.0) -> bool:
        """Whether the bound is reached, or would be ``ahead`` seconds from now."""
        return self.end is not None and time.perf_counter() + ahead >= self.end
