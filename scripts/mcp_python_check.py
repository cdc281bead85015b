#!/usr/bin/env python3
"""Drive farsight's MCP server with the official MCP Python SDK (`pip install mcp`),
over stdio and over Streamable HTTP, and fail on any mismatch with the contract:
both tools, success and every error path reachable locally, each answer (errors
included) validated by the SDK against the tool's output schema.

    python3 scripts/mcp_python_check.py --binary target/debug/farsight

A local page server on 127.0.0.1 stands in for the web; nothing reaches the internet.
"""

from __future__ import annotations

import argparse
import json
import asyncio
import http.server
import os
import re
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

PAGE = (
    "<html><head><title>Python check</title><meta name='description' content='A page'></head>"
    "<body><main><h1>Python check</h1><p>This page is served to farsight during the Python SDK "
    "conformance check. It has enough words to be taken as the main content.</p>"
    "<p>A second paragraph with <a href='/other'>a link</a> in it, for the links list.</p>"
    "</main></body></html>"
)
TOKEN = "python-check-token"
failures: list[str] = []


def check(cond: bool, what: str) -> None:
    print(("  ok   " if cond else "  FAIL ") + what)
    if not cond:
        failures.append(what)


# Brave's web search answer, in its documented wire format; farsight's brave provider is
# pointed at this server with base_url, so web_search runs for real without the internet.
BRAVE_ANSWER = json.dumps({
    "type": "search",
    "query": {"original": "python check"},
    "web": {"type": "search", "results": [
        {"title": "The <strong>Python</strong> check", "url": "https://example.org/check?utm_source=x",
         "description": "A page about the Python SDK &amp; farsight.", "age": "August 24, 2023"},
        {"title": "Second result", "url": "https://docs.example.net/second",
         "description": "Another result."},
    ]},
})


# What Brave answers to a subscription token it does not know; the fake answers it to the
# query "wrong key check", so one configuration reaches the authenticationFailed path.
BRAVE_WRONG_KEY = json.dumps({
    "type": "ErrorResponse",
    "error": {"id": "c1c2", "status": 401, "code": "SUBSCRIPTION_TOKEN_INVALID",
              "detail": "The provided subscription token is invalid."},
})
HTML = "text/html; charset=utf-8"
# path -> (status, content type, body): what each fetch case needs.
FIXED = {
    "/page": (200, HTML, PAGE.encode()),
    "/robots.txt": (200, "text/plain", b"User-agent: *\nDisallow: /private/\n"),
    "/private/page": (200, HTML, PAGE.encode()),
    "/app": (200, HTML, b"<html><head><title>App</title><script src='/app.js'></script></head>"
                        b"<body><div id='root'></div></body></html>"),
    "/image.png": (200, "image/png", b"\x89PNG\r\n\x1a\n fake image"),
    # Nothing readable before the download cap (max_bytes = 100000 below).
    "/huge": (200, HTML, b" " * 300_000),
}


