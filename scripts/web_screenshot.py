"""The screenshots docs/img/web-play.png (1400 px wide) and docs/img/web-play-400.png
(400 px, a phone): a seat's page a few rounds into a game, at a question (agents answer
for the person through the API until then).

    .venv/bin/python scripts/web_screenshot.py [docs/img/web-play.png] [docs/img/web-play-400.png]
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
import urllib.request

from singapore_app.web.browser import headless_chromium
from singapore_app.web.server import BackgroundServer


def _call(url: str, method: str = "GET", body=None, key: str | None = None) -> dict:
    headers = {"content-type": "application/json"} | ({"x-seat-key": key} if key else {})
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(url, data, headers,
                                                       method=method)) as r:
        return json.load(r)


def main(out: str = "docs/img/web-play.png", narrow: str = "docs/img/web-play-400.png") -> None:
    rng = random.Random(7)
    with BackgroundServer(tempfile.mkdtemp()) as base, headless_chromium() as driver:
        game = _call(base + "/api/games", "POST",
                     {"seats": ["heuristic", "heuristic", "person", "heuristic"], "seed": 11})
        key, seat = game["seats"][2]["key"], f"{base}/api/games/{game['id']}/seats/2"
        while True:
            view = _call(seat, key=key)
            if view["board"]["round"] >= 3 and view["question"] and \
                    view["question"]["kind"] == "influence" and view["board"]["influence"]:
                break
            if view["question"]:
                answers = view["question"]["answers"]
                _call(seat + "/answer", "POST", {"index": rng.randrange(len(answers)),
                                                  "expect": view["decisions"]}, key)
            else:
                time.sleep(0.05)
        driver.get(base + game["seats"][2]["url"])
        time.sleep(2)
        driver.save_screenshot(out)
        driver.set_window_size(400, 900)
        time.sleep(1)
        driver.save_screenshot(narrow)
    print(f"written {out} and {narrow}")


if __name__ == "__main__":
    main(*sys.argv[1:])
