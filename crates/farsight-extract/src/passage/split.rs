//! Splitting text into passages: Markdown-aware blocks first, then long
//! blocks cut at sentence (or item, row, line) ends, then small neighbours
//! merged.

use std::ops::Range;

use super::Passage;
use super::tokens::{Counter, Counts};

/// A block smaller than this is merged with the next one of its section:
/// a one-line paragraph rarely answers anything on its own.
const MIN_TOKENS: usize = 60;
/// Passages are cut to stay at or under this size, so that a budget of a few
/// hundred tokens still holds several passages from different parts of a
/// page.
const MAX_TOKENS: usize = 120;
/// The size long blocks are cut towards; cuts are balanced, so a 250-token
/// paragraph becomes three passages of about 85 rather than 120 + 120 + 10.
const TARGET_TOKENS: usize = 100;
/// Code blocks up to this size stay whole even though they exceed
/// `MAX_TOKENS`: half a code sample answers nothing.
const CODE_MAX_TOKENS: usize = 400;
/// A passage this small (a trailing sentence, a lone link) joins the passage
/// before it when the two fit in `MAX_TOKENS + MIN_TOKENS / 2`.
const TINY_TOKENS: usize = 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Heading(u8),
    Code,
    List,
    Table,
    Quote,
    Para,
    Rule,
}

#[derive(Debug)]
struct Block {
    range: Range<usize>,
    kind: Kind,
}

/// A piece of text that never gets cut further.
struct Piece {
    range: Range<usize>,
    counts: Counts,
    heading: bool,
    section: Option<String>,
}

/// Splits `text` into passages; see [`super::split_passages`].
pub(crate) fn split(text: &str) -> Vec<Passage> {
    let mut stack: Vec<(u8, String)> = Vec::new();
    let mut pieces = Vec::new();
    for block in blocks(text) {
        if let Kind::Heading(level) = block.kind {
            while stack.last().is_some_and(|(l, _)| *l >= level) {
                stack.pop();
            }
            stack.push((level, heading_text(&text[block.range.clone()])));
            pieces.push(Piece {
                counts: Counts::of(&text[block.range.clone()]),
                range: block.range,
                heading: true,
                section: section(&stack),
            });
            continue;
        }
        for range in cut_block(text, &block) {
            pieces.push(Piece {
                counts: Counts::of(&text[range.clone()]),
                range,
                heading: false,
                section: section(&stack),
            });
        }
    }
    let merged = merge(pieces);
    merged
        .into_iter()
        .enumerate()
        .map(|(index, p)| Passage {
            text: text[p.range.clone()].to_string(),
            start: p.range.start,
            index,
            heading: p.section,
        })
        .collect()
}

/// A sentence (or line) larger than this is cut at spaces by
/// [`sentences`], so that a small budget can still hold one piece.
const SENTENCE_MAX_TOKENS: usize = 40;

/// The sentences and lines of one passage, as passages of their own (offsets
/// relative to `text`), for a budget too small for the whole passage.
pub(crate) fn sentences(text: &str, heading: Option<&str>) -> Vec<Passage> {
    let mut ranges = Vec::new();
    for u in sentence_units(text, 0..text.len()) {
        if Counts::of(&text[u.clone()]).tokens() > SENTENCE_MAX_TOKENS {
            ranges.extend(hard_split(text, u, SENTENCE_MAX_TOKENS));
        } else {
            ranges.push(u);
        }
    }
    ranges
        .into_iter()
        .enumerate()
        .map(|(index, r)| Passage {
            text: text[r.clone()].to_string(),
            start: r.start,
            index,
            heading: heading.map(str::to_string),
        })
        .collect()
}

fn section(stack: &[(u8, String)]) -> Option<String> {
    let parts: Vec<&str> = stack
        .iter()
        .map(|(_, t)| t.as_str())
        .filter(|t| !t.is_empty())
        .collect();
    (!parts.is_empty()).then(|| parts.join(" > "))
}

