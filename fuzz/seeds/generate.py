#!/usr/bin/env python3
"""Writes the hostile seed pages of issue 11 into fuzz/seeds/ (next to this
script) for both fuzz targets, `extract` and `preparse`.

Each pattern is the one that made extraction quadratic, slow or huge on a
5 MiB page, cut down to at most 64 KiB so the fuzzer runs many inputs a
second and mutates from there. The output is deterministic: run it again
after changing a pattern and commit what changed.

    python3 fuzz/seeds/generate.py

How the `extract` target reads a seed (fuzz_targets/extract.rs): if a
newline comes within the first 64 bytes, the line before it is a CSS
selector; the first byte picks the format (byte % 3: 0 Markdown, 1 Text,
2 HTML). So a seed starts with `<` (60, Markdown), a space (32, HTML), a
carriage return (13, Text), or a selector line. `preparse` reads the whole
seed as the page; the prefix is harmless text to it.
"""

from pathlib import Path

LIMIT = 64 * 1024
# Most seeds are filled to about this size: big enough that a quadratic
# pass shows in the time of one input, small enough for many inputs a second.
FILL = 48 * 1024

MARKDOWN = ""  # the page starts with '<'
HTML = " "
TEXT = "\r"


def fill(unit: str, size: int = FILL) -> str:
    """`unit` repeated to about `size` bytes."""
    return unit * max(1, size // len(unit.encode()))


def page(body: str) -> str:
    return f"<html><head><title>t</title></head><body>{body}</body></html>"


def nested(open_tag: str, close_tag: str, depth: int, inner: str = "bottom") -> str:
    return open_tag * depth + inner + close_tag * depth


def attributes(count: int) -> str:
    attrs = "".join(f' a{i}="v{i}"' for i in range(count))
    return f'<div{attrs} id="late" class="c">text</div><p class=k>after</p>'


# name -> (prefix: format or selector line, page)
SEEDS = {
    # <li> x 80k was 5.6 s, x 320k 85.6 s: quadratic.
    "bare-li": (MARKDOWN, page("<ul>" + fill("<li>item ") + "</ul>")),
    "bare-li-selector": ("li\n", page("<ul>" + fill("<li>item ", 16 * 1024) + "</ul>")),
    # <p>w</p> x 600k, over 150 s (also with focus).
    "p-runs": (TEXT, page(fill("<p>w</p>"))),
    # <h2>heading</h2> x 330k, 133 s.
    "h2-runs": (MARKDOWN, page(fill("<h2>heading</h2>"))),
    # Misnested formatting: 90.7 s and 582 MB at 5 MiB.
    "misnested-formatting": (MARKDOWN, page(fill("<b><i><u><s><p>x</b></i></u></s>"))),
    "misnested-formatting-html": (HTML, page(fill("<b><i><u><s><p>x</b></i></u></s>", 16 * 1024))),
    # 5 MiB of NULs held 1.66 GB (a parse error kept per NUL).
    "nul-runs": (MARKDOWN, page("<p>a" + "\0" * FILL + "b</p><div title=\"x\0y\">c\0</div>")),
    "nul-mixed": (TEXT, page(fill("<p>\0a\0<b\0>\0</p>\0"))),
    # <ul><li>x unclosed x 580k: 142 M characters of output (indentation).
    "ul-li-unclosed": (MARKDOWN, page(fill("<ul><li>x"))),
    "ul-li-unclosed-text": (TEXT, page(fill("<ul><li>x", 16 * 1024))),
    # <ol><li value>: 162 M characters, the marker as wide as the value.
    "ol-li-value": (MARKDOWN, page(fill("<ol><li value=999999999>x"))),
    "blockquote-nesting": (MARKDOWN, page(fill("<blockquote>q"))),
    "blockquote-selector": ("blockquote\n", page(nested("<blockquote>", "</blockquote>", 600))),
    # <br> x 1.3M: 438 MB.
    "br-runs": (TEXT, page("<p>a" + fill("<br>") + "b</p>")),
    # <a href> x 500k: 342 MB.
    "a-href-runs": (MARKDOWN, page("<p>" + "".join(f'<a href="/p/{i}">link {i}</a> ' for i in range(1500)) + "</p>")),
    # Table rows (314 MB) and wide tables (289 MB).
    "table-rows": (MARKDOWN, page("<table>" + fill("<tr><td>a</td><td>b</td></tr>") + "</table>")),
    "table-rows-unclosed": (HTML, page("<table>" + fill("<tr><td>a<td>b", 16 * 1024))),
    "table-wide": (MARKDOWN, page("<table><tr>" + fill("<td>c</td>") + "</tr><tr><td>1</td></tr></table>")),
    "table-wide-selector": ("td\n", page("<table><tr>" + fill("<th>h", 8 * 1024) + "<tr>" + fill("<td>c", 8 * 1024) + "</table>")),
    "table-nested": (MARKDOWN, page(fill("<table><tr><td>x"))),
    # A bare <td> makes the parser add <tbody><tr>: the deepest tree the
    # pre-parse pass lets through (twice its cap).
    "table-td-implied": (TEXT, page(fill("<table><td>x", 16 * 1024))),
    # One element with 500k attributes took 58 s; the pass keeps 128.
    "attributes-300": (MARKDOWN, page(attributes(300))),
    "attributes-300-html": (HTML, page(attributes(300))),
    # Deep nesting: the parser's scope walks are quadratic in depth.
    "deep-div-1000": (MARKDOWN, page(nested("<div>", "</div>", 1000) + "<p>after</p>")),
    "deep-div-unclosed": (TEXT, page(fill("<div>x", 16 * 1024))),
    "deep-span-1000": (HTML, page(nested("<span>", "</span>", 1000))),
    "deep-ul-li-1000": (MARKDOWN, page(nested("<ul><li>", "</li></ul>", 1000))),
    "deep-a-div": (MARKDOWN, page(fill('<a href="x"><div>', 16 * 1024))),
    "deep-svg-foreignobject": (MARKDOWN, page(fill("<svg><foreignObject><div>", 16 * 1024))),
    # Entities: NUL reference, unknown names, unterminated ones.
    "entities": (TEXT, page("<p>" + fill("&#0;&bogus;&amp") + "</p>")),
    "entities-numeric": (MARKDOWN, page("<p>" + fill("&#x110000;&#xD800;&#99999999999;&#128512;&lt;&gt") + "</p>")),
    # Stray '<' runs: a parse error each.
    "lt-runs": (MARKDOWN, page("<p>" + fill("< <") + "</p>")),
    "lt-slash-runs": (TEXT, page("<p>" + fill("</ <a </> <!") + "</p>")),
    # Bodies the pass empties or skips whole.
    "script-style-bodies": (MARKDOWN, page(
        fill("<script>if (a<b) x='<div>';</script><style>p>a{color:red}</style>", 16 * 1024)
        + '<script type="application/ld+json">{"@type":"Article","headline":"h"}</script>'
        + "<p>text</p><script>unclosed <div>")),
    "svg-noscript-bodies": (MARKDOWN, page(
        fill('<svg viewBox="0 0 1 1"><path d="M0 0L1 1"/><g><div>x</div></g></svg>'
             "<noscript><img src=x.png><div>y</div></noscript><p>z</p>", 16 * 1024))),
    "raw-text-unclosed": (HTML, page("<p>a</p><textarea><div>" + fill("</textare <b>", 8 * 1024))),
    "comments": (MARKDOWN, page(fill("<!-- <div> --><p>c</p><!--><!---><!-- -- -->", 16 * 1024) + "<!-- unclosed <div>")),
    "cdata-in-svg": (MARKDOWN, page(fill("<svg><![CDATA[<div><p>]]><text>t</text></svg><p>p</p>", 16 * 1024) + "<svg><![CDATA[ unclosed")),
    "cdata-in-html": (TEXT, page(fill("<![CDATA[<div>]]><p>p</p>", 16 * 1024))),
}


def main() -> None:
    out_dir = Path(__file__).resolve().parent
    for name, (prefix, body) in SEEDS.items():
        data = (prefix + body).encode()
        assert len(data) <= LIMIT, f"{name}: {len(data)} bytes"
        # Without a selector line, no newline may come within 64 bytes.
        if "\n" not in prefix:
            assert b"\n" not in data[:65], f"{name}: newline reads as a selector"
        (out_dir / f"{name}.html").write_bytes(data)
    print(f"wrote {len(SEEDS)} seeds to {out_dir}")


if __name__ == "__main__":
    main()
