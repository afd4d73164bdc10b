"""Load on the web app: 50 concurrent games on one server (a separate process on
loopback), every seat answered at random through the JSON API for 60 s; prints the
response times (median, p95), the errors and any cross-talk between games.

    python benchmarks/bench_web.py [--games 50] [--seconds 60]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
import urllib.request

from singapore_app.web.load import run_load
from singapore_app.web.server import free_port


def _cpu_seconds(pid: int) -> float | None:
    """CPU seconds a process has used (Linux; None elsewhere)."""
    import os
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return round((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), 1)
    except (OSError, ValueError, IndexError):
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as games_dir:
        server = subprocess.Popen([sys.executable, "-m", "singapore_app", "serve", "--port",
                                   str(port), "--games-dir", games_dir, "--workers",
                                   str(args.workers)])
        try:
            url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(url + "/api/games", timeout=2)
                    break
                except OSError as exc:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start") from exc
                    time.sleep(0.2)
            client_cpu = time.process_time()
            result = asyncio.run(run_load(url, args.games, args.seconds))
            result["client_cpu_s"] = round(time.process_time() - client_cpu, 1)
            result["server_cpu_s"] = _cpu_seconds(server.pid)
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
