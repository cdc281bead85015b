#!/usr/bin/env python3
"""Figures for issue notes: cold start of `farsight mcp` (stdio) to the tools/list
answer, idle memory, and web_fetch time on a local page. Speaks raw JSON-RPC over
stdio so that nothing but farsight is measured.

    cargo build --release -p farsight
    python3 scripts/measure.py --binary target/release/farsight --runs 10
"""

from __future__ import annotations

import argparse
import http.server
import json
import os
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

PARAS = "".join(
    f"<p>Paragraph {i} of a local test article, with enough words to look like real prose "
    f"about lighthouses and the <a href='/p{i}'>keepers</a> who ran them.</p>"
    for i in range(80)
)
PAGE = (
    "<html><head><title>Measure</title><meta name='description' content='d'></head>"
    f"<body><nav><a href='/'>Home</a></nav><article><h1>Measure</h1>{PARAS}</article></body></html>"
).encode()


class Pages(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802
        self.send_response(200)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.send_header("content-length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args) -> None:
        pass


class Stdio:
    def __init__(self, binary: str, env: dict[str, str]) -> None:
        self.p = subprocess.Popen([binary, "mcp"], env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.next_id = 0

    def send(self, method: str, params: dict | None = None, notify: bool = False) -> dict | None:
        msg: dict = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        if not notify:
            self.next_id += 1
            msg["id"] = self.next_id
        assert self.p.stdin and self.p.stdout
        self.p.stdin.write(json.dumps(msg) + "\n")
        self.p.stdin.flush()
        if notify:
            return None
        while True:
            reply = json.loads(self.p.stdout.readline())
            if reply.get("id") == self.next_id:
                return reply

    def handshake(self) -> None:
        self.send("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                 "clientInfo": {"name": "measure", "version": "1"}})
        self.send("notifications/initialized", notify=True)

    def rss_kib(self) -> int:
        for line in Path(f"/proc/{self.p.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return -1

    def close(self) -> None:
        assert self.p.stdin
        self.p.stdin.close()
        self.p.wait(timeout=10)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="target/release/farsight")
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    binary = str(Path(args.binary).resolve())

    pages = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Pages)
    threading.Thread(target=pages.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{pages.server_address[1]}"

    with tempfile.TemporaryDirectory() as tmp:
        cfg = Path(tmp) / "farsight.toml"
        cfg.write_text(f'[fetch]\nallow_hosts = ["127.0.0.1"]\n[cache]\ndir = "{Path(tmp) / "cache"}"\n')
        env = {k: v for k, v in os.environ.items() if not k.startswith(("FARSIGHT_", "WEB_", "RUST_LOG"))}
        env["FARSIGHT_CONFIG"] = str(cfg)

        starts = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            s = Stdio(binary, env)
            s.handshake()
            reply = s.send("tools/list", {})
            starts.append((time.perf_counter() - t0) * 1000)
            assert reply and reply["result"]["tools"], reply
            s.close()

        s = Stdio(binary, env)
        s.handshake()
        s.send("tools/list", {})
        time.sleep(1.0)
        idle = s.rss_kib()
        fresh, cached = [], []
        for i in range(args.runs):
            url = f"{base}/article?n={i}"
            t0 = time.perf_counter()
            r = s.send("tools/call", {"name": "web_fetch", "arguments": {"url": url}})
            fresh.append((time.perf_counter() - t0) * 1000)
            assert r and not r["result"].get("isError"), r
            t0 = time.perf_counter()
            s.send("tools/call", {"name": "web_fetch", "arguments": {"url": url, "startIndex": 5000}})
            cached.append((time.perf_counter() - t0) * 1000)
        busy = s.rss_kib()
        s.close()
    pages.shutdown()

    print(f"cold start to tools/list (median of {args.runs} processes): {statistics.median(starts):.1f} ms "
          f"(min {min(starts):.1f}, max {max(starts):.1f})")
    print(f"idle memory after handshake (VmRSS): {idle / 1024:.1f} MiB; after {2 * args.runs} fetches: {busy / 1024:.1f} MiB")
    print(f"web_fetch of a {len(PAGE) // 1024} KiB local page, downloaded (median of {args.runs}): {statistics.median(fresh):.1f} ms")
    print(f"web_fetch reading on from the cache (median of {args.runs}): {statistics.median(cached):.1f} ms")


if __name__ == "__main__":
    main()
