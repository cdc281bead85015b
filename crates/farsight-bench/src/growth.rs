//! Cost against size for hostile pages: each pattern grown from 100 KB to
//! 5 MiB, every case in a child process of its own so its peak memory is
//! its own, with a time limit so a quadratic case cannot hang the run.
//!
//! ```text
//! farsight-bench --growth [--max-mb N] [--limit-s S] [--only NAME]
//! ```
//!
//! Prints, per pattern and size: milliseconds, peak memory (the child's
//! VmHWM, page text included), output bytes, and per-MB figures; then for
//! each pattern whether it grows linearly (the per-MB time and memory of the
//! largest page within 2× of the smallest measured) and whether the 5 MiB
//! page stays under 2 s and 300 MB.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use farsight_extract::{ExtractOptions, Format, extract, select_within_budget};

/// One hostile pattern: its name and a generator filling `bytes` of page.
struct Pattern {
    name: &'static str,
    /// Ask for passages on this query after extraction (`web_fetch` focus).
    focus: bool,
    make: fn(usize) -> String,
}

const PATTERNS: &[Pattern] = &[
    Pattern {
        name: "article",
        focus: false,
        make: article,
    },
    Pattern {
        name: "li",
        focus: false,
        make: |n| repeat("<ul>", "<li>list item</li>\n", "</ul>", n),
    },
    Pattern {
        name: "li-bare",
        focus: false,
        make: |n| {
            repeat(
                "",
                "<li>a list item of a few words, no list around it\n",
                "",
                n,
            )
        },
    },
    Pattern {
        name: "p",
        focus: false,
        make: |n| repeat("", "<p>w</p>", "", n),
    },
    Pattern {
        name: "p+focus",
        focus: true,
        make: |n| repeat("", "<p>w</p>", "", n),
    },
    Pattern {
        name: "h2",
        focus: false,
        make: |n| repeat("", "<h2>heading</h2>", "", n),
    },
    Pattern {
        name: "misnested",
        focus: false,
        make: |n| repeat("", "<b><i><u><s><p>x</b></i></u></s>", "", n),
    },
    Pattern {
        name: "reopened",
        focus: false,
        make: |n| {
            repeat(
                "",
                "<div><b><i><u><s><em><strong><small><big><tt><code><font><nobr><strike><a></div>x",
                "",
                n,
            )
        },
    },
    Pattern {
        name: "nul",
        focus: false,
        make: |n| "\0".repeat(n),
    },
    Pattern {
        name: "ul-li-open",
        focus: false,
        make: |n| repeat("", "<ul><li>x", "", n),
    },
    Pattern {
        name: "ol-li-value",
        focus: false,
        make: |n| repeat("", "<ol><li value=999999999>x", "", n),
    },
    Pattern {
        name: "br",
        focus: false,
        make: |n| repeat("<p>", "<br>", "</p>", n),
    },
    Pattern {
        name: "a-href",
        focus: false,
        make: |n| repeat("<p>", "<a href=\"/p/1\">l</a>", "</p>", n),
    },
    Pattern {
        name: "table-rows",
        focus: false,
        make: |n| repeat("<table>", "<tr><td>a</td><td>b</td></tr>", "</table>", n),
    },
    Pattern {
        name: "table-wide",
        focus: false,
        make: |n| repeat("<table><tr>", "<td>c</td>", "</tr></table>", n),
    },
    Pattern {
        name: "attributes",
        focus: false,
        make: attributes,
    },
    Pattern {
        name: "attr-tags",
        focus: false,
        make: attribute_tags,
    },
    Pattern {
        name: "ctrl",
        focus: false,
        make: |n| repeat("<p>", "\u{1}", "</p>", n),
    },
    Pattern {
        name: "entities",
        focus: false,
        make: |n| repeat("<p>", "&#0;&bogus;&amp", "</p>", n),
    },
    Pattern {
        name: "nbsp",
        focus: false,
        make: |n| repeat("<p>", "&nbsp;\u{a0}", "</p>", n),
    },
    Pattern {
        name: "lt",
        focus: false,
        make: |n| repeat("<p>", "< <", "</p>", n),
    },
    Pattern {
        name: "blockquote",
        focus: false,
        make: |n| repeat("", "<blockquote>q", "", n),
    },
];

