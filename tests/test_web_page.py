"""The play page tells the truth, in a real browser (headless Chromium through Selenium):
a failed agent, a stopped game and a refused answer stay on the page until the player
acts (no "thinking" left, no question or buttons of a game that cannot go on); the
messages name seats and cards as players do; a new player finds a legend of the token
circles, each count once, the grey cards explained, Market slots from 1, a replay chart
whose labels never overlap, and every shipped agent in the start page's hint.

Screenshots of each state go to ``$WEB_SCREENSHOTS`` if set, else to a pytest temporary
folder; the folder is printed (``pytest -s``)."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from pathlib import Path

import pytest

from browser_support import browser as _browser
from browser_support import until

pytest.importorskip("uvicorn", reason="the web extra is not installed")

from singapore_app.web.server import BackgroundServer  # noqa: E402
from singapore_app.web.specs import SHIPPED_PLAYERS, SHIPPED_SPECS, is_shipped, parse  # noqa: E402

STATIC = Path(__file__).resolve().parent.parent / "singapore_app" / "web" / "static"
SHORT = {"event_i_cards": 1, "event_ii_cards": 1}
FAILING = '''
class Failing:
    """An agent whose network cannot be read: it fails at its first decision."""
    def __init__(self, seed=None):
        pass
    def choose(self, game, seat):
        raise RuntimeError("its network file cannot be read")
'''


@pytest.fixture(scope="module")
def driver():
    yield from _browser()


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    (folder / "failing.py").write_text(FAILING)
    with BackgroundServer(folder, workers=1, allow_code=True) as base:
        yield base, folder


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = Path(os.environ.get("WEB_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots in {folder}")
    return folder


def _call(url: str, body=None, method: str | None = None, headers=None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"content-type": "application/json",
                                                 **(headers or {})}, method=method)
    with urllib.request.urlopen(request) as r:
        return json.load(r)



def _by(driver, css: str):
    from selenium.webdriver.common.by import By
    return driver.find_elements(By.CSS_SELECTOR, css)


def _text(driver, css: str) -> str:
    return " ".join(e.text for e in _by(driver, css))


def _stays(driver, check, seconds: float = 1.6) -> None:
    """``check()`` holds now and through several polls of the page (400 ms apart)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert check(), "the page changed back"
        time.sleep(0.1)


def test_a_failed_agent_shows_on_the_page_and_stays(driver, url, shots):
    base, folder = url
    spec = f"{folder / 'failing.py'}:Failing"
    game = _call(base + "/api/games", {"seats": ["person", spec, spec, spec], "seed": 4})
    driver.get(base + game["seats"][0]["url"])
    until(driver, lambda d: _by(d, "#question[data-state]"), what="the page")
    # play the person's seat until an agent is to move (and fails)
    for _ in range(20):
        state = until(driver, lambda d: _by(d, "#question[data-state]")[0].get_attribute(
            "data-state") in ("asked", "failed") and _by(d, "#question")[0], what="a state")
        if state.get_attribute("data-state") == "failed":
            break
        _by(driver, "button.answer")[0].click()
        time.sleep(0.3)
    question = _by(driver, "#question")[0]
    assert question.get_attribute("data-state") == "failed"
    words = question.text
    assert "agent" in words and "failed: its network file cannot be read" in words, words
    assert any(f"The {seat}'s agent" in words for seat in ("Resident", "Temenggong", "Sultan"))
    assert "seat 1" not in words and "thinking" not in words
    _stays(driver, lambda: "thinking" not in _text(driver, "#question, #players")
           and not _by(driver, "button.answer")
           and _by(driver, "#question")[0].get_attribute("data-state") == "failed")
    assert "an agent failed" in _text(driver, "#status")
    driver.save_screenshot(str(shots / "agent-failed.png"))


def test_a_stopped_game_hides_its_question_and_buttons(driver, url, shots):
    base, _ = url
    game = _call(base + "/api/games", {"seats": ["person"] * 4, "seed": 5})
    first = _call(base + f"/api/games/{game['id']}")["acting"]
    seat = ["lieutenant_governor", "resident", "temenggong", "sultan"].index(first)
    driver.get(base + game["seats"][seat]["url"])
    until(driver, lambda d: _by(d, "button.answer"), what="the question")
    _call(base + f"/api/games/{game['id']}/stop", {}, headers={"x-owner-key": game["owner_key"]})
    until(driver, lambda d: _by(d, "#question")[0].get_attribute("data-state") == "stopped",
           what="the stop shown")
    _stays(driver, lambda: not _by(driver, "button.answer")
           and not _by(driver, "#turn-mark")[0].is_displayed())
    assert "stopped by its creator" in _text(driver, "#question")
    driver.save_screenshot(str(shots / "stopped.png"))


def test_a_refused_answer_stays_until_the_player_acts(driver, url, shots):
    base, _ = url
    game = _call(base + "/api/games", {"seats": ["person"] * 4, "seed": 6})
    first = _call(base + f"/api/games/{game['id']}")["acting"]
    seat = ["lieutenant_governor", "resident", "temenggong", "sultan"].index(first)
    driver.get(base + game["seats"][seat]["url"])
    until(driver, lambda d: _by(d, "button.answer"), what="the question")
    # the page's own answer, chosen at a count of decisions the game is not at
    driver.execute_script("answer(0, 99)")
    until(driver, lambda d: "refused" in _text(d, "#error"), what="the refusal")
    assert "the game has moved on" in _text(driver, "#error")
    _stays(driver, lambda: "refused" in _text(driver, "#error"), seconds=2.0)
    driver.save_screenshot(str(shots / "refused.png"))
    _by(driver, "button.answer")[0].click()  # the player acts: the refusal goes
    until(driver, lambda d: not _text(d, "#error"), what="the refusal cleared")


