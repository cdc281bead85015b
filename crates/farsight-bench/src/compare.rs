//! `--compare EARLIER_OUT_DIR`: the pages whose F1 moved most against an
//! earlier run, so a rule's effect is seen page by page.

use std::collections::HashMap;
use std::path::Path;

/// How many pages each direction lists.
const SHOWN: usize = 15;

/// A run's F1 per page: WCXB's word F1 where the run wrote it (column 6
/// of `_timings.tsv`), else the 4-gram F1 (column 5).
pub fn read(dir: &Path) -> Result<HashMap<String, f64>, String> {
    let path = dir.join("_timings.tsv");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text
        .lines()
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let f1 = cols.get(5).or(cols.get(4))?.parse().ok()?;
            Some(((*cols.first()?).to_owned(), f1))
        })
        .collect())
}

/// Prints the pages that gained and lost most between `earlier` and the
/// run just written to `out`.
pub fn print(earlier: &HashMap<String, f64>, out: &Path) -> Result<(), String> {
    let now = read(out)?;
    let mut moved: Vec<(f64, &str, f64, f64)> = now
        .iter()
        .filter_map(|(id, &f)| earlier.get(id).map(|&e| (f - e, id.as_str(), e, f)))
        .filter(|m| m.0.abs() >= 0.001)
        .collect();
    moved.sort_by(|a, b| b.0.total_cmp(&a.0));
    let gained = moved.iter().filter(|m| m.0 > 0.0).count();
    println!(
        "compared with the earlier run: {} pages moved ({gained} up, {} down), {} in both",
        moved.len(),
        moved.len() - gained,
        now.keys().filter(|k| earlier.contains_key(*k)).count()
    );
    let line = |m: &(f64, &str, f64, f64)| {
        println!("  {:+.3}  {:<24} {:.3} -> {:.3}", m.0, m.1, m.2, m.3);
    };
    moved
        .iter()
        .filter(|m| m.0 > 0.0)
        .take(SHOWN)
        .for_each(line);
    moved
        .iter()
        .rev()
        .filter(|m| m.0 < 0.0)
        .take(SHOWN)
        .for_each(line);
    Ok(())
}