const SIZES: &[usize] = &[100_000, 500_000, 1_000_000, 2_000_000, 5 * 1024 * 1024];

/// `open`, then `unit` until the page holds `bytes`, then `close`, in a body.
fn repeat(open: &str, unit: &str, close: &str, bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 128);
    s.push_str("<!doctype html><html><head><title>t</title></head><body>");
    s.push_str(open);
    while s.len() + unit.len() + close.len() + 14 <= bytes {
        s.push_str(unit);
    }
    s.push_str(close);
    s.push_str("</body></html>");
    s
}

/// A normal article, the yardstick the hostile pages are compared with.
fn article(bytes: usize) -> String {
    const P: &str = "<p>The committee met on Tuesday to review the proposal, and after a long \
        discussion of the costs and the <a href=\"/schedule\">schedule</a> it agreed to publish \
        a revised plan with <em>clear</em> milestones before the end of the month.</p>\n";
    repeat(
        "<main><article><h1>Title</h1>",
        P,
        "</article></main>",
        bytes,
    )
}

/// One element carrying as many attributes as fit.
fn attributes(bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 64);
    s.push_str("<html><body><div");
    let mut i = 0u64;
    while s.len() + 32 < bytes {
        s.push_str(&format!(" a{i}=\"v\""));
        i += 1;
    }
    s.push_str(">text</div></body></html>");
    s
}

/// Paragraphs of 200 attributes each.
fn attribute_tags(bytes: usize) -> String {
    let unit: String = (0..200).map(|i| format!(" a{i}")).collect();
    repeat("", &format!("<p{unit}>x</p>"), "", bytes)
}

/// What one child measured.
struct Measured {
    ms: f64,
    peak_kb: u64,
    out_bytes: usize,
}

/// The child's side: builds the page, extracts it (and passages for
/// `focus`), prints `ms peak_kb out_bytes`.
pub fn run_case(name: &str, bytes: usize) {
    let Some(p) = PATTERNS.iter().find(|p| p.name == name) else {
        eprintln!("unknown pattern {name}");
        std::process::exit(2);
    };
    // On a thread with tokio's blocking-pool stack, as in the server.
    let job = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || measure(p, bytes));
    if !matches!(job.map(|j| j.join()), Ok(Ok(()))) {
        eprintln!("the extraction failed");
        std::process::exit(1);
    }
}

fn measure(p: &Pattern, bytes: usize) {
    let html = (p.make)(bytes);
    let opts = ExtractOptions::new(Format::Markdown)
        .base_url("https://example.com/")
        .include_links(true);
    let start = Instant::now();
    let doc = extract(&html, &opts);
    let mut out_bytes = doc.content.len();
    if p.focus {
        let s = select_within_budget("w heading item", &doc.content, 10_000 / 4);
        out_bytes = s.text.len();
    }
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    println!("{ms:.1} {} {out_bytes}", super::peak_rss_kb());
}

