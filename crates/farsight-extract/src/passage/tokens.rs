//! The token estimate used for every budget.
//!
//! A real tokenizer is model-specific and heavy; budgets only need a cheap,
//! predictable estimate that errs on the high side. For English prose BPE
//! tokenizers average about four characters, or three quarters of a word, per
//! token; text in CJK scripts costs about one token per character.

/// What the estimate is computed from. The counts add up exactly when
/// trimmed pieces are joined by one whitespace run, which lets the budget code
/// price a selection without building its text first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    /// Characters outside CJK scripts, each whitespace run counted once
    /// (tokenizers merge runs of spaces, so indentation is nearly free).
    narrow: usize,
    /// Runs of non-whitespace, non-CJK characters.
    words: usize,
    /// CJK ideographs, kana, hangul and full-width forms.
    wide: usize,
}

impl Counts {
    /// Counts one piece of text.
    pub(crate) fn of(text: &str) -> Self {
        let mut c = Counter::default();
        for ch in text.chars() {
            c.push(ch);
        }
        c.counts
    }

    /// The counts of one whitespace run joining two trimmed pieces.
    pub(crate) const SEPARATOR: Counts = Counts {
        narrow: 1,
        words: 0,
        wide: 0,
    };

    /// Sum of two pieces (joined by whitespace, counted separately).
    pub(crate) fn plus(self, other: Counts) -> Counts {
        Counts {
            narrow: self.narrow + other.narrow,
            words: self.words + other.words,
            wide: self.wide + other.wide,
        }
    }

    /// The estimate for these counts; see [`estimate_tokens`].
    pub(crate) fn tokens(self) -> usize {
        let by_chars = self.narrow.div_ceil(4);
        let by_words = (self.words * 4).div_ceil(3);
        by_chars.max(by_words) + self.wide
    }
}

/// Counts text one character at a time, for code that cuts text to a size.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Counter {
    counts: Counts,
    in_space: bool,
    in_word: bool,
}

impl Counter {
    /// Adds one character.
    pub(crate) fn push(&mut self, ch: char) {
        let c = &mut self.counts;
        if ch.is_whitespace() {
            if !self.in_space {
                c.narrow += 1;
            }
            self.in_space = true;
            self.in_word = false;
        } else if is_wide(ch) {
            c.wide += 1;
            self.in_space = false;
            self.in_word = false;
        } else {
            c.narrow += 1;
            if !self.in_word {
                c.words += 1;
            }
            self.in_space = false;
            self.in_word = true;
        }
    }

    /// The estimate for what was pushed so far.
    pub(crate) fn tokens(&self) -> usize {
        self.counts.tokens()
    }
}

/// Estimates how many model tokens `text` costs.
///
/// The estimate is `max(⌈c / 4⌉, ⌈4w / 3⌉) + k`, where `c` counts the
/// characters outside CJK scripts (a run of whitespace counts as one), `w`
/// counts words (runs of non-whitespace), and `k` counts CJK ideographs, kana,
/// hangul and full-width characters, which cost about one token each. Taking
/// the larger of the two English rules of thumb keeps the estimate on the high
/// side for text of short words, numbers and punctuation. One pass, no
/// allocation.
///
/// The estimate never decreases as text is appended, so a prefix never costs
/// more than the whole.
///
/// ```
/// use farsight_extract::estimate_tokens;
///
/// assert_eq!(estimate_tokens(""), 0);
/// assert_eq!(estimate_tokens("The quick brown fox jumps over the lazy dog."), 12);
/// assert_eq!(estimate_tokens("東京都"), 3);
/// ```
#[must_use]
pub fn estimate_tokens(text: &str) -> usize {
    Counts::of(text).tokens()
}

/// CJK scripts, written without spaces, where tokenizers spend about one token
/// per character.
pub(crate) fn is_wide(ch: char) -> bool {
    matches!(ch as u32,
        0x1100..=0x11FF     // Hangul Jamo
        | 0x2E80..=0x2FDF   // CJK radicals, Kangxi
        | 0x3000..=0x303F   // CJK symbols and punctuation
        | 0x3040..=0x30FF   // Hiragana, Katakana
        | 0x3100..=0x31FF   // Bopomofo, Hangul compatibility, Katakana ext.
        | 0x3400..=0x4DBF   // CJK extension A
        | 0x4E00..=0x9FFF   // CJK unified ideographs
        | 0xAC00..=0xD7AF   // Hangul syllables
        | 0xF900..=0xFAFF   // CJK compatibility ideographs
        | 0xFF00..=0xFFEF   // Half-width and full-width forms
        | 0x20000..=0x3FFFF // CJK extensions B and later
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_prose_is_about_four_chars_a_token() {
        let text =
            "Passages are ranked against the query and the best ones are kept in page order.";
        let est = estimate_tokens(text);
        assert!((18..=24).contains(&est), "{est}");
    }

    #[test]
    fn short_words_and_numbers_count_by_words() {
        // 12 one-character words: 23 chars would say 6, words say 16.
        assert_eq!(estimate_tokens("a 1 b 2 c 3 d 4 e 5 f 6"), 16);
    }

    #[test]
    fn whitespace_runs_count_once() {
        assert_eq!(estimate_tokens("a        b"), estimate_tokens("a b"));
    }

    #[test]
    fn cjk_counts_per_character() {
        assert_eq!(estimate_tokens("日本語のテキスト"), 8);
        assert_eq!(estimate_tokens("한국어"), 3);
    }

    #[test]
    fn counts_add_up_across_a_separator() {
        let a = "first piece, trimmed";
        let b = "second — piece 東京";
        let joined = format!("{a}\n\n{b}");
        let sum = Counts::of(a).plus(Counts::SEPARATOR).plus(Counts::of(b));
        assert_eq!(sum, Counts::of(&joined));
    }

    #[test]
    fn estimate_is_monotone_on_prefixes() {
        let text = "Mixed text: 東京 and words, numbers 12 34 — end.";
        let mut last = 0;
        for (i, _) in text.char_indices() {
            let e = estimate_tokens(&text[..i]);
            assert!(e >= last);
            last = e;
        }
    }
}
