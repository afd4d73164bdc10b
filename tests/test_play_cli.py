"""`singapore-1819 play`: a person plays one seat by typing numbers."""

from click.testing import CliRunner

from singapore_app.cli import main
from singapore_env.words import SEAT_WORDS


def test_play_reprompts_on_bad_input_and_finishes():
    lines = ["hello", "0", "99999", "²", "9" * 5000, "１"] + ["1"] * 3000
    result = CliRunner().invoke(main, ["play", "--seat", "resident", "--opponents", "random",
                                       "--seed", "3"], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output[-2000:]
    assert "please type a number" in result.output
    assert "Winners:" in result.output


def test_play_quit_and_bad_opponent():
    result = CliRunner().invoke(main, ["play", "--opponents", "random"], input="q\n")
    assert result.exit_code == 1 and "abandoned" in result.output
    result = CliRunner().invoke(main, ["play", "--opponents", "nobody"])
    assert result.exit_code == 2 and "unknown agent" in result.output


def test_play_shows_other_seats_hidden_choices_only_as_a_player_would():
    """Kept cards, face-down War commits and Conflict contributions of the other seats
    are not printed: only that such a choice is made."""
    from agents.heuristic import HeuristicAgent
    from singapore_env.engine import Game
    from singapore_env.engine.describe import HIDDEN_ANSWERS, describe, describe_seen_by

    hidden_seen = 0
    for seed in range(6):
        game, agents = Game(seed), [HeuristicAgent(p) for p in range(4)]
        while not game.is_over:
            seat = game.acting_seat
            d = agents[seat].choose(game, seat)
            if game.pending.kind in HIDDEN_ANSWERS:
                hidden_seen += 1
                shown = describe_seen_by(game, d, (seat + 1) % 4)
                assert shown == HIDDEN_ANSWERS[game.pending.kind]
                assert describe_seen_by(game, d, seat) == describe(game, d)
                drawn = game.pending.d.cards if game.pending.kind == "keep_battle" else []
                for cid in game.s.hands[seat] + drawn:
                    if isinstance(cid, int):
                        assert game.c.defs[cid].name not in shown
            game.step(d)
    assert hidden_seen > 10
    result = CliRunner().invoke(main, ["play", "--seat", "sultan", "--opponents", "heuristic",
                                       "--seed", "2"], input="1\n" * 3000)
    assert result.exit_code == 0, result.output[-2000:]
    opponents = [line for line in result.output.splitlines()
                 if line.startswith(tuple(f"  {n}: " for n in SEAT_WORDS if n != "Sultan"))]
    assert any(line.split(": ", 1)[1] in HIDDEN_ANSWERS.values() for line in opponents)
    assert not any(line.split(": ", 1)[1].startswith("keep ") for line in opponents)


def _battle_names():
    from singapore_env.engine.content import default_content
    return {d.name for d in default_content(True).defs if d.category == "battle"}


def test_play_shows_events_board_help_saves_and_resumes(tmp_path):
    save = tmp_path / "mid.json"
    script = ["help", "board", "1", "1", f"save {save}", "save /nonexistent/dir/x.json", "q"]
    first = CliRunner().invoke(main, ["play", "--seat", "temenggong", "--seed", "4",
                                      "--opponents", "heuristic,mcts:iters=4,random"],
                               input="\n".join(script) + "\n")
    assert first.exit_code == 1 and "abandoned" in first.output, first.output[-2000:]
    out = first.output
    assert "Commands at the prompt" in out and "save FILE" in out
    assert "Market (slot: card, your price, text):" in out and "  1: " in out
    assert "Your tableau (Temenggong)" in out and "  1: " in out.split("Your tableau")[1]
    assert "Tax [LG 0 Res 0 Tem 0 Sul 0]" in out                # per-seat lists labelled
    assert "  * " in out and "round 1 begins" in out          # public events
    assert f"saved to {save}" in out and "cannot save to" in out
    assert save.exists()
    resumed = CliRunner().invoke(main, ["play", "--seat", "temenggong", "--load", str(save),
                                        "--opponents", "random"], input="1\n" * 3000)
    assert resumed.exit_code == 0, resumed.output[-2000:]
    out = resumed.output
    assert "Final scores       track  legacies  end-game  total" in out and "Winners:" in out
    for word in ("upkeep", "event:", "begins"):
        assert word in out
    hidden = _battle_names()
    for line in out.splitlines():
        public = line.startswith("  * ") or line.startswith(tuple(
            f"  {n}: " for n in SEAT_WORDS if n != "Temenggong"))
        if public and "reveal" not in line and "contributes" not in line:  # revealed: public
            assert not any(name in line for name in hidden), line


def test_play_bad_opponents_and_load_are_usage_errors(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    for args in (["--opponents", "random,random"], ["--opponents", "random,,random"],
                 ["--opponents", "random,heuristic,nobody"], ["--load", str(bad)],
                 ["--load", str(tmp_path / "missing.json")]):
        result = CliRunner().invoke(main, ["play", *args], input="q\n")
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output