/// The parent's side: every pattern at every size, each in a child.
pub fn run(args: &[String]) {
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
    };
    let max_bytes = value("--max-mb")
        .and_then(|v| v.parse::<f64>().ok())
        .map_or(usize::MAX, |mb| (mb * 1_048_576.0) as usize);
    let limit = Duration::from_secs(
        value("--limit-s")
            .and_then(|v| v.parse().ok())
            .unwrap_or(60),
    );
    let only = value("--only");
    let Ok(exe) = std::env::current_exe() else {
        eprintln!("cannot find this program's path");
        std::process::exit(2);
    };
    println!(
        "{:<12} {:>9} {:>10} {:>8} {:>9} {:>8} {:>12} {:>7}",
        "pattern", "bytes", "ms", "ms/MB", "peak MB", "MB/MB", "output B", "out/in"
    );
    let mut verdicts = Vec::new();
    for p in PATTERNS.iter().filter(|p| only.is_none_or(|o| o == p.name)) {
        let mut rows: Vec<(usize, Measured)> = Vec::new();
        let mut stopped = None;
        for &size in SIZES.iter().filter(|&&s| s <= max_bytes) {
            match child(&exe, p.name, size, limit) {
                Ok(m) => {
                    let mb = size as f64 / 1_048_576.0;
                    println!(
                        "{:<12} {:>9} {:>10.1} {:>8.1} {:>9.1} {:>8.1} {:>12} {:>7.2}",
                        p.name,
                        size,
                        m.ms,
                        m.ms / mb,
                        m.peak_kb as f64 / 1024.0,
                        m.peak_kb as f64 / 1024.0 / mb,
                        m.out_bytes,
                        m.out_bytes as f64 / size as f64,
                    );
                    rows.push((size, m));
                }
                Err(e) => {
                    println!("{:<12} {:>9} {e}", p.name, size);
                    stopped = Some(size);
                    break;
                }
            }
        }
        let v = match stopped {
            Some(size) => format!("FAIL  stopped at {size} bytes"),
            None => verdict(&rows),
        };
        verdicts.push((p.name, v));
    }
    println!();
    for (name, v) in verdicts {
        println!("{name:<12} {v}");
    }
}

/// Linear within 2× (per-MB time and memory of the largest page against the
/// 1 MB page, where timer and allocator noise no longer dominate), and the
/// 5 MiB page under 2 s and 300 MB.
fn verdict(rows: &[(usize, Measured)]) -> String {
    let per_mb = |(size, m): &(usize, Measured)| {
        let mb = *size as f64 / 1_048_576.0;
        (m.ms / mb, m.peak_kb as f64 / 1024.0 / mb)
    };
    let (Some(base), Some(last)) = (rows.iter().find(|r| r.0 >= 1_000_000), rows.last()) else {
        return "too few sizes".to_owned();
    };
    let ((t0, m0), (t1, m1)) = (per_mb(base), per_mb(last));
    // Fixed costs (the process, a few MB; a millisecond or two) weigh on the
    // smaller page's per-MB figures, so growth is judged on the excess.
    let time_ratio = t1 / t0.max(1.0);
    let mem_ratio = m1 / m0.max(1.0);
    let big = last.0 >= 5 * 1024 * 1024;
    let fast = !big || last.1.ms < 2000.0;
    let small = !big || last.1.peak_kb < 300 * 1024;
    let ok = time_ratio <= 2.0 && mem_ratio <= 2.0 && fast && small;
    format!(
        "{}  time/MB ×{time_ratio:.2}, memory/MB ×{mem_ratio:.2}{}",
        if ok { "ok  " } else { "FAIL" },
        if big {
            format!(
                ", 5 MiB: {:.0} ms, {:.0} MB",
                last.1.ms,
                last.1.peak_kb as f64 / 1024.0
            )
        } else {
            String::new()
        }
    )
}

/// Runs one case in a child, killing it after `limit`.
fn child(
    exe: &std::path::Path,
    name: &str,
    bytes: usize,
    limit: Duration,
) -> Result<Measured, String> {
    let mut c = Command::new(exe)
        .args(["--growth-case", name, &bytes.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start: {e}"))?;
    let began = Instant::now();
    loop {
        match c.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if began.elapsed() > limit => {
                let _ = c.kill();
                let _ = c.wait();
                return Err(format!("over {} s, stopped", limit.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(e.to_string()),
        }
    }
    let mut out = String::new();
    if let Some(mut s) = c.stdout.take() {
        let _ = s.read_to_string(&mut out);
    }
    let mut it = out.split_whitespace();
    let mut next = || {
        it.next()
            .ok_or_else(|| format!("no figures from the child: {out:?}"))
    };
    Ok(Measured {
        ms: next()?.parse().map_err(|_| "bad ms".to_owned())?,
        peak_kb: next()?.parse().map_err(|_| "bad peak".to_owned())?,
        out_bytes: next()?.parse().map_err(|_| "bad size".to_owned())?,
    })
}
