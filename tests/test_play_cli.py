"""`singapore-1819 play`: a person plays one seat by typing numbers."""

from click.testing import CliRunner

from singapore_env.cli import main


def test_play_reprompts_on_bad_input_and_finishes():
    lines = ["hello", "0", "99999"] + ["1"] * 3000
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
