//! Index terms: Unicode words, case-folded, accents removed, stop words
//! dropped, English words lightly stemmed, CJK as character pairs.

use super::tokens::is_wide;

/// The index terms of `text`, in order.
///
/// Hyphenated words give their parts and the parts joined ("Wi-Fi" gives
/// `wi`, `fi` and `wifi`), so that either spelling finds the other.
pub(crate) fn terms(text: &str, stemming: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut compound = String::new();
    let mut parts = 0;
    let mut cjk: Vec<char> = Vec::new();
    for ch in text.chars() {
        if ch.is_alphanumeric() && !is_wide(ch) {
            finish_cjk(&mut cjk, &mut out);
            for lower in ch.to_lowercase() {
                word.push(fold(lower));
            }
            continue;
        }
        if matches!(ch, '-' | '\u{2010}' | '\u{2011}') && !word.is_empty() {
            compound.push_str(&word);
            parts += 1;
            finish_word(&mut word, stemming, &mut out);
            continue;
        }
        if parts > 0 && !word.is_empty() {
            compound.push_str(&word);
            parts += 1;
        }
        finish_word(&mut word, stemming, &mut out);
        if parts > 1 {
            finish_word(&mut compound, stemming, &mut out);
        }
        compound.clear();
        parts = 0;
        if is_wide(ch) && ch.is_alphanumeric() {
            cjk.push(ch);
        } else {
            finish_cjk(&mut cjk, &mut out);
        }
    }
    if parts > 0 && !word.is_empty() {
        compound.push_str(&word);
        parts += 1;
    }
    finish_word(&mut word, stemming, &mut out);
    if parts > 1 {
        finish_word(&mut compound, stemming, &mut out);
    }
    finish_cjk(&mut cjk, &mut out);
    out
}

fn finish_word(word: &mut String, stemming: bool, out: &mut Vec<String>) {
    if word.is_empty() {
        return;
    }
    let single_letter = word.len() == 1 && word.bytes().all(|b| b.is_ascii_alphabetic());
    if !single_letter && !is_stop_word(word) {
        if stemming && word.bytes().all(|b| b.is_ascii_lowercase()) {
            out.push(stem(word));
        } else {
            out.push(word.clone());
        }
    }
    word.clear();
}

/// CJK text has no spaces; overlapping character pairs are the usual
/// dictionary-free index terms for it.
fn finish_cjk(run: &mut Vec<char>, out: &mut Vec<String>) {
    match run.len() {
        0 => {}
        1 => out.push(run[0].to_string()),
        _ => out.extend(run.windows(2).map(|w| w.iter().collect::<String>())),
    }
    run.clear();
}

/// Removes the accent from common Latin letters, so that "cafe" finds
/// "café".
fn fold(ch: char) -> char {
    match ch {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => 'a',
        'ç' | 'ć' | 'č' => 'c',
        'ď' => 'd',
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' => 'e',
        'ì' | 'í' | 'î' | 'ï' | 'ī' | 'į' | 'ı' => 'i',
        'ł' | 'ľ' => 'l',
        'ñ' | 'ń' | 'ň' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => 'o',
        'ř' => 'r',
        'ś' | 'š' | 'ş' => 's',
        'ť' | 'ţ' => 't',
        'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' => 'u',
        'ý' | 'ÿ' => 'y',
        'ź' | 'ż' | 'ž' => 'z',
        _ => ch,
    }
}

/// English function words, question words and auxiliaries: they carry no
/// topic, and a question is mostly made of them.
const STOP_WORDS: &[&str] = &[
    "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "been",
    "before", "being", "between", "both", "but", "by", "can", "could", "did", "do", "does",
    "doing", "during", "each", "else", "few", "for", "from", "had", "has", "have", "having", "he",
    "her", "here", "hers", "him", "his", "how", "if", "in", "into", "is", "it", "its", "itself",
    "just", "me", "might", "more", "most", "much", "must", "my", "no", "nor", "not", "of", "off",
    "on", "once", "only", "or", "other", "our", "ours", "out", "over", "own", "same", "shall",
    "she", "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them",
    "then", "there", "these", "they", "this", "those", "through", "to", "too", "under", "until",
    "up", "us", "very", "was", "we", "were", "what", "when", "where", "which", "while", "who",
    "whom", "whose", "why", "will", "with", "would", "you", "your", "yours",
];

