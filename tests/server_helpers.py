"""A real server on a free loopback port, for the HTTP, WebSocket and browser tests.

The server runs in a thread of the test process (uvicorn on its own event
loop), so tests talk to it exactly as browsers do: over TCP.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from tricktaker.server import create_app
from tricktaker.server.app import MAX_MESSAGE


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Running:
    """A server in a thread: ``url``, ``http`` (an httpx client), ``app`` and ``stop()``."""

    def __init__(self, db: str, workers: int = 0, bot_delay: float = 0.0, rate: float = 1e6,
                 burst: int = 1_000_000, tables_per_minute: int = 0, bot_time: float = 3.0,
                 turn_time: float = 0.0, absent_time: float = 10.0, pace_gc: bool = False,
                 signups: bool = True) -> None:
        """Tests play far faster than people, so the flood limit is off unless asked for."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.app = create_app(db=db, workers=workers, bot_delay=bot_delay, rate=rate, burst=burst,
                              warm_up=False, tables_per_minute=tables_per_minute, bot_time=bot_time,
                              turn_time=turn_time, absent_time=absent_time, signups=signups,
                              **({"pace_gc": True} if pace_gc else {}))  # only asked: it acts on the process
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                ws_max_size=4 * MAX_MESSAGE, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        self.http = httpx.Client(base_url=self.url, timeout=30)
        self.sockets = contextlib.ExitStack()

    def stop(self) -> None:
        self.sockets.close()
        self.http.close()
        self.server.should_exit = True
        self.thread.join(30)

    def create(self, game: str = "tuppi", seats: list[str] | None = None, **extra: Any) -> dict[str, Any]:
        """Create a table; ``seats`` like ``["human", "random", ...]`` (a bot spec for a bot)."""
        seat_list = [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s}
                     for s in (seats or ["human", "random", "random", "random"])]
        response = self.http.post("/api/tables", json={"game": game, "seats": seat_list, **extra})
        assert response.status_code == 201, response.text
        body: dict[str, Any] = response.json()
        return body

    def ws(self, table_id: str) -> Socket:
        return Socket(self.sockets.enter_context(
            connect(f"ws://127.0.0.1:{self.port}/ws/{table_id}", max_size=None, max_queue=None)))


def start_server(port: int, db: str, workers: int = 0) -> subprocess.Popen[bytes]:
    """``tricktaker serve`` as a process of its own (to be killed), once it answers."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tricktaker.cli", "serve", "--port", str(port), "--db", db,
         "--workers", str(workers), "--bot-delay", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return process
        except httpx.HTTPError:
            if process.poll() is not None:
                break
            time.sleep(0.1)
    process.kill()
    process.wait(10)
    raise AssertionError("the server did not start")


@contextlib.contextmanager
def running(db: str, **options: Any) -> Iterator[Running]:
    server = Running(db, **options)
    try:
        yield server
    finally:
        server.stop()


class Socket:
    """A WebSocket client that keeps every frame it receives (for leak checks)."""

    def __init__(self, conn: ClientConnection) -> None:
        self.conn = conn
        self.frames: list[str] = []

    def send(self, message: Any) -> None:
        self.conn.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    def recv(self, timeout: float = 20) -> dict[str, Any]:
        text = self.conn.recv(timeout=timeout)
        assert isinstance(text, str)
        self.frames.append(text)
        message: dict[str, Any] = json.loads(text)
        return message

    def until(self, kind: str, timeout: float = 20, **match: Any) -> dict[str, Any]:
        """The next message of type ``kind`` (whose fields equal ``match``)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
                return message

    def join(self, token: str | None = None) -> dict[str, Any]:
        self.send({"type": "join", "token": token} if token else {"type": "join"})
        return self.until("welcome")

    def close(self) -> None:
        self.conn.close()


def play_to_end(ws: Socket, choose: Any = lambda legal: legal[0], limit: int = 200_000,
                first: dict[str, Any] | None = None) -> dict[str, Any]:
    """Answer every turn of the socket's seat until the match is over; return the last state.

    ``first`` is a state message already read from the socket (else the next one is read)."""
    for _ in range(limit):
        message, first = first or ws.until("state"), None
        if message["over"]:
            return message
        if message["legal"]:
            ws.send({"type": "act", "action": choose(message["legal"]), "seq": message["seq"]})
    raise AssertionError("the match did not end")


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (Linux ``/proc``): a server's bot workers and helpers."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie, dead but not yet reaped, is not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