/// Headings attach to what follows; small pieces join their neighbours.
fn merge(pieces: Vec<Piece>) -> Vec<Piece> {
    struct Cur {
        piece: Piece,
        heading_only: bool,
        starts_with_heading: bool,
    }
    let mut out: Vec<Cur> = Vec::new();
    for p in pieces {
        let extend = match out.last() {
            None => false,
            Some(c) if p.heading => c.heading_only,
            Some(c) if c.heading_only => true,
            Some(c) => {
                let t = c.piece.counts.tokens();
                t < MIN_TOKENS
                    && c.piece
                        .counts
                        .plus(Counts::SEPARATOR)
                        .plus(p.counts)
                        .tokens()
                        <= MAX_TOKENS
            }
        };
        match out.last_mut() {
            Some(c) if extend => {
                c.piece.range.end = p.range.end;
                c.piece.counts = c.piece.counts.plus(Counts::SEPARATOR).plus(p.counts);
                c.heading_only &= p.heading;
                if p.heading {
                    // The innermost heading names the section.
                    c.piece.section = p.section;
                }
            }
            _ => out.push(Cur {
                heading_only: p.heading,
                starts_with_heading: p.heading,
                piece: p,
            }),
        }
    }
    let mut merged: Vec<Cur> = Vec::with_capacity(out.len());
    for c in out {
        if let Some(prev) = merged.last_mut() {
            let joined = prev
                .piece
                .counts
                .plus(Counts::SEPARATOR)
                .plus(c.piece.counts);
            if !c.starts_with_heading
                && c.piece.counts.tokens() < TINY_TOKENS
                && joined.tokens() <= MAX_TOKENS + MIN_TOKENS / 2
            {
                prev.piece.range.end = c.piece.range.end;
                prev.piece.counts = joined;
                continue;
            }
        }
        merged.push(c);
    }
    merged.into_iter().map(|c| c.piece).collect()
}

/// Cuts one block into pieces of at most `MAX_TOKENS` (code: kept whole up
/// to `CODE_MAX_TOKENS`).
fn cut_block(text: &str, block: &Block) -> Vec<Range<usize>> {
    let r = block.range.clone();
    let limit = if block.kind == Kind::Code {
        CODE_MAX_TOKENS
    } else {
        MAX_TOKENS
    };
    if Counts::of(&text[r.clone()]).tokens() <= limit {
        return vec![r];
    }
    let units = match block.kind {
        Kind::List => item_units(text, r),
        Kind::Table | Kind::Code => line_units(text, r),
        _ => sentence_units(text, r),
    };
    let mut fine = Vec::with_capacity(units.len());
    let too_big = |u: &Range<usize>| Counts::of(&text[u.clone()]).tokens() > MAX_TOKENS;
    for u in units {
        if !too_big(&u) {
            fine.push(u);
            continue;
        }
        // A long list item or table row: its sentences, then its words.
        for s in sentence_units(text, u) {
            if too_big(&s) {
                fine.extend(hard_split(text, s, TARGET_TOKENS));
            } else {
                fine.push(s);
            }
        }
    }
    pack(text, fine)
}

/// Groups consecutive units into pieces of balanced size, none over
/// `MAX_TOKENS` unless a unit alone is.
fn pack(text: &str, units: Vec<Range<usize>>) -> Vec<Range<usize>> {
    let counts: Vec<Counts> = units.iter().map(|u| Counts::of(&text[u.clone()])).collect();
    let sizes: Vec<usize> = counts.iter().map(|c| c.tokens()).collect();
    // What is left to place after unit `i`, to aim each cut at an even share
    // of the rest rather than leaving a stub at the end.
    let mut left = sizes.iter().sum::<usize>();
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut cur: Option<(Range<usize>, Counts)> = None;
    let mut target = 0;
    for (k, (u, c)) in units.into_iter().zip(counts).enumerate() {
        cur = match cur {
            Some((r, rc)) => {
                let joined = rc.plus(Counts::SEPARATOR).plus(c);
                // Stop at the cut nearest the target, above or below it.
                let (now, then) = (rc.tokens(), joined.tokens());
                if now < target && then <= MAX_TOKENS && then.saturating_sub(target) <= target - now
                {
                    Some((r.start..u.end, joined))
                } else {
                    out.push(r);
                    None
                }
            }
            None => None,
        };
        if cur.is_none() {
            let parts = left.div_ceil(TARGET_TOKENS).max(1);
            target = left.div_ceil(parts);
            cur = Some((u, c));
        }
        left = left.saturating_sub(sizes[k]);
    }
    if let Some((r, _)) = cur {
        out.push(r);
    }
    out
}

