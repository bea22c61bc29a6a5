"""Simulated people at many tables of `tricktaker serve`, and a bare broadcast server, in one run.

Each round starts the real server (``python -m tricktaker.cli serve
--workers 0 --bot-delay 0 --tables-per-minute 0`` on a fresh SQLite database) in a subprocess,
creates ``--tables`` Tuppi tables of four person seats over HTTP, and opens
one WebSocket per seat from load-generator processes (``--procs``; separate
from the server).  Each simulated person, at its turn, waits a think time
(uniform in ``--think``), then sends a legal action with its ``seq``.  The
latency of an action runs from that send to the arrival of the ``state``
message with the new ``seq``: at the player who acted ("own") and at the last
of the table's four clients ("broadcast", the headline).  The first
``--warmup`` seconds are not measured; then actions sent during
``--duration`` seconds are.  Tables are long matches (``target=10000``), so
none ends during a run.

The reference, measured in the same round with the same clients, the same
number of connections and the same pace: a bare broadcast server, a raw ASGI
app served by the same uvicorn with the same settings as ``tricktaker
serve`` (this file, ``--echo-server``).  Each "table" is four connections;
an ``act`` message of the seat whose turn it is (``seq % 4``) is answered by
one ``state`` message with the next ``seq``, sent to the four.  Its
observation is a real one of random Tuppi play, kept as text and pasted in,
so the messages have tricktaker's sizes and compress as theirs do (both
servers take the permessage-deflate that clients offer, as browsers do).  So
the ratio measures tricktaker's own work per action (checking it with the
engine, storing it, building and encoding four observations), not the
network stack's.

Tables held: tables whose four connections are all open at the end, each of
whose measured actions was broadcast (within ``--grace`` seconds), and that
acted during the measurement.  Server CPU is read from ``/proc`` of the
server process (all its threads) over the measured window; generator CPU is
each generator process's own, which must stay well below a core for the
numbers to be the server's.  CPU pressure is the share of the window in
which some task of the machine waited for a CPU (``/proc/pressure/cpu``):
other work on the machine shows there, and in the reference's p99.  With
``--rounds`` above 1 the two servers alternate and the medians are printed.
The target: 250 tables held with a broadcast p99 within 3 times the
reference's.

Run:  python bench/server.py [--tables 250] [--duration 30] [--think 0.5,1.5] [--rounds 3] [--json FILE]
      python bench/server.py --quick      (20 tables, 5 s, 1 round)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

GAME, OPTIONS = "tuppi", {"target": 10000}
"""Long matches: no table ends during a run."""
SEATS = 4
TARGET_TABLES, TARGET_RATIO = 250, 3.0
WS_MAX_SIZE = 4 * 4096
"""As ``tricktaker serve`` gives uvicorn (4 * MAX_MESSAGE)."""


# -- the reference server ----------------------------------------------------------------

def sample_observations(count: int = 2000) -> list[str]:
    """Real ``observation`` texts of random Tuppi play, every seat's after every action, in play order:
    the reference sends these, so its messages have tricktaker's sizes and compress as they do."""
    import tricktaker as tt

    rng = random.Random(1)
    state = tt.new_game(GAME, target=OPTIONS["target"]).new_match(seed=1)
    texts: list[str] = []
    while len(texts) < count:
        texts += [json.dumps(state.observation(seat), separators=(",", ":")) for seat in range(SEATS)]
        state.apply(rng.choice(state.legal_actions()))
    return texts