class Pages(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (the stdlib's name)
        ctype = "text/plain"
        if self.path in FIXED:
            status, ctype, body = FIXED[self.path]
        elif self.path.startswith("/res/v1/web/search"):
            query = parse_qs(urlsplit(self.path).query).get("q", [""])[0]
            ok = self.headers.get("X-Subscription-Token") == "python-check-key" and query != "wrong key check"
            answer = BRAVE_ANSWER if ok else BRAVE_WRONG_KEY
            body, status, ctype = answer.encode(), (200 if ok else 401), "application/json"
        else:
            body, status = b"not found", 404
        self.send_response(status)
        self.send_header("content-type", ctype)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


async def exercise(session: ClientSession, base: str, label: str) -> None:
    print(f"[{label}]")
    init = await session.initialize()
    check(init.server_info.name == "farsight", "serverInfo.name is farsight")
    check(bool(init.instructions) and "web_fetch" in init.instructions, "instructions mention web_fetch")

    tools = (await session.list_tools()).tools
    names = [t.name for t in tools]
    check(names == ["web_search", "web_fetch"], f"tools listed in a fixed order: {names}")
    search = next(t for t in tools if t.name == "web_search")
    sprops = search.input_schema.get("properties", {})
    check(
        all(p in sprops for p in ["query", "maxResults", "site", "includeDomains", "excludeDomains", "dateRange", "safeSearch", "topic", "searchDepth", "provider"]),
        "input schema has every web_search parameter",
    )
    check(bool(search.output_schema) and "results" in search.output_schema.get("properties", {}), "web_search output schema present")

    found = await session.call_tool("web_search", {"query": "python check", "max_results": 2})
    fsc = found.structured_content or {}
    results = fsc.get("results", [])
    check(not found.is_error and fsc.get("searchEngine") == "brave", f"web_search answered by brave: {fsc.get('searchEngine')}")
    check(
        len(results) == 2 and results[0].get("title") == "The Python check"
        and results[0].get("url", "").startswith("https://example.org/check")
        and results[0].get("domain") == "example.org"
        and results[0].get("datePublished") == "2023-08-24",
        f"results normalised: {results[:1]}",
    )
    stext = found.content[0].text if found.content else ""
    check(stext.startswith('[Web Search: "python check"]') and "Sources:" in stext
          and "[The Python check](https://example.org/check" in stext, "search text: compact format with Sources")
    short = await session.call_tool("web_search", {"query": "x"})
    check(short.is_error is True and (short.structured_content or {}).get("errorKind") == "invalidQuery",
          "a one-character query is an invalidQuery error")
    fetch = next(t for t in tools if t.name == "web_fetch")
    props = fetch.input_schema.get("properties", {})
    check(
        all(p in props for p in ["url", "selector", "format", "maxLength", "startIndex", "includeLinks", "includeImages"]),
        "input schema has every web_fetch parameter",
    )
    # `url` or `urls` (several pages): the schema requires neither, the
    # server refuses both or none.
    check(
        "urls" in props and not fetch.input_schema.get("required"),
        "url or urls: nothing required by the schema",
    )
    check(bool(fetch.output_schema) and "nextStartIndex" in fetch.output_schema.get("properties", {}), "output schema present")
    a = fetch.annotations
    check(
        a is not None and a.read_only_hint is True and a.idempotent_hint is True
        and a.open_world_hint is True and a.destructive_hint is False,
        "annotations: read-only, idempotent, open-world, not destructive",
    )

    ok = await session.call_tool("web_fetch", {"url": f"{base}/page", "format": "text"})
    sc = ok.structured_content or {}
    check(not ok.is_error, "a page fetch is not an error")
    check(sc.get("status") == "success" and sc.get("title") == "Python check", f"structuredContent: {sc.get('status')}, {sc.get('title')}")
    check(any(l.get("url") == f"{base}/other" for l in sc.get("links", [])), "links are absolute")
    text = ok.content[0].text if ok.content else ""
    check("Python check" in text and "second paragraph" in text, "text content mirrors the page")

    bad = await session.call_tool("web_fetch", {"url": f"{base}/missing"})
    bsc = bad.structured_content or {}
    check(bad.is_error is True, "a 404 is an isError result")
    check(bsc.get("errorKind") == "httpStatus" and bsc.get("errorCode") == 404, f"error JSON: {bsc.get('errorKind')} {bsc.get('errorCode')}")
    check(bool(bsc.get("suggestion")), "the error carries a suggestion")

    # Every error path reachable without the internet. The SDK validates structuredContent
    # against the output schema only for successes: validate_tool_result does it for errors.
    for name, args, kind in [
        ("web_fetch", {"url": "not a url"}, "invalidUrl"),
        ("web_fetch", {"url": "http://10.1.2.3/"}, "blockedUrl"),
        ("web_fetch", {"url": f"{base}/missing"}, "httpStatus"),
        ("web_fetch", {"url": f"{base}/private/page"}, "robotsDisallowed"),
        ("web_fetch", {"url": f"{base}/image.png"}, "unsupportedContent"),
        ("web_fetch", {"url": f"{base}/huge"}, "tooLarge"),
        ("web_search", {"query": "x"}, "invalidQuery"),
        ("web_search", {"query": "wrong key check"}, "authenticationFailed"),
        ("web_search", {"query": "python check", "provider": "tavily"}, "notConfigured"),
    ]:
        r = await session.call_tool(name, args)
        sc = r.structured_content or {}
        check(r.is_error is True and sc.get("errorKind") == kind and bool(sc.get("suggestion")),
              f"{name} {kind}: an error result with a suggestion (got {sc.get('errorKind')})")
        try:
            await session.validate_tool_result(name, r)
            check(True, f"{name} {kind}: the error matches the output schema")
        except RuntimeError as e:
            check(False, f"{name} {kind}: the error does not match the output schema: {e}")

    partial = await session.call_tool("web_fetch", {"url": f"{base}/app"})
    check(not partial.is_error and (partial.structured_content or {}).get("status") == "partial",
          "a JavaScript-only page is a partial answer (validated by the SDK)")
    strings = await session.call_tool("web_fetch", {"url": f"{base}/page", "maxLength": "2000", "includeLinks": "false"})
    ssc = strings.structured_content or {}
    check(not strings.is_error and ssc.get("status") == "success" and "links" not in ssc,
          f"numbers and booleans given as strings are read (got {ssc.get('errorKind') or ssc.get('status')})")

    for name, args, what in [
        ("web_fetch", {"maxLength": "lots"}, "bad arguments"),
        ("web_teleport", {}, "an unknown tool"),
    ]:
        try:
            r = await session.call_tool(name, args)
            check(r.is_error is True, f"{what} is refused (isError)")
        except Exception as e:  # a JSON-RPC error is also a refusal
            check(True, f"{what} is refused ({type(e).__name__})")


async def over_stdio(binary: str, env: dict[str, str], base: str) -> None:
    params = StdioServerParameters(command=binary, args=["mcp"], env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await exercise(session, base, "stdio")


async def over_http(binary: str, env: dict[str, str], base: str) -> None:
    proc = subprocess.Popen(
        [binary, "mcp", "--http", "127.0.0.1:0"],
        env={**env, "FARSIGHT_HTTP_TOKEN": TOKEN},
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        url = None
        assert proc.stderr is not None
        for line in proc.stderr:
            m = re.search(r"serving MCP at (\S+)", line)
            if m:
                url = m.group(1)
                break
        if url is None:
            raise SystemExit("farsight mcp --http did not start")
        threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()

        async with create_mcp_http_client() as plain:
            r = await plain.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                                 headers={"accept": "application/json, text/event-stream"})
            print("[http]")
            check(r.status_code == 401, f"no token -> 401 (got {r.status_code})")
            r = await plain.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                                 headers={"accept": "application/json, text/event-stream",
                                          "authorization": f"Bearer {TOKEN}", "origin": "https://evil.example"})
            check(r.status_code == 403, f"foreign Origin -> 403 (got {r.status_code})")
            r = await plain.get(url.replace("/mcp", "/healthz"))
            check(r.status_code == 200, "GET /healthz -> 200")

        client = create_mcp_http_client(headers={"authorization": f"Bearer {TOKEN}"})
        async with client:
            async with streamable_http_client(url, http_client=client) as streams:
                read, write = streams[0], streams[1]
                async with ClientSession(read, write) as session:
                    await exercise(session, base, "http")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default="target/debug/farsight", help="the farsight binary to test")
    args = ap.parse_args()
    binary = str(Path(args.binary).resolve())

    pages = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Pages)
    threading.Thread(target=pages.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{pages.server_address[1]}"

    with tempfile.TemporaryDirectory() as tmp:
        cfg = Path(tmp) / "farsight.toml"
        cfg.write_text(
            f'[fetch]\nallow_hosts = ["127.0.0.1"]\nmax_bytes = 100000\n\n[cache]\ndir = "{Path(tmp) / "cache"}"\n\n'
            f'[search]\nprovider = "brave"\nfallbacks = []\n\n'
            f'[providers.brave]\napi_key = "python-check-key"\nbase_url = "{base}"\n'
        )
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("FARSIGHT_", "WEB_FETCH", "WEB_SEARCH", "RUST_LOG"))
               and not k.endswith(("_API_KEY", "_ENGINE_ID")) and k != "SEARXNG_URL"}
        env["FARSIGHT_CONFIG"] = str(cfg)
        asyncio.run(over_stdio(binary, env, base))
        asyncio.run(over_http(binary, env, base))
    pages.shutdown()

    if failures:
        print(f"\n{len(failures)} check(s) failed:")
        for f in failures:
            print(f"  - {f}")
        return 1
    print("\nall MCP checks passed with the Python SDK over stdio and Streamable HTTP")
    return 0


if __name__ == "__main__":
    sys.exit(main())
