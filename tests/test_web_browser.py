"""The web app in a real browser (headless Chromium through Selenium): a person plays a
whole game by clicking, four agents are watched to the end, a saved game is replayed
step by step. Screenshots are kept under pytest's temporary folder."""

from __future__ import annotations

import json
import random
import time

import pytest

from browser_support import browser as _browser
from browser_support import until

pytest.importorskip("uvicorn", reason="the web extra is not installed")

from singapore_app.web.server import BackgroundServer  # noqa: E402
from singapore_env.engine import Game  # noqa: E402

pytestmark = pytest.mark.slow

SHORT = "event_i_cards=1, event_ii_cards=1"


@pytest.fixture(scope="module")
def driver():
    yield from _browser()


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    with BackgroundServer(tmp_path_factory.mktemp("games"), workers=1) as base:
        yield base


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = tmp_path_factory.mktemp("screenshots")
    print(f"\nscreenshots in {folder}")
    return folder



def _taken(button) -> bool:
    """Whether a clicked answer was taken (its button disabled, or gone with the
    question)."""
    from selenium.common.exceptions import StaleElementReferenceException
    try:
        return not button.is_enabled()
    except StaleElementReferenceException:
        return True


def _by(driver, css: str):
    from selenium.webdriver.common.by import By
    return driver.find_elements(By.CSS_SELECTOR, css)


def _new_game(driver, url: str, seats: list[str], seed: int, settings: str = "",
              watch: bool = False) -> None:
    driver.get(url + "/")
    for i, spec in enumerate(seats):
        box = _by(driver, f"#seat-{i}")[0]
        box.clear()
        box.send_keys(spec)
    for css, value in (("#seed", str(seed)), ("#delay", "0"), ("#settings", settings)):
        box = _by(driver, css)[0]
        box.clear()
        box.send_keys(value)
    _by(driver, "#watch-agents" if watch else "#start")[0].click()


def test_a_person_plays_a_whole_game_by_clicking(driver, url, shots):
    from selenium.common.exceptions import StaleElementReferenceException

    _new_game(driver, url, ["random", "person", "random", "heuristic"], 5, SHORT)
    link = until(driver, lambda d: _by(d, "a.seat-link"), what="the seat link")[0]
    assert link.get_attribute("data-seat") == "resident"
    link.click()
    rng, clicks = random.Random(1), 0
    while True:
        state = until(driver, lambda d: "over" if _by(d, "#status[data-over=true]") else
                       [b for b in _by(d, "button.answer") if b.is_enabled()], what="a question")
        if state == "over":
            break
        if clicks == 3:
            driver.save_screenshot(str(shots / "play.png"))
        button = rng.choice(state)
        try:
            button.click()
        except StaleElementReferenceException:
            continue   # the question was drawn again between reading and clicking
        clicks += 1
        until(driver, lambda d, button=button: _taken(button), what="the answer taken")
        error = _by(driver, "#error")[0].text
        # a click on a view that an agent's move made stale is refused (409) and the
        # page draws the new question: the one answer a busy machine may see
        assert not error or "the game has moved on" in error, error
    driver.save_screenshot(str(shots / "play-over.png"))
    assert clicks >= 5
    assert "game is over" in _by(driver, "#question")[0].text
    assert "Resident:" in _by(driver, "#log")[0].text
    assert _by(driver, "#board-svg .space") and _by(driver, "#replay-link")


def test_four_agents_are_watched_to_the_end(driver, url, shots):
    _new_game(driver, url, ["random", "heuristic", "random", "random"], 8, watch=True)
    until(driver, lambda d: "/play/" in d.current_url, what="the table page")
    until(driver, lambda d: _by(d, "#status[data-over=true]"), timeout=120,
           what="the end of the agents' game")
    driver.save_screenshot(str(shots / "watch.png"))
    assert "watching" in _by(driver, "#who")[0].text
    assert "won" in _by(driver, "#status")[0].text
    _assert_words(driver)


def _assert_words(driver) -> None:
    """The board and the players in players' words: no ids, no B/M, no "1 tokens"."""
    import re

    def read(d) -> str:  # (retried if the page redraws while it is read)
        return " ".join(_by(d, css)[0].text for css in ("#board-svg", "#players", "#status")) \
            + " ".join(t.get_attribute("textContent") for t in _by(d, "#board-svg text"))

    text = until(driver, read, what="the board's text")
    for notation in (r"_", r"\b[BM] \$?\d", r"\b1 (tokens|cards|ships)\b", r"\bTax \d+/",
                     r"\b(LG|Res|Tem|Sul)\b", r"\b(resident|sultan|temenggong)\b"):
        assert not re.search(notation, text), (notation, re.search(notation, text))
    assert "Population cubes:" in text and "Tax tokens:" in text and "Storehouses:" not in text


def test_an_empty_hand_says_so(driver, url):
    game = _post(url + "/api/games", {"seats": ["person", "random", "random", "random"]})
    driver.get(url + game["seats"][0]["url"])
    until(driver, lambda d: _by(d, "#board-svg"), what="the board")
    _assert_words(driver)
    shown = driver.execute_script(
        "const box = document.createElement('div');"
        "const board = {players: [{seat: 'sultan', faction: 'malay', vp: 0, wealth: 3,"
        " hand_count: 0, hand: [], revealed: [], tableau: [], role: '', wars_won: 0}]};"
        "drawPlayers(board, box); return box.textContent;")
    assert "No cards in hand" in shown and "Sultan" in shown and "0 cards in hand" in shown