def echo_app_factory() -> Any:
    """A raw ASGI app: groups of connections by path; an act is broadcast to the group as a state."""
    groups: dict[str, list[Any]] = {}
    samples = sample_observations()

    def state(seq: int, event: str) -> str:
        observation = samples[seq * SEATS % len(samples)]
        return (f'{{"type":"state","seq":{seq},"observation":{observation},'
                f'"legal":[],"event":{event},"over":false}}')

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["type"] != "websocket":
            await send({"type": "http.response.start", "status": 404, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        members = groups.setdefault(scope["path"], [])
        members.append(send)
        try:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    break
                request = json.loads(message["text"])
                if request["type"] == "join":
                    await send({"type": "websocket.send", "text": state(0, "null")})
                elif request["type"] == "act":
                    text = state(request["seq"] + 1, json.dumps({"seat": request["seq"] % SEATS,
                                                                 "action": request["action"]}))
                    for member in list(members):
                        try:
                            await member({"type": "websocket.send", "text": text})
                        except Exception:
                            members.remove(member)
        finally:
            if send in members:
                members.remove(send)

    return app


def serve_echo(port: int) -> None:
    import uvicorn

    uvicorn.run(echo_app_factory(), host="127.0.0.1", port=port, ws_max_size=WS_MAX_SIZE, log_level="info")


# -- servers in subprocesses --------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``tricktaker serve`` (kind ``tricktaker``) or the reference (``echo``) in a subprocess."""

    def __init__(self, kind: str, workdir: Path) -> None:
        self.kind = kind
        self.port = free_port()
        self.log = open(workdir / f"{kind}.log", "ab")  # noqa: SIM115
        if kind == "tricktaker":
            db = workdir / f"bench-{self.port}.db"
            command = [sys.executable, "-m", "tricktaker.cli", "serve", "--port", str(self.port),
                       "--db", str(db), "--workers", "0", "--bot-delay", "0", "--tables-per-minute", "0"]
        else:
            command = [sys.executable, os.path.abspath(__file__), "--echo-server", str(self.port)]
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the {kind} server exited; see {self.log.name}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the {kind} server did not start") from None
                time.sleep(0.1)

    def cpu_seconds(self) -> float:
        """User and system time of the server process, all threads."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def create_tables(port: int, count: int) -> list[tuple[str, list[str]]]:
    import httpx

    tables = []
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
        for _ in range(count):
            response = http.post("/api/tables", json={"game": GAME, "options": OPTIONS,
                                                      "seats": [{"kind": "human"}] * SEATS})
            response.raise_for_status()
            body = response.json()
            tables.append((body["id"], [seat["token"] for seat in body["seats"]]))
    return tables


# -- the load generator (runs in its own processes) ----------------------------------------

class TableRun:
    """One table's clients as seen by the generator: sent actions waiting for their broadcast."""

    def __init__(self) -> None:
        self.sent: dict[int, list[Any]] = {}
        """seq after the action -> [send time, actor, arrivals so far, measured?]"""
        self.open = [False] * SEATS
        self.measured = 0
        self.lost = 0
        self.over = False


class Generator:
    def __init__(self, spec: dict[str, Any]) -> None:
        self.mode = spec["mode"]
        self.port = spec["port"]
        self.tables = spec["tables"]
        self.think = spec["think"]
        self.rng = random.Random(spec["seed"])
        self.runs = [TableRun() for _ in self.tables]
        self.own: list[float] = []
        self.broadcast: list[float] = []
        self.errors: Counter[str] = Counter()
        self.state_bytes = self.state_count = 0
        self.window = (float("inf"), float("inf"))
        self.stop_at = float("inf")
        self.go = asyncio.Event()
        self.sockets: list[Any] = []

    async def connect(self, index: int, seat: int) -> None:
        from websockets.asyncio.client import connect

        table_id, tokens = self.tables[index]
        url = f"ws://127.0.0.1:{self.port}/ws/{table_id}"
        for attempt in range(5):
            try:
                ws = await connect(url, max_size=None, open_timeout=60)
                break
            except OSError:
                if attempt == 4:
                    raise
                await asyncio.sleep(0.5)
        join: dict[str, Any] = {"type": "join", "seat": seat}
        if self.mode == "tricktaker":
            join = {"type": "join", "token": tokens[seat]}
        await ws.send(json.dumps(join))
        first = json.loads(await ws.recv())
        while first["type"] != "state":
            first = json.loads(await ws.recv())
        self.sockets.append(ws)
        self.runs[index].open[seat] = True
        asyncio.get_running_loop().create_task(self.read(ws, index, seat, first))

    async def read(self, ws: Any, index: int, seat: int, first: dict[str, Any]) -> None:
        run = self.runs[index]
        self.on_state(ws, run, seat, first, time.monotonic(), 0)
        try:
            async for raw in ws:
                now = time.monotonic()
                message = json.loads(raw)
                kind = message["type"]
                if kind == "state":
                    self.on_state(ws, run, seat, message, now, len(raw))
                elif kind == "error":
                    self.errors[message["code"]] += 1
        except Exception as exc:  # a dropped connection is counted, not raised
            self.errors[f"closed: {type(exc).__name__}"] += 1
        finally:
            run.open[seat] = False

    def on_state(self, ws: Any, run: TableRun, seat: int, message: dict[str, Any], now: float,
                 size: int) -> None:
        seq = message["seq"]
        if size:
            self.state_bytes += size
            self.state_count += 1
        entry = run.sent.get(seq)
        if entry is not None:
            sent, actor, arrivals, measured = entry
            if measured and seat == actor:
                self.own.append(now - sent)
            entry[2] = arrivals = arrivals + 1
            if arrivals == SEATS:
                del run.sent[seq]
                if measured:
                    self.broadcast.append(now - sent)
                    run.measured += 1
        if self.mode == "tricktaker":
            run.over = run.over or message["over"]
            legal = message["legal"]
            mine = bool(legal) and not message["over"]
        else:
            legal, mine = None, seq % SEATS == seat
        if mine:
            asyncio.get_running_loop().create_task(self.act(ws, run, seat, seq, legal))

    async def act(self, ws: Any, run: TableRun, seat: int, seq: int, legal: list[str] | None) -> None:
        await self.go.wait()
        await asyncio.sleep(self.rng.uniform(*self.think))
        now = time.monotonic()
        if now >= self.stop_at:
            return
        action = self.rng.choice(legal) if legal is not None else "play AS"
        run.sent[seq + 1] = [now, seat, 0, self.window[0] <= now < self.window[1]]
        try:
            await ws.send(json.dumps({"type": "act", "action": action, "seq": seq}))
        except Exception:
            self.errors["send failed"] += 1

    async def main(self, pipe: Any) -> None:
        loop = asyncio.get_running_loop()
        limit = asyncio.Semaphore(64)

        async def one(index: int, seat: int) -> None:
            async with limit:
                await self.connect(index, seat)

        await asyncio.gather(*(one(i, s) for i in range(len(self.tables)) for s in range(SEATS)))
        pipe.send(("ready", len(self.sockets)))
        go, start, end, grace = await loop.run_in_executor(None, pipe.recv)
        await asyncio.sleep(max(0.0, go - time.monotonic()))
        self.window, self.stop_at = (start, end), end
        self.go.set()
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        cpu0 = time.process_time()
        await asyncio.sleep(max(0.0, end - time.monotonic()))
        cpu = (time.process_time() - cpu0) / (end - start)
        held = [all(run.open) for run in self.runs]  # connections open at the end
        deadline = end + grace
        def waiting() -> bool:
            return any(entry[3] for run in self.runs for entry in run.sent.values())

        while waiting() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        for i, run in enumerate(self.runs):
            run.lost = sum(1 for entry in run.sent.values() if entry[3])
            held[i] = held[i] and run.lost == 0 and (run.measured > 0 or run.over)
        for ws in self.sockets:
            await ws.close()
        pipe.send(("done", {
            "own": self.own, "broadcast": self.broadcast, "held": sum(held),
            "lost": sum(run.lost for run in self.runs), "errors": dict(self.errors), "cpu": cpu,
            "state_bytes": self.state_bytes, "state_count": self.state_count}))


def generator_process(spec: dict[str, Any], pipe: Any) -> None:
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(Generator(spec).main(pipe))


# -- one measured round ----------------------------------------------------------------------

def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def cpu_pressure() -> float | None:
    """Seconds some task of the machine waited for a CPU (Linux PSI), or None."""
    try:
        some = Path("/proc/pressure/cpu").read_text().split("\n")[0]
    except OSError:
        return None
    return int(some.rsplit("total=", 1)[1]) / 1e6


def run_phase(kind: str, args: argparse.Namespace, workdir: Path, seed: int) -> dict[str, Any]:
    """One server, ``args.tables`` tables, warm-up then the measured window; the numbers."""
    server = ServerProcess(kind, workdir)
    processes = []
    try:
        if kind == "tricktaker":
            tables = create_tables(server.port, args.tables)
        else:
            tables = [(f"g{i}", [""] * SEATS) for i in range(args.tables)]
        context = multiprocessing.get_context("spawn")
        pipes = []
        for p in range(args.procs):
            spec = {"mode": kind, "port": server.port, "tables": tables[p::args.procs],
                    "think": args.think, "seed": seed * 100 + p}
            ours, theirs = context.Pipe()
            process = context.Process(target=generator_process, args=(spec, theirs), daemon=True)
            process.start()
            processes.append(process)
            pipes.append(ours)
        connected = 0
        for pipe in pipes:
            if not pipe.poll(300):
                raise RuntimeError("a generator did not connect its clients")
            connected += pipe.recv()[1]
        go = time.monotonic() + 0.5
        start = go + args.warmup
        end = start + args.duration
        for pipe in pipes:
            pipe.send((go, start, end, args.grace))
        time.sleep(max(0.0, start - time.monotonic()))
        cpu0, pressure0 = server.cpu_seconds(), cpu_pressure()
        time.sleep(max(0.0, end - time.monotonic()))
        server_cpu = (server.cpu_seconds() - cpu0) / (end - start)
        pressure1 = cpu_pressure()
        pressure = None if pressure0 is None or pressure1 is None else (pressure1 - pressure0) / (end - start)
        results = []
        for pipe in pipes:
            if not pipe.poll(args.grace + 60):
                raise RuntimeError("a generator did not report")
            results.append(pipe.recv()[1])
    finally:
        for process in processes:
            process.join(30)
            if process.is_alive():
                process.kill()
        server.stop()
    own = [x for r in results for x in r["own"]]
    broadcast = [x for r in results for x in r["broadcast"]]
    errors: Counter[str] = Counter()
    for r in results:
        errors.update(r["errors"])
    count = sum(r["state_count"] for r in results)
    return {
        "server": kind, "tables": args.tables, "connections": connected,
        "held": sum(r["held"] for r in results), "actions": len(broadcast),
        "actions_per_s": len(broadcast) / args.duration, "lost": sum(r["lost"] for r in results),
        "errors": dict(errors), "server_cpu": server_cpu * 100,
        "cpu_pressure": None if pressure is None else pressure * 100,
        "generator_cpu": [r["cpu"] * 100 for r in results],
        "mean_state_bytes": sum(r["state_bytes"] for r in results) / count if count else 0,
        "own_p50_ms": percentile(own, 0.5) * 1000, "own_p99_ms": percentile(own, 0.99) * 1000,
        "p50_ms": percentile(broadcast, 0.5) * 1000, "p99_ms": percentile(broadcast, 0.99) * 1000,
    }


def show(phase: dict[str, Any]) -> str:
    cpu = "+".join(f"{c:.0f}" for c in phase["generator_cpu"])
    text = (f"held {phase['held']}/{phase['tables']}  "
            f"actions {phase['actions']} ({phase['actions_per_s']:.0f}/s)  "
            f"p50 {phase['p50_ms']:.2f} ms  p99 {phase['p99_ms']:.2f} ms  "
            f"(own p50 {phase['own_p50_ms']:.2f}, p99 {phase['own_p99_ms']:.2f})  "
            f"server CPU {phase['server_cpu']:.0f}%  generator CPU {cpu}%")
    if phase["cpu_pressure"] is not None:
        text += f"  CPU pressure {phase['cpu_pressure']:.0f}%"
    if phase["lost"] or phase["errors"]:
        text += f"  lost {phase['lost']} errors {phase['errors']}"
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=250, help="tables of four people (default 250)")
    parser.add_argument("--duration", type=float, default=30, help="measured seconds per round (default 30)")
    parser.add_argument("--warmup", type=float, default=5, help="seconds played before measuring (default 5)")
    parser.add_argument("--think", default="0.5,1.5",
                        help="think time range in seconds, MIN,MAX (default 0.5,1.5)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds of both servers; medians printed (default 1)")
    parser.add_argument("--procs", type=int, default=1, help="load-generator processes (default 1)")
    parser.add_argument("--grace", type=float, default=5,
                        help="seconds a measured action may wait for its broadcast (default 5)")
    parser.add_argument("--quick", action="store_true", help="20 tables, 5 s, 2 s warm-up, 1 round")
    parser.add_argument("--json", metavar="FILE", help="write every round's numbers to FILE")
    parser.add_argument("--echo-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.echo_server:
        serve_echo(args.echo_server)
        return
    if args.quick:
        args.tables, args.duration, args.warmup, args.rounds = 20, 5.0, 2.0, 1
    low, high = (float(x) for x in args.think.split(","))
    args.think = (low, high)
    print(f"{args.tables} tables of {GAME}, {SEATS} people each ({args.tables * SEATS} WebSockets), "
          f"think {low:g}-{high:g} s, {args.warmup:g} s warm-up, {args.duration:g} s measured, "
          f"{args.procs} generator process(es), {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    rounds: list[dict[str, dict[str, Any]]] = []
    with tempfile.TemporaryDirectory(prefix="tricktaker-bench-") as tmp:
        for r in range(args.rounds):
            ours = run_phase("tricktaker", args, Path(tmp), r)
            print(f"round {r + 1}  tricktaker  {show(ours)}", flush=True)
            echo = run_phase("echo", args, Path(tmp), r)
            print(f"round {r + 1}  reference   {show(echo)}  "
                  f"(state messages of {echo['mean_state_bytes']:.0f} "
                  f"bytes, as tricktaker's {ours['mean_state_bytes']:.0f})", flush=True)
            rounds.append({"tricktaker": ours, "echo": echo})

    def med(kind: str, key: str) -> float:
        return float(statistics.median(r[kind][key] for r in rounds))

    print(f"\n{'median of ' + str(len(rounds)) + ' round(s)':28}{'tricktaker':>14}{'bare broadcast':>16}")
    rows = [("tables held", "held", "{:.0f}"), ("actions measured", "actions", "{:.0f}"),
            ("actions/s", "actions_per_s", "{:.0f}"), ("server CPU %", "server_cpu", "{:.0f}"),
            ("p50 broadcast (ms)", "p50_ms", "{:.2f}"), ("p99 broadcast (ms)", "p99_ms", "{:.2f}"),
            ("p50 own (ms)", "own_p50_ms", "{:.2f}"), ("p99 own (ms)", "own_p99_ms", "{:.2f}")]
    for label, key, fmt in rows:
        print(f"{label:28}{fmt.format(med('tricktaker', key)):>14}{fmt.format(med('echo', key)):>16}")
    gen = statistics.median(max(r[k]["generator_cpu"]) for r in rounds for k in r)
    print(f"{'generator CPU % (busiest)':28}{gen:>14.0f}")
    ratio = statistics.median(r["tricktaker"]["p99_ms"] / r["echo"]["p99_ms"] for r in rounds)
    held = med("tricktaker", "held")
    met = held >= min(args.tables, TARGET_TABLES) and args.tables >= TARGET_TABLES and ratio <= TARGET_RATIO
    print(f"\np99 ratio (tricktaker / bare broadcast)  {ratio:.2f}   "
          f"target: {TARGET_TABLES} tables held, ratio within {TARGET_RATIO:g}: "
          + ("met" if met else "not met" if args.tables >= TARGET_TABLES else "not measured (fewer tables)"))
    if args.json:
        Path(args.json).write_text(json.dumps({"args": {k: v for k, v in vars(args).items() if k != "json"},
                                               "rounds": rounds, "p99_ratio": ratio}, indent=2))


if __name__ == "__main__":
    main()