fn is_stop_word(w: &str) -> bool {
    STOP_WORDS.binary_search(&w).is_ok()
}

/// A light English stemmer: enough that "configure", "configured",
/// "configuring" and "configuration" meet, without a dictionary. Query and
/// passages go through the same function, so consistency matters more than
/// producing real roots.
fn stem(w: &str) -> String {
    let mut s = w.to_string();
    if s.len() <= 3 {
        return s;
    }
    if s.ends_with("sses") {
        s.truncate(s.len() - 2);
    } else if s.ends_with("ies") || s.ends_with("ied") {
        s.truncate(s.len() - 3);
        s.push('y');
    } else if s.ends_with('s') && !s.ends_with("ss") && !s.ends_with("us") && !s.ends_with("is") {
        s.pop();
    }
    if s.ends_with("ation") && s.len() >= 9 {
        s.truncate(s.len() - 5);
    } else if s.ends_with("ing") && s.len() >= 6 {
        s.truncate(s.len() - 3);
        undouble(&mut s);
    } else if s.ends_with("ed") && s.len() >= 5 {
        s.truncate(s.len() - 2);
        undouble(&mut s);
    } else if s.ends_with("ly") && s.len() >= 6 {
        s.truncate(s.len() - 2);
    }
    if s.ends_with("ate") && s.len() >= 7 {
        s.truncate(s.len() - 3);
    }
    if s.ends_with('e') && s.len() >= 4 {
        s.pop();
    }
    s
}

/// "running" → "runn" → "run".
fn undouble(s: &mut String) {
    let b = s.as_bytes();
    if b.len() >= 3 {
        let (x, y) = (b[b.len() - 1], b[b.len() - 2]);
        if x == y && !matches!(x, b'l' | b's' | b'z' | b'a' | b'e' | b'i' | b'o' | b'u') {
            s.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_sorted() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn words_fold_and_drop_stop_words() {
        assert_eq!(
            terms("How do I enable the Café's HTTP/2 support?", false),
            vec!["enable", "cafe", "http", "2", "support"]
        );
    }

    #[test]
    fn hyphenated_words_also_index_joined() {
        assert_eq!(
            terms("Wi-Fi drops", false),
            vec!["wi", "fi", "wifi", "drops"]
        );
        assert_eq!(
            terms("state-of-the-art", false),
            vec!["state", "art", "stateoftheart"]
        );
        assert_eq!(terms("re-", false), vec!["re"]);
        assert_eq!(terms("x - y", false), Vec::<String>::new());
        assert_eq!(terms("e-mail", false), vec!["mail", "email"]);
    }

    #[test]
    fn stems_meet() {
        let forms = [
            "configure",
            "configured",
            "configuring",
            "configuration",
            "configurations",
        ];
        let stems: Vec<String> = forms.iter().map(|f| stem(f)).collect();
        assert!(stems.iter().all(|s| s == &stems[0]), "{stems:?}");
        assert_eq!(stem("running"), stem("run"));
        assert_eq!(stem("policies"), stem("policy"));
        assert_eq!(stem("authentication"), stem("authenticate"));
        assert_eq!(stem("stopped"), "stop");
        assert_eq!(stem("class"), "class");
    }

    #[test]
    fn non_latin_words_are_kept_whole() {
        assert_eq!(terms("Привет, МИР", true), vec!["привет", "мир"]);
        assert_eq!(terms("東京都", true), vec!["東京", "京都"]);
        assert_eq!(terms("東", true), vec!["東"]);
    }
}