def test_a_saved_game_is_replayed_step_by_step(driver, url, shots, tmp_path):
    g = Game(3)
    rng = random.Random(4)
    while not g.is_over:
        legal = g.legal_decisions()
        g.step(legal[rng.randrange(len(legal))])
    save = tmp_path / "saved.json"
    save.write_text(g.to_json())
    driver.get(url + "/")
    _by(driver, "#save-file")[0].send_keys(str(save))
    _by(driver, "#open-replay")[0].click()
    step = lambda d: int((_by(d, "#where")[0].get_attribute("data-step")) or -1)  # noqa: E731
    until(driver, lambda d: step(d) == 0, what="the replay at step 0")
    for _ in range(3):
        _by(driver, "#forward")[0].click()
    until(driver, lambda d: step(d) == 3, what="three steps forward")
    _by(driver, "#back")[0].click()
    until(driver, lambda d: step(d) == 2, what="one step back")
    from selenium.webdriver.support.ui import Select
    jump = Select(_by(driver, "#jump")[0])
    option = next(o for o in jump.options if o.text.startswith("round 4:"))
    jump.select_by_visible_text(option.text)
    until(driver, lambda d: "round 4" in _by(d, "#where")[0].text, what="the jump to round 4")
    assert len(_by(driver, "#vp-svg polyline")) == 4
    driver.save_screenshot(str(shots / "replay.png"))
    _by(driver, "#last")[0].click()
    until(driver, lambda d: step(d) == len(g.history), what="the last step")
    assert "end of the game" in _by(driver, "#decision")[0].text
    final = json.loads(g.to_json())["state"]["final_vp"]
    assert all(f"{vp}" in _by(driver, "#sources-svg")[0].text for vp in final)


def test_a_wrong_secret_sees_the_table_as_a_spectator(driver, url):
    import urllib.request

    body = json.dumps({"seats": ["person", "person", "random", "random"], "seed": 2}).encode()
    request = urllib.request.Request(url + "/api/games", body,
                                     {"content-type": "application/json"})
    game = json.load(urllib.request.urlopen(request))
    driver.get(f"{url}/play/{game['id']}?seat=1#key=guess")
    until(driver, lambda d: "wrong or missing secret" in _by(d, "#error")[0].text,
           what="the refusal")
    until(driver, lambda d: _by(d, "#board-svg"), what="the spectator's board")
    assert "watching" in _by(driver, "#who")[0].text
    assert not _by(driver, "button.answer") and not _by(driver, ".hand")
    count = "return performance.getEntriesByType('resource').filter(" \
            "e => e.name.includes('/seats/')).length"
    before = driver.execute_script(count)
    time.sleep(1.5)
    assert driver.execute_script(count) == before  # no more polling with a wrong key


def _post(url: str, body: dict) -> dict:
    import urllib.request

    request = urllib.request.Request(url, json.dumps(body).encode(),
                                     {"content-type": "application/json"})
    return json.load(urllib.request.urlopen(request))


def test_a_phone_400_px_wide_plays_a_seat(driver, url, shots):
    """At 400 px the page fits the screen (no sideways scrolling of the page), the
    question and its answers come first and are clicked, the title says "your turn"."""
    game = _post(url + "/api/games", {"seats": ["person", "heuristic", "heuristic",
                                                "heuristic"], "seed": 3})
    driver.set_window_size(400, 900)
    try:
        driver.get(url + game["seats"][0]["url"])
        assert driver.execute_script(
            "return document.querySelector('meta[name=viewport]').content").startswith(
            "width=device-width")
        for _ in range(3):
            buttons = until(driver, lambda d: [b for b in _by(d, "button.answer")
                                                if b.is_enabled()], what="a question")
            assert "Your turn" in driver.title and _by(driver, "#turn-mark")[0].is_displayed()
            width = driver.execute_script("return window.innerWidth")
            assert driver.execute_script(
                "return document.documentElement.scrollWidth") <= width
            rect = driver.execute_script(
                "return arguments[0].getBoundingClientRect().toJSON()", buttons[0])
            assert 0 <= rect["left"] and rect["right"] <= width and rect["top"] < 900
            driver.save_screenshot(str(shots / "play-400.png"))
            buttons[0].click()
            until(driver, lambda d, buttons=buttons: _taken(buttons[0]), what="the answer taken")
        assert _by(driver, "#board-svg .leader-space") and _by(driver, ".market-card")
        assert "played by heuristic" in _by(driver, "#players")[0].text
    finally:
        driver.set_window_size(1400, 1000)


def test_a_page_stops_polling_a_game_that_is_not_there(driver, url):
    driver.get(url + "/play/0123456789ab")
    until(driver, lambda d: "no game" in _by(d, "#error")[0].text, what="the refusal")
    count = "return performance.getEntriesByType('resource').filter(" \
            "e => e.name.includes('/api/')).length"
    before = driver.execute_script(count)
    time.sleep(1.5)
    assert driver.execute_script(count) == before


def test_the_creator_changes_the_pace_while_watching(driver, url):
    game = _post(url + "/api/games", {"seats": ["random"] * 4, "delay": 5})
    driver.get(url + game["manage"])
    box = until(driver, lambda d: [b for b in _by(d, "#pace") if b.is_displayed()],
                 what="the pace control")[0]
    box.clear()
    box.send_keys("0")
    _by(driver, "#set-pace")[0].click()
    until(driver, lambda d: d.execute_script(
        "return fetch('/api/games/%s').then(r => r.json()).then(v => v.delay)" % game["id"])
        == 0, what="the pace set")
    _by(driver, "#stop")[0].click()
    until(driver, lambda d: "stopped" in _by(d, "#question")[0].text, what="the stop")
