"""``singapore-1819 play``: a person at the table, the other seats played by agents.

The player sees what a player at the table sees: the public events as they happen (the
engine's text log: dice, raids, Wars, Conflicts, Upkeep, district scoring), the other
seats' decisions (hidden ones only as "keeps one of two"...), the board with numbered
Market slots, prices and card text, and its own hand. At the prompt: a number picks a
decision; ``help``, ``board``, ``save FILE`` and ``q`` do what they say.
"""

from __future__ import annotations

import re
from typing import Callable

import click

from singapore_env.engine.content import SEAT_NAMES
from singapore_env.engine import Game
from singapore_env.words import (card_words, decision_seen_by, decision_words, question_words,
                                 seat_words)

HELP = """Commands at the prompt:
  <number>     take that decision
  board        show the board again
  save FILE    save the game (resume with: singapore-1819 play --load FILE --seat ...)
  help         this text
  q            quit"""

_SEAT_WORD = re.compile(r"\bseat (\d)\b")
_CONFLICT = re.compile(r"\bconflict ([a-z]+(?:_[a-z]+)+)")
_PER_SEAT = re.compile(r"\[(-?\d+), (-?\d+), (-?\d+), (-?\d+)\]")


def make_opponents(spec: str, me: int, seed: int) -> list:
    """Agents for the three other seats from ``--opponents``: one spec for all three, or
    three comma-separated specs for the other seats in seat order (ValueError if not);
    one that looks ahead thinks on native copies of the game where it can
    (:func:`agents.native_copy.on_native_copy`)."""
    from agents.native_copy import on_native_copy
    from agents.registry import make_agent

    specs = [x.strip() for x in spec.split(",")]
    if len(specs) == 1:
        specs *= 3
    if len(specs) != 3 or not all(specs):
        raise ValueError(f"give one agent for the three other seats or three comma-separated "
                         f"agents (other seats in seat order), got {spec!r}")
    agents: list = [None] * 4
    for p, one in zip([p for p in range(4) if p != me], specs):
        agents[p] = on_native_copy(make_agent(one, seed + p))
    return agents


def public_events(game: Game, start: int) -> list[str]:
    """The engine's log lines from ``start`` on, with seat numbers as the seats' names
    (the log only records what every player sees)."""
    return ["  * " + _readable(line) for line in game.s.log_text[start:]]


def _readable(line: str) -> str:
    """An engine log line in players' words: seats by name, a Conflict by its name, a
    list of four numbers (one a seat: VP, scores) with the seats named."""
    line = _SEAT_WORD.sub(lambda m: seat_words(int(m.group(1))), line)
    line = _CONFLICT.sub(lambda m: f"Conflict: {m.group(1).replace('_', ' ').title()},",
                         line)
    return _PER_SEAT.sub(lambda m: ", ".join(f"{seat_words(p)} {m.group(p + 1)}"
                                             for p in range(4)), line)


def board_text(game: Game, me: int) -> str:
    """The board as ``me`` sees it, with the Market slots (price for ``me``) and the
    cards of ``me``'s tableau and hand numbered from 1, each with its text."""
    from singapore_env.render import render_text
    from singapore_env.engine.query import market_price

    c, s = game.c, game.s
    lines = [render_text(game, seat=me), "", "Market (slot: card, your price, text):"]
    for i, cid in enumerate(s.market):
        if cid < 0:
            lines.append(f"  {i + 1}: (empty)")
        else:
            price = market_price(game, me, cid)[0] if not game.is_over else c.defs[cid].price
            lines.append(f"  {i + 1}: {c.defs[cid].name}  ${price}  {card_words(c.defs[cid])}")
    lines.append(f"Your tableau ({seat_words(me)}), card: name, text:")
    for i, slot in enumerate(s.tableau[me]):
        state = "" if slot.up else f" (face down{': ' + slot.down if slot.down else ''})"
        lines.append(f"  {i + 1}: {c.defs[slot.card].name}{state}  "
                     f"{card_words(c.defs[slot.card])}")
    lines.append("Your hand, card: name, text:")
    for i, cid in enumerate(s.hands[me]):
        lines.append(f"  {i + 1}: {c.defs[cid].name}  {card_words(c.defs[cid])}")
    return "\n".join(lines)


