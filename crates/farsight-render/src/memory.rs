//! The browser's memory as the system sees it: the proportional set size
//! (PSS: shared pages split between the processes sharing them, so the sum
//! is not inflated by the libraries every Chromium process maps) of the
//! browser process and all its descendants (renderers, GPU, utilities),
//! read from `/proc`. Linux only; elsewhere nothing is measured.

use std::collections::HashMap;

/// The summed memory (PSS, else RSS), in bytes, of `root` and every process below
/// it, or `None` when `/proc` cannot be read.
pub(crate) fn tree_rss_bytes(root: u32) -> Option<u64> {
    let entries = std::fs::read_dir("/proc").ok()?;
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        if let Some(ppid) = parent_of(pid) {
            children.entry(ppid).or_default().push(pid);
        }
    }
    let mut total = 0u64;
    let mut stack = vec![root];
    // A pid is visited once even if /proc changed while it was read.
    let mut seen = std::collections::HashSet::new();
    while let Some(pid) = stack.pop() {
        if !seen.insert(pid) {
            continue;
        }
        total = total.saturating_add(rss_of(pid).unwrap_or(0));
        if let Some(kids) = children.get(&pid) {
            stack.extend(kids);
        }
    }
    Some(total)
}

/// Whether `pid` is a live process (not gone, not a zombie waiting to be
/// reaped).
pub(crate) fn is_running(pid: u32) -> bool {
    state_of(pid).is_some_and(|s| !matches!(s, 'Z' | 'X' | 'x'))
}

/// `/proc/PID/stat`: `pid (comm) state ppid ...`; comm may hold spaces and
/// parentheses, so the fields are read after the last `)`.
fn stat_fields(pid: u32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    Some(rest.split_whitespace().map(str::to_owned).collect())
}

fn state_of(pid: u32) -> Option<char> {
    stat_fields(pid)?.first()?.chars().next()
}

fn parent_of(pid: u32) -> Option<u32> {
    stat_fields(pid)?.get(1)?.parse().ok()
}

fn rss_of(pid: u32) -> Option<u64> {
    kb_field(&format!("/proc/{pid}/smaps_rollup"), "Pss:")
        .or_else(|| kb_field(&format!("/proc/{pid}/status"), "VmRSS:"))
}

/// A `Name:   123 kB` line of a `/proc` file, in bytes.
fn kb_field(path: &str, name: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_measured_and_running() {
        let me = std::process::id();
        assert!(is_running(me));
        let rss = tree_rss_bytes(me).unwrap_or(0);
        assert!(rss > 1024 * 1024, "{rss}");
        assert!(!is_running(u32::MAX));
    }
}