def test_messages_name_seats_as_players_do(driver, url, shots):
    base, _ = url
    game = _call(base + "/api/games", {"seats": ["person", "person", "random", "random"],
                                       "seed": 2})
    driver.get(f"{base}/play/{game['id']}?seat=1#key=guess")
    until(driver, lambda d: "wrong or missing secret" in _text(d, "#error"), what="refusal")
    words = _text(driver, "#error")
    assert "the Resident's seat" in words and "resident" not in words, words
    driver.save_screenshot(str(shots / "wrong-secret.png"))


def test_a_finished_game_says_who_won_in_words(driver, url, shots):
    base, _ = url
    game = _call(base + "/api/games", {"seats": ["random"] * 4, "seed": 7, "settings": SHORT})
    deadline = time.monotonic() + 90
    while not _call(base + f"/api/games/{game['id']}")["over"]:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    driver.get(base + game["watch"])
    until(driver, lambda d: _by(d, "#question")[0].get_attribute("data-state") == "over",
           what="the end")
    words = _text(driver, "#question")
    assert words.startswith("The game is over: the ") and words.endswith(" won."), words
    assert "over: over" not in words and "game over: the" in _text(driver, "#status")
    driver.save_screenshot(str(shots / "over.png"))


def test_a_new_player_finds_legends_units_and_slots_from_one(driver, url, shots):
    base, _ = url
    game = _call(base + "/api/games", {"seats": ["person", "random", "random", "random"],
                                       "seed": 3})
    driver.get(base + game["seats"][0]["url"])
    until(driver, lambda d: _by(d, "#token-legend") and _by(d, ".market-card"),
           what="the board")
    # read in one script: the random seats keep moving and the page redraws between calls
    legend, board = driver.execute_script(
        "return [document.querySelector('#token-legend').textContent,"
        " [...document.querySelectorAll('#board-svg text')].map(t => t.textContent)"
        ".join(' ')];")
    assert all(seat in legend for seat in ("Lieutenant-Governor", "Resident", "Temenggong",
                                           "Sultan")), legend
    # each Storehouse's count once, on its space; Population with its unit
    assert "Storehouses:" not in board and board.count("Storehouse") == 2, board
    assert "Population cubes:" in board
    slots = driver.execute_script(
        "return [...document.querySelectorAll('.market-card .price, .market-card.down')]"
        ".map(e => e.innerText);")
    assert slots and slots[0].startswith("slot 1") and not any("slot 0" in s for s in slots)
    # a face-down card is greyed and says why, and a note explains grey cards
    shown = driver.execute_script(
        "const box = document.createElement('div');"
        "const card = {name: 'School', text: 'x', up: false, down: 'closed', pops: [],"
        " stored: 0, link: false};"
        "const board = {players: [{seat: 'sultan', faction: 'malay', vp: 0, wealth: 3,"
        " hand_count: 0, hand: null, revealed: [], tableau: [card], role: '', wars_won: 0}]};"
        "drawPlayers(board, box); return [box.textContent, box.querySelector('.card.down')"
        " !== null];")
    assert shown[1] and "face down: closed" in shown[0] and "Grey cards are face down" in shown[0]
    driver.save_screenshot(str(shots / "new-player.png"))


def _overlaps(driver, css: str) -> list:
    """Pairs of elements matching ``css`` whose boxes overlap on the page."""
    return driver.execute_script("""
        const boxes = [...document.querySelectorAll(arguments[0])]
          .map(e => [e.textContent, e.getBoundingClientRect()]).filter(b => b[1].width > 0);
        const out = [];
        boxes.forEach(([ta, a], i) => boxes.slice(i + 1).forEach(([tb, b]) => {
          if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 &&
              b.top < a.bottom - 1) out.push([ta, tb]);
        }));
        return out;""", css)


def test_the_replay_chart_has_no_overlapping_labels(driver, url, shots):
    base, _ = url
    game = _call(base + "/api/games", {"seats": ["random"] * 4, "seed": 8, "settings": SHORT})
    deadline = time.monotonic() + 90
    while not _call(base + f"/api/games/{game['id']}")["over"]:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    for width in (1400, 400):
        driver.set_window_size(width, 1000)
        try:
            driver.get(base + game["replay"])
            until(driver, lambda d: _by(d, "#vp-legend .key") and _by(d, "#sources-legend"),
                   what="the charts")
            _by(driver, "#last")[0].click()
            until(driver, lambda d: "end of the game" in _text(d, "#decision"), what="the end")
            for css in ("#vp-chart text, #vp-legend .key", "#sources-svg text",
                        "#sources-legend .key"):
                assert not _overlaps(driver, css), (width, css, _overlaps(driver, css))
            assert len(_by(driver, "#vp-legend .key")) == 4
            driver.save_screenshot(str(shots / f"replay-{width}.png"))
        finally:
            driver.set_window_size(1400, 1000)


def test_the_seat_hint_lists_every_shipped_agent():
    hint = (STATIC / "index.html").read_text()
    start, end = hint.index('id="seat-hint"'), hint.index("</div>", hint.index('id="seat-hint"'))
    listed = " ".join(hint[start:end].split())
    assert all(is_shipped(parse(spec)) for spec in SHIPPED_SPECS)
    assert all(spec in listed for spec in SHIPPED_SPECS), listed
    assert all(f"learned:{name}" in listed for name in SHIPPED_PLAYERS)