def final_text(game: Game) -> str:
    """The final screen: each seat's VP track, Legacies, End Game bonuses and total."""
    from singapore_env.engine.query import legacy_vp

    lines = ["", "Final scores       track  legacies  end-game  total"]
    for p in range(4):
        track, legacy, total = game.s.vp[p], legacy_vp(game, p), game.s.final_vp[p]
        lines.append(f"  {seat_words(p):19s} {track:4d}  {legacy:8d}  "
                     f"{total - track - legacy:8d}  {total:5d}")
    lines.append(f"Winners: {', '.join(seat_words(p) for p in game.winners)}")
    return "\n".join(lines)


def ask(prompt: str, options: int, read: Callable = input, on_command=None) -> int:
    """Ask for a number in 1..options until one is given (re-prompt on bad input);
    other words go to ``on_command(text)`` (True when handled)."""
    while True:
        try:
            text = read(prompt)
        except EOFError:
            raise click.ClickException("input ended; game abandoned") from None
        text = text.strip()
        if text.lower() in ("q", "quit", "exit"):
            raise click.ClickException("game abandoned")
        # ASCII digits only ("²".isdigit() is true) and few of them (int() refuses
        # thousands of digits).
        if text.isascii() and text.isdigit() and len(text) <= 6 and 1 <= int(text) <= options:
            return int(text) - 1
        if on_command is None or not on_command(text):
            click.echo(f"  please type a number from 1 to {options}, or help")


class Session:
    """One person's game: ``me`` decides at the prompt, ``agents[p]`` the other seats.
    ``resumed``: the game's earlier events are not shown again."""

    def __init__(self, game: Game, me: int, agents: list, read: Callable = input,
                 resumed: bool = False):
        self.game, self.me, self.agents, self.read = game, me, agents, read
        self.logged = len(game.s.log_text) if resumed else 0

    def run(self) -> None:
        game, me = self.game, self.me
        click.echo(board_text(game, me))
        shown_round = game.s.round
        while not game.is_over:
            self._show_events()
            acting = game.acting_seat
            if acting != me:
                decision = self.agents[acting].choose(game, acting)
                click.echo(f"  {seat_words(acting)}: {decision_seen_by(game, decision, me)}")
                game.step(decision)
                continue
            if game.s.round != shown_round:
                click.echo("\n" + board_text(game, me))
                shown_round = game.s.round
            game.step(self._choose())
        self._show_events()
        from singapore_env.render import render_text
        click.echo("\n" + render_text(game))
        click.echo(final_text(game))

    def _show_events(self) -> None:
        for line in public_events(self.game, self.logged):
            click.echo(line)
        self.logged = len(self.game.s.log_text)

    def _choose(self):
        game = self.game
        legal = game.legal_decisions()
        click.echo(f"\nYou ({seat_words(self.me)}): {question_words(game)}")
        for i, d in enumerate(legal, 1):
            click.echo(f"  {i:3d}. {decision_words(game, d)}")
        return legal[ask("> ", len(legal), self.read, self._command)]

    def _command(self, text: str) -> bool:
        word, _, rest = text.partition(" ")
        word = word.lower()
        if word in ("help", "?", "h"):
            click.echo(HELP)
        elif word in ("board", "b"):
            click.echo(board_text(self.game, self.me))
        elif word == "save" and rest.strip():
            self._save(rest.strip())
        else:
            return False
        return True

    def _save(self, path: str) -> None:
        try:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(self.game.to_json())
        except OSError as exc:
            click.echo(f"  cannot save to {path!r}: {exc.strerror or exc}")
            return
        click.echo(f"  saved to {path}; resume with: singapore-1819 play --load {path} "
                   f"--seat {SEAT_NAMES[self.me]}")
