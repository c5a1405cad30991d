"""Many players on one ``rulesbook serve``: page and answer latency, with one slow session among them.

Starts ``rulesbook serve`` (or uses ``--url``), then runs ``--sessions`` simulated players at once.
Each player does what a browser does, over the same protocol: ``GET /calc/<id>`` (the server builds
the session's document), opens the page's Bokeh websocket, pulls the document, then changes one
input ``--changes`` times, each time waiting for the new answer to arrive in the result pane.
The players use a mix of the simple calculators and the 40k attack form; with ``--slow`` one more
player keeps the 40k attack form busy with the slowest input the cost budget accepts.

Measured per player (all from the client's side of the socket):

* **page**: the ``GET`` of the page (the server builds the session's document in it);
* **ready**: page plus websocket, document pulled and the first answer on it;
* **answer**: from sending a changed input to receiving the new answer; **answer (all open)**:
  only the changes sent after every page was open (the burst of openings is over).

It prints p50/p95/max of each (simple players and the 40k form apart), the slow player's answer
times, and the server's memory (the server process and its worker processes, peak RSS sampled
every 0.2 s). ``--json FILE`` writes the figures.

Run (from the project root; figures in bench/README.md)::

    .venv/bin/python bench/server_load.py                 # 50 players, one slow session
    .venv/bin/python bench/server_load.py --no-slow       # the same without the slow session
    .venv/bin/python bench/server_load.py --url http://127.0.0.1:8765   # a server already running
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bokeh.protocol import Protocol
from bokeh.protocol.receiver import Receiver
from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import WebSocketClientConnection, websocket_connect

ROOT = Path(__file__).resolve().parents[1]

# (calculator, input key, values the player cycles through): each change gives a different answer
SIMPLE = [
    ("scrollhammer.morale-check", "ld", [5, 6, 7, 8, 9, 10, 4, 3, 2, 11]),
    ("scrollhammer.break-test", "ld", [5, 6, 7, 8, 9, 10, 4, 3, 2, 11]),
    ("wh40k.battle-shock", "leadership", [5, 6, 7, 8, 9, 10, 4, 3, 2, 11]),
    ("scrollhammer.leadership-test", "ld", [5, 6, 7, 8, 9, 10, 4, 3, 2, 11]),
]
ATTACK = ("wh40k.attack", "models", [5, 10, 15, 20, 8, 12, 6, 18, 3, 16])
SLOW_CALC = "wh40k.attack-and-battle-shock"
SLOW_QUERY = "leader_models=1&wounds=2&models=10"
SLOW_KEY = "weapons"
SLOW_VALUES = [f"A={a} BS=3 S=4 D=1 sustained-hits-2,devastating-wounds" for a in (50, 49, 48, 47, 46, 45)]
"""The slowest inputs the calculators accept that we found: a unit of ten two-wound models with an
attached Leader hit by 45-50 attacks with Sustained Hits 2 and Devastating Wounds (1.5-2.5 s of
exact arithmetic each on the loaded 2-core machine; 55 attacks are refused)."""


@dataclass
class Player:
    name: str
    calc: str
    kind: str
    page_s: float = 0.0
    ready_s: float = 0.0
    answers_s: list[float] = field(default_factory=list)
    answers_at: list[float] = field(default_factory=list)  # when each change was sent
    errors: list[str] = field(default_factory=list)


class Session:
    """One browser-like session: the page, its websocket and the Bokeh protocol on it."""

    def __init__(self, base: str, path: str) -> None:
        self.base, self.path = base, path
        self.receiver = Receiver(Protocol())
        self.models: dict[str, dict[str, Any]] = {}
        self.ws: WebSocketClientConnection | None = None
        self.changed: asyncio.Queue[tuple[str, str, Any]] = asyncio.Queue()
        self.result_id = ""
        self.result_text = ""
        self._msg = 0

    async def open(self, http: AsyncHTTPClient) -> float:
        start = time.perf_counter()
        page = await http.fetch(f"{self.base}/{self.path}", request_timeout=600)
        page_s = time.perf_counter() - start
        token = re.search(r'"token":"([^"]+)"', page.body.decode())
        if token is None:
            raise RuntimeError(f"no session token in {self.path}")
        ws_url = self.base.replace("http", "ws", 1) + f"/{self.path.split('?')[0]}/ws"
        request = HTTPRequest(ws_url, headers={"Origin": self.base}, request_timeout=600)
        self.ws = await websocket_connect(
            request, subprotocols=["bokeh", token.group(1)], max_message_size=2**30
        )
        self.ws.protocol.set_nodelay(True)  # as a browser does (Chrome sets TCP_NODELAY)
        await self._expect("ACK")
        await self._send("PULL-DOC-REQ", {})
        doc = await self._expect("PULL-DOC-REPLY")
        self._index(doc.content["doc"])
        asyncio.get_running_loop().create_task(self._read())
        return page_s

    def _index(self, node: Any) -> None:
        if isinstance(node, dict):
            if "id" in node and "attributes" in node:
                self.models[node["id"]] = node
                attributes = node["attributes"]
                if str(node.get("name", "")).startswith("LiveResult"):  # widgets/forms/live.py's data
                    self.result_id = node["id"]  # (a value left at its default is not sent)
                    self.result_text = _answer_html(attributes.get("answer"))
            for value in node.values():
                self._index(value)
        elif isinstance(node, list):
            for value in node:
                self._index(value)

    def value_of(self, css: str) -> Any:
        return self.models[self.model_with_class(css)]["attributes"].get("value")

    def model_with_class(self, css: str) -> str:
        for mid, node in self.models.items():
            if css in node["attributes"].get("css_classes", []) and "value" in node["attributes"]:
                return mid
        raise KeyError(css)

    async def _send(self, msgtype: str, content: dict[str, Any]) -> None:
        assert self.ws is not None
        self._msg += 1
        await self.ws.write_message(json.dumps({"msgid": str(self._msg), "msgtype": msgtype}))
        await self.ws.write_message("{}")
        await self.ws.write_message(json.dumps(content))

    async def _next(self) -> Any:
        assert self.ws is not None
        while True:
            fragment = await self.ws.read_message()
            if fragment is None:
                raise ConnectionError("the server closed the websocket")
            message = await self.receiver.consume(fragment)
            if message is not None:
                return message

    async def _expect(self, msgtype: str) -> Any:
        while True:
            message = await self._next()
            if message.msgtype == msgtype:
                return message

    async def _read(self) -> None:
        try:
            while True:
                message = await self._next()
                if message.msgtype != "PATCH-DOC":
                    continue
                for event in message.content.get("events", []):
                    if event.get("kind") == "ModelChanged":
                        self._index(event.get("new"))
                        model = event["model"]["id"]
                        if model == self.result_id and event["attr"] == "answer":
                            self.result_text = _answer_html(event["new"])
                        await self.changed.put((model, event["attr"], event.get("new")))
        except (ConnectionError, asyncio.CancelledError):
            return

    async def first_answer(self, timeout: float) -> None:
        deadline = time.perf_counter() + timeout
        while "data-key=" not in self.result_text:
            await asyncio.wait_for(self.changed.get(), max(0.01, deadline - time.perf_counter()))

    async def send_value(self, css: str, value: Any) -> None:
        """Send a new value of the input, as the browser sends what a player typed or picked."""
        model = self.model_with_class(css)
        await self._send(
            "PATCH-DOC",
            {"events": [{"kind": "ModelChanged", "model": {"id": model}, "attr": "value", "new": value}]},
        )

    async def change(self, css: str, value: Any, timeout: float) -> str:
        """Set the input, wait for the result pane's next text; returns it."""
        while not self.changed.empty():
            self.changed.get_nowait()
        await self.send_value(css, value)
        deadline = time.perf_counter() + timeout
        while True:
            mid, attr, new = await asyncio.wait_for(
                self.changed.get(), max(0.01, deadline - time.perf_counter())
            )
            if mid == self.result_id and attr == "answer":
                return _answer_html(new)

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()