/// Cuts a range with no better boundary at whitespace (or, in text without
/// spaces, between characters) into pieces of about `target` tokens.
fn hard_split(text: &str, r: Range<usize>, target: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = r.start;
    let mut counter = Counter::default();
    let mut last_space: Option<usize> = None;
    let mut pos = r.start;
    while pos < r.end {
        let Some(ch) = text[pos..r.end].chars().next() else {
            break;
        };
        counter.push(ch);
        if counter.tokens() > target && pos > start {
            let cut = match last_space {
                Some(s) if s > start => s,
                _ => pos,
            };
            out.push(trim(text, start..cut));
            start = cut;
            last_space = None;
            counter = Counter::default();
            // Count again what followed the cut, up to and including `ch`.
            for c in text[cut..pos + ch.len_utf8()].chars() {
                counter.push(c);
            }
        }
        if ch.is_whitespace() {
            last_space = Some(pos);
        }
        pos += ch.len_utf8();
    }
    out.push(trim(text, start..r.end));
    out.retain(|r| !r.is_empty());
    out
}

/// Sentences (and hard line breaks) of a paragraph.
fn sentence_units(text: &str, r: Range<usize>) -> Vec<Range<usize>> {
    let s = &text[r.clone()];
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = s.char_indices().peekable();
    while let Some((i, ch)) = chars.next() {
        let end = match ch {
            '\n' => Some(i),
            '。' | '！' | '？' => Some(i + ch.len_utf8()),
            '.' | '!' | '?' | '…' => {
                let mut e = i + ch.len_utf8();
                while let Some(&(j, c)) = chars.peek() {
                    if matches!(c, '"' | '\'' | ')' | ']' | '”' | '’' | '*' | '_') {
                        e = j + c.len_utf8();
                        chars.next();
                    } else {
                        break;
                    }
                }
                match chars.peek() {
                    Some(&(_, c)) if c.is_whitespace() => Some(e),
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(e) = end {
            out.push(trim(text, r.start + start..r.start + e));
            start = e;
        }
    }
    out.push(trim(text, r.start + start..r.end));
    out.retain(|r| !r.is_empty());
    out
}

/// List items (with their continuation lines) of a list block.
fn item_units(text: &str, r: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = r.start;
    for line in lines(text, r.clone()) {
        if line.start > start && is_list_item(&text[line.clone()]) {
            out.push(trim(text, start..line.start));
            start = line.start;
        }
    }
    out.push(trim(text, start..r.end));
    out.retain(|r| !r.is_empty());
    out
}

fn line_units(text: &str, r: Range<usize>) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = lines(text, r).map(|l| trim(text, l)).collect();
    out.retain(|r| !r.is_empty());
    out
}

/// The range without surrounding whitespace.
fn trim(text: &str, r: Range<usize>) -> Range<usize> {
    let s = &text[r.clone()];
    let lead = s.len() - s.trim_start().len();
    let trail = s.len() - s.trim_end().len();
    if lead == s.len() {
        return r.start..r.start;
    }
    r.start + lead..r.end - trail
}

/// Line ranges inside `r`, without their line terminators.
fn lines(text: &str, r: Range<usize>) -> impl Iterator<Item = Range<usize>> + '_ {
    let base = r.start;
    text[r].split_inclusive('\n').scan(base, |pos, l| {
        let start = *pos;
        *pos += l.len();
        let content = l.trim_end_matches(['\n', '\r']);
        Some(start..start + content.len())
    })
}

/// Markdown-ish blocks of the whole text, in order, each range trimmed.
fn blocks(text: &str) -> Vec<Block> {
    let lines: Vec<Range<usize>> = lines(text, 0..text.len()).collect();
    let line = |i: usize| &text[lines[i].clone()];
    let blank = |i: usize| line(i).trim().is_empty();
    let mut out = Vec::new();
    let mut push = |start: usize, end: usize, kind: Kind| {
        let range = trim(text, start..end);
        if !range.is_empty() {
            out.push(Block { range, kind });
        }
    };
    let mut i = 0;
    while i < lines.len() {
        let l = line(i);
        if blank(i) {
            i += 1;
            continue;
        }
        if let Some((fc, n)) = fence_open(l) {
            let mut j = i + 1;
            while j < lines.len() && !is_fence_close(line(j), fc, n) {
                j += 1;
            }
            let last = j.min(lines.len() - 1);
            push(lines[i].start, lines[last].end, Kind::Code);
            i = j + 1;
            continue;
        }
        if let Some(level) = atx_level(l) {
            push(lines[i].start, lines[i].end, Kind::Heading(level));
            i += 1;
            continue;
        }
        if is_rule(l) {
            push(lines[i].start, lines[i].end, Kind::Rule);
            i += 1;
            continue;
        }
        let run = |pred: fn(&str) -> bool| {
            let mut j = i;
            while j < lines.len() && pred(line(j)) {
                j += 1;
            }
            j
        };
        if is_table_line(l) {
            let j = run(is_table_line);
            push(lines[i].start, lines[j - 1].end, Kind::Table);
            i = j;
            continue;
        }
        if is_quote(l) {
            let j = run(is_quote);
            push(lines[i].start, lines[j - 1].end, Kind::Quote);
            i = j;
            continue;
        }
        if is_list_item(l) {
            let mut j = i + 1;
            loop {
                while j < lines.len() && !blank(j) && !starts_other_block(line(j)) {
                    j += 1;
                }
                // A loose list: items (or indented continuations) after blank lines.
                let mut k = j;
                while k < lines.len() && blank(k) {
                    k += 1;
                }
                if k > j && k < lines.len() && {
                    let n = line(k);
                    is_list_item(n) || (indent(n) >= 2 && fence_open(n).is_none())
                } {
                    j = k + 1;
                    continue;
                }
                break;
            }
            push(lines[i].start, lines[j - 1].end, Kind::List);
            i = j;
            continue;
        }
        // A paragraph, or a setext heading.
        if let Some(level) = (i + 1 < lines.len())
            .then(|| setext_level(line(i + 1)))
            .flatten()
        {
            push(lines[i].start, lines[i + 1].end, Kind::Heading(level));
            i += 2;
            continue;
        }
        let mut j = i + 1;
        while j < lines.len() && !blank(j) && !starts_block(line(j)) {
            j += 1;
        }
        push(lines[i].start, lines[j - 1].end, Kind::Para);
        i = j;
    }
    out
}

fn indent(l: &str) -> usize {
    l.len() - l.trim_start_matches([' ', '\t']).len()
}

fn starts_block(l: &str) -> bool {
    starts_other_block(l) || is_list_item(l)
}

/// Starts a block other than a list item (which continues a list).
fn starts_other_block(l: &str) -> bool {
    fence_open(l).is_some()
        || atx_level(l).is_some()
        || is_rule(l)
        || is_table_line(l)
        || is_quote(l)
}

/// An opening code fence: its character and length.
fn fence_open(l: &str) -> Option<(char, usize)> {
    if indent(l) > 3 {
        return None;
    }
    let t = l.trim_start();
    let fc = t.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let n = t.chars().take_while(|c| *c == fc).count();
    // A backtick fence's info string cannot contain backticks.
    let ok = n >= 3 && (fc == '~' || !t[n..].contains('`'));
    ok.then_some((fc, n))
}

fn is_fence_close(l: &str, fc: char, n: usize) -> bool {
    let t = l.trim();
    t.len() >= n && t.chars().all(|c| c == fc)
}

fn atx_level(l: &str) -> Option<u8> {
    if indent(l) > 3 {
        return None;
    }
    let t = l.trim_start();
    let n = t.bytes().take_while(|b| *b == b'#').count();
    let rest = &t[n..];
    ((1..=6).contains(&n) && (rest.is_empty() || rest.starts_with([' ', '\t'])))
        .then(|| u8::try_from(n).unwrap_or(6))
}

fn setext_level(l: &str) -> Option<u8> {
    let t = l.trim();
    if t.is_empty() || indent(l) > 3 {
        None
    } else if t.bytes().all(|b| b == b'=') {
        Some(1)
    } else if t.len() >= 2 && t.bytes().all(|b| b == b'-') {
        Some(2)
    } else {
        None
    }
}

fn is_rule(l: &str) -> bool {
    let mut marks = l.chars().filter(|c| !c.is_whitespace());
    let first = marks.next();
    let count = 1 + marks.clone().count();
    indent(l) <= 3
        && matches!(first, Some('-' | '*' | '_'))
        && count >= 3
        && marks.all(|c| Some(c) == first)
}

fn is_table_line(l: &str) -> bool {
    l.trim_start().starts_with('|')
}

fn is_quote(l: &str) -> bool {
    indent(l) <= 3 && l.trim_start().starts_with('>')
}

fn is_list_item(l: &str) -> bool {
    let t = l.trim_start();
    if let Some(rest) = t.strip_prefix(['-', '*', '+']) {
        return rest.is_empty() || rest.starts_with([' ', '\t']);
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if (1..=9).contains(&digits) {
        let rest = &t[digits..];
        if let Some(after) = rest.strip_prefix(['.', ')']) {
            return after.is_empty() || after.starts_with([' ', '\t']);
        }
    }
    false
}

/// The words of a heading line, without `#` marks or a setext underline.
fn heading_text(block: &str) -> String {
    let first = block.lines().next().unwrap_or("").trim();
    first
        .trim_start_matches('#')
        .trim_end_matches('#')
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Kind> {
        blocks(text).into_iter().map(|b| b.kind).collect()
    }

    #[test]
    fn recognises_markdown_blocks() {
        let md = "# Title\n\nA paragraph\nthat wraps.\n\n- one\n- two\n  continued\n\n\
                  | a | b |\n|---|---|\n| 1 | 2 |\n\n```rust\nfn main() {}\n\n// blank above\n```\n\
                  > quoted\n> more\n\n---\n\nSetext\n======\n";
        assert_eq!(
            kinds(md),
            vec![
                Kind::Heading(1),
                Kind::Para,
                Kind::List,
                Kind::Table,
                Kind::Code,
                Kind::Quote,
                Kind::Rule,
                Kind::Heading(1)
            ]
        );
    }

    #[test]
    fn loose_lists_stay_one_block() {
        let md = "- first item\n\n- second item\n\n  its second paragraph\n\nAfter the list.";
        assert_eq!(kinds(md), vec![Kind::List, Kind::Para]);
    }

    #[test]
    fn unclosed_fence_runs_to_the_end() {
        let md = "Intro.\n\n```\ncode\n\n# not a heading\n";
        assert_eq!(kinds(md), vec![Kind::Para, Kind::Code]);
    }

    #[test]
    fn sentences_split_at_terminators_followed_by_space() {
        let text = "One. Two (3.5 cm)! \"Three?\" Four… 五。六";
        let units: Vec<&str> = sentence_units(text, 0..text.len())
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(
            units,
            vec!["One.", "Two (3.5 cm)!", "\"Three?\"", "Four…", "五。", "六"]
        );
    }

    #[test]
    fn hard_split_cuts_at_spaces_then_chars() {
        let words = "word ".repeat(200);
        for r in hard_split(&words, 0..words.len(), 50) {
            assert!(Counts::of(&words[r.clone()]).tokens() <= 50);
            assert!(words[r].ends_with("word"));
        }
        let cjk = "漢".repeat(300);
        let parts = hard_split(&cjk, 0..cjk.len(), 100);
        assert_eq!(parts.len(), 3);
    }

    #[test]
    fn balanced_cuts() {
        let para = "This sentence has exactly eight words in it. ".repeat(30);
        let parts: Vec<usize> = cut_block(
            &para,
            &Block {
                range: trim(&para, 0..para.len()),
                kind: Kind::Para,
            },
        )
        .into_iter()
        .map(|r| Counts::of(&para[r]).tokens())
        .collect();
        assert!(parts.iter().all(|t| *t <= MAX_TOKENS), "{parts:?}");
        let (min, max) = (parts.iter().min(), parts.iter().max());
        assert!(max.zip(min).is_some_and(|(a, b)| a - b <= 15), "{parts:?}");
    }
}
