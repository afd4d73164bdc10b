"""The web app (``singapore-1819 serve``): play a seat from a browser, watch agents,
replay saved games, and a JSON API for scripts and remote bots (docs/web.md).

Modules: :mod:`.app` (the Starlette app), :mod:`.api` (the JSON endpoints),
:mod:`.inputs` (request checks), :mod:`.table` (one game and its seats),
:mod:`.store` (the server's tables and their files), :mod:`.driver` (agents on a thread
pool), :mod:`.views` (what one seat may see), :mod:`.replay` (a game step by step),
:mod:`.questions` (the pending question in words), :mod:`.server` (uvicorn).
Needs the ``web`` extra (starlette, uvicorn).
"""
