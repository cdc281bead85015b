//! The time figures printed at the end: median, p90 and max ms per page and
//! pages per second of extraction time. p90 is taken as `score.py` takes it
//! (the value at index `floor(0.9 * (n - 1))` of the sorted times), so the
//! tool and the scorer print the same p90.

/// Summary of per-page extraction times.
pub struct TimeSummary {
    pub median_ms: f64,
    pub p90_ms: f64,
    pub max_ms: f64,
    pub total_s: f64,
    pub pages_per_s: f64,
}

/// Summarises `ms` (any order). An empty slice gives all zeros.
pub fn summarise(ms: &[f64]) -> TimeSummary {
    let mut sorted = ms.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let median_ms = match n {
        0 => 0.0,
        _ if n % 2 == 1 => sorted[n / 2],
        _ => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    };
    let p90_ms = sorted
        .get((0.9 * n.saturating_sub(1) as f64) as usize)
        .copied()
        .unwrap_or(0.0);
    let max_ms = sorted.last().copied().unwrap_or(0.0);
    let total_s = sorted.iter().sum::<f64>() / 1000.0;
    let pages_per_s = if total_s > 0.0 {
        n as f64 / total_s
    } else {
        0.0
    };
    TimeSummary {
        median_ms,
        p90_ms,
        max_ms,
        total_s,
        pages_per_s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_count_median_is_the_middle_value() {
        let s = summarise(&[5.0, 1.0, 3.0]);
        assert_eq!(s.median_ms, 3.0);
        assert_eq!(s.max_ms, 5.0);
    }

    #[test]
    fn even_count_median_is_the_mean_of_the_two_middle_values() {
        assert_eq!(summarise(&[4.0, 1.0, 2.0, 3.0]).median_ms, 2.5);
    }

    #[test]
    fn p90_is_read_at_score_py_index() {
        // 11 values 0..=10: index floor(0.9 * 10) = 9.
        let ms: Vec<f64> = (0..=10).map(f64::from).collect();
        assert_eq!(summarise(&ms).p90_ms, 9.0);
    }

    #[test]
    fn pages_per_second_is_pages_over_total_time() {
        let s = summarise(&[250.0, 250.0, 500.0, 1000.0]);
        assert_eq!(s.total_s, 2.0);
        assert_eq!(s.pages_per_s, 2.0);
    }

    #[test]
    fn no_pages_gives_zeros() {
        let s = summarise(&[]);
        assert_eq!(
            (s.median_ms, s.p90_ms, s.max_ms, s.pages_per_s),
            (0.0, 0.0, 0.0, 0.0)
        );
    }
}