async def run_player(
    player: Player,
    base: str,
    key: str,
    values: list[Any],
    http: AsyncHTTPClient,
    query: str = "",
    pause: float = 0.3,
) -> None:
    session = Session(base, f"calc/{player.calc}" + (f"?{query}" if query else ""))
    current: Any = None
    start = time.perf_counter()
    try:
        player.page_s = await session.open(http)
        await session.first_answer(120)
        player.ready_s = time.perf_counter() - start
        current = session.value_of(f"rb-input-{key}")
        for value in values:
            if value == current:
                continue  # no change, no new answer
            current = value
            await asyncio.sleep(pause)  # a player's pause between two changes
            t = time.perf_counter()
            player.answers_at.append(t)
            text = await session.change(f"rb-input-{key}", value, 120)
            player.answers_s.append(time.perf_counter() - t)
            if 'data-key="error"' in text:
                player.errors.append(re.sub(r"<[^>]+>", "", text.split('data-key="error"', 1)[1])[:200])
    except Exception as exc:  # recorded, so one broken session does not hide the others' figures
        player.errors.append(f"{type(exc).__name__}: {exc} (at {player.calc} {key}={current!r})")
    finally:
        session.close()


def _answer_html(answer: Any) -> str:
    """The HTML of a ``LiveResult.answer`` as sent (a tuple arrives as ``[number, html]``)."""
    return str(answer[1]) if isinstance(answer, list | tuple) and len(answer) == 2 else ""


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _descendants(root_pid: int) -> list[int]:
    """``root_pid`` and all its descendants (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [root_pid]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def _rss_mb(root_pid: int) -> float:
    """Resident memory of ``root_pid`` and all its descendants, MB (from /proc)."""
    total = 0
    for pid in _descendants(root_pid):
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) ``pid`` has used so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _server_cpu_s(root_pid: int) -> dict[int, float]:
    """CPU seconds of each server process (``rulesbook serve`` and the processes it forked to
    serve; not the compute workers)."""
    cpu = {}
    for pid in _descendants(root_pid):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"rulesbook.cli" in command and b"serve" in command:
            cpu[pid] = _cpu_s(pid)
    return cpu


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    workers: int | None,
    processes: int = 1,
    time_limit: float | None = None,
    *,
    host: str = "127.0.0.1",
    options: tuple[str, ...] = (),
    log: Path | None = None,
) -> tuple[subprocess.Popen[bytes], str]:
    """A ``rulesbook serve`` on a free port (``options``: more of its options; ``log``: where its
    output goes) and its base address, once it answers."""
    port = _free_port()
    site = Path(tempfile.mkdtemp(prefix="rulesbook-bench-site-"))
    (site / "index.html").write_text("<!doctype html><title>bench</title>")  # no site build needed
    cmd = [sys.executable, "-m", "rulesbook.cli", "serve", "--no-build", "--host", host, *options]
    cmd += ["--port", str(port), "--site-dir", str(site)]
    if workers:
        cmd += ["--workers", str(workers)]
    if processes > 1:
        cmd += ["--processes", str(processes)]
    if time_limit is not None:
        cmd += ["--time-limit", f"{time_limit:g}"]
    env = {**os.environ, "RULESBOOK_GAMES_DIR": tempfile.mkdtemp(prefix="rulesbook-bench-games-")}
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.DEVNULL if log is None else log.open("wb")
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{base}/calc/scrollhammer.morale-check", timeout=30) as resp:
                if resp.status == 200:
                    return proc, base
        except OSError:
            time.sleep(0.5)
    proc.kill()
    raise RuntimeError("the server did not start within 300 s")


async def main_async(args: argparse.Namespace, base: str, server_pid: int | None) -> dict[str, Any]:
    AsyncHTTPClient.configure(None, max_clients=args.sessions + 10)
    http = AsyncHTTPClient()
    peak = [0.0]

    async def sample_memory() -> None:
        while server_pid is not None:
            peak[0] = max(peak[0], _rss_mb(server_pid))
            await asyncio.sleep(0.2)

    sampler = asyncio.get_running_loop().create_task(sample_memory())
    idle_mb = _rss_mb(server_pid) if server_pid else float("nan")
    cpu_before = _server_cpu_s(server_pid) if server_pid else {}
    players: list[Player] = []
    tasks = []
    slow: Player | None = None
    if args.slow:
        slow = Player("slow", SLOW_CALC, "slow")
        tasks.append(run_player(slow, base, SLOW_KEY, SLOW_VALUES, http, SLOW_QUERY, pause=0.05))
        await asyncio.sleep(args.slow_head_start)  # the slow answer is computing when the others arrive
    for i in range(args.sessions):
        calc, key, values = ATTACK if i % args.attack_every == 0 else SIMPLE[i % len(SIMPLE)]
        player = Player(f"p{i}", calc, "40k form" if calc == ATTACK[0] else "simple")
        players.append(player)
        offset = i % len(values)
        changes = (values[offset:] + values[:offset])[: args.changes]
        tasks.append(run_player(player, base, key, changes, http, pause=args.pause))
    start = time.perf_counter()
    all_open = asyncio.get_running_loop().create_future()

    async def opened() -> None:  # when every player's page is ready: the burst of openings is over
        while not all(p.ready_s or p.errors for p in players):
            await asyncio.sleep(0.05)
        all_open.set_result(time.perf_counter())

    tasks.append(opened())
    await asyncio.gather(*tasks)
    steady_from = all_open.result()
    wall = time.perf_counter() - start
    sampler.cancel()
    cpu_after = _server_cpu_s(server_pid) if server_pid else {}
    per_process = [round(t - cpu_before.get(pid, 0.0), 2) for pid, t in sorted(cpu_after.items())]
    figures: dict[str, Any] = {
        "sessions": args.sessions,
        "changes_per_session": args.changes,
        "slow_session": bool(args.slow),
        "pause_s": args.pause,
        "wall_s": round(wall, 2),
        "cores": os.cpu_count(),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "server_rss_idle_mb": round(idle_mb, 1),
        "server_rss_peak_mb": round(peak[0], 1),
        "server_event_loop_cpu_s": round(sum(per_process), 2) if server_pid else float("nan"),
        "server_processes_cpu_s": per_process,
        "pages": len(players) + (slow is not None),
        "answers": sum(len(p.answers_s) for p in players) + (len(slow.answers_s) if slow else 0),
    }
    for kind in ("simple", "40k form"):
        group = [p for p in players if p.kind == kind]
        for what, values in (
            ("page", [p.page_s for p in group if p.page_s]),
            ("ready", [p.ready_s for p in group if p.ready_s]),
            ("answer", [a for p in group for a in p.answers_s]),
            (
                "answer (all open)",
                [
                    a
                    for p in group
                    for a, t in zip(p.answers_s, p.answers_at, strict=False)
                    if t > steady_from
                ],
            ),
        ):
            figures[f"{kind} {what} p50_ms"] = round(1000 * statistics.median(values), 1) if values else None
            figures[f"{kind} {what} p95_ms"] = round(1000 * _pct(values, 0.95), 1)
            figures[f"{kind} {what} max_ms"] = round(1000 * max(values), 1) if values else None
            figures[f"{kind} {what} n"] = len(values)
    if slow is not None:
        figures["slow answers_s"] = [round(a, 2) for a in slow.answers_s]
        figures["slow errors"] = slow.errors
    figures["errors"] = [f"{p.name} {p.calc}: {e}" for p in players for e in p.errors]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=50, help="simulated players (default 50)")
    parser.add_argument("--changes", type=int, default=10, help="input changes per player (default 10)")
    parser.add_argument(
        "--attack-every", type=int, default=5, help="every Nth player uses the 40k attack form"
    )
    parser.add_argument("--pause", type=float, default=1.0, help="a player's pause between changes, s")
    parser.add_argument("--no-slow", dest="slow", action="store_false", help="without the slow session")
    parser.add_argument(
        "--slow-head-start", type=float, default=1.0, help="seconds the slow session starts early"
    )
    parser.add_argument("--workers", type=int, default=None, help="serve --workers (default: the server's)")
    parser.add_argument("--processes", type=int, default=1, help="serve --processes (default 1)")
    parser.add_argument("--url", help="use this running server instead of starting one (no memory figures)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    proc = None
    if args.url:
        base, pid = args.url.rstrip("/"), None
    else:
        proc, base = start_server(args.workers, args.processes)
        pid = proc.pid
    try:
        figures = asyncio.run(main_async(args, base, pid))
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(30)
    for key, value in figures.items():
        print(f"{key:<28} {value}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
