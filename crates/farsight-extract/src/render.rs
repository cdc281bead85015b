//! Markdown and plain-text rendering of a DOM subtree.
//!
//! One walker writes both formats: plain text is Markdown without the markup,
//! so the two always hold the same words in the same blocks.

use std::borrow::Cow;

use crate::deadline::Deadline;
use dom_query::{NodeData, NodeRef};

use crate::escape;
use crate::math;
use crate::table;
use crate::url_util::Resolver;

/// Deeper than this, a subtree is flattened to its text: recursion on a page
/// nested 100,000 elements deep would overflow the stack.
const MAX_DEPTH: usize = 120;

/// Columns of list indentation and quote prefixes a line may get: lists
/// and quotes nested deeper render as plain blocks inside the last level
/// that fits (8 levels of `- ` or `> `, 5 of `1. `). Each level indents every line below it, so a
/// page of 10,000 nested `<blockquote>`s (or lists) would otherwise multiply
/// its text by the depth (issue #11: 162 M characters out of a 5 MiB page).
const MAX_INDENT: usize = 16;

/// The largest number of an ordered-list marker CommonMark reads (nine digits).
const MAX_LIST_NUMBER: usize = 999_999_999;

/// What to render and how.
pub(crate) struct RenderOptions<'a> {
    pub markdown: bool,
    pub images: bool,
    pub links: bool,
    pub resolver: &'a Resolver,
    /// Rendering stops, keeping what it wrote, once this passes.
    pub deadline: &'a Deadline,
}

/// Renders the nodes, in order, as Markdown or text.
pub(crate) fn render(nodes: &[NodeRef<'_>], opts: &RenderOptions<'_>) -> String {
    let mut w = Writer::new(opts, 0, false);
    for node in nodes {
        w.block_start(2);
        w.node(node);
    }
    let out = w.finish();
    // Only a `]` or a `<` can start what `defuse_text` defuses: text
    // without either (most pages) is not copied character by character.
    if opts.markdown || memchr::memchr2(b']', b'<', out.as_bytes()).is_none() {
        out
    } else {
        escape::defuse_text(&out)
    }
}

/// Elements whose content starts and ends a block.
pub(crate) fn is_block(name: &str) -> bool {
    matches!(
        name,
        "p" | "div"
            | "section"
            | "article"
            | "main"
            | "header"
            | "footer"
            | "aside"
            | "nav"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "ul"
            | "ol"
            | "li"
            | "table"
            | "tr"
            | "td"
            | "th"
            | "thead"
            | "tbody"
            | "tfoot"
            | "caption"
            | "pre"
            | "blockquote"
            | "hr"
            | "dl"
            | "dt"
            | "dd"
            | "figure"
            | "figcaption"
            | "form"
            | "address"
            | "details"
            | "summary"
            | "center"
            | "fieldset"
            | "body"
            | "html"
            | "hgroup"
            | "menu"
            | "picture"
            | "video"
            | "audio"
    )
}

/// Elements never rendered: their text is not content.
pub(crate) fn is_skipped(name: &str) -> bool {
    matches!(
        name,
        "script"
            | "style"
            | "template"
            | "noscript"
            | "iframe"
            | "object"
            | "embed"
            | "svg"
            | "canvas"
            | "head"
            | "title"
            | "meta"
            | "link"
            | "input"
            | "select"
            | "option"
            | "textarea"
            | "source"
            | "track"
            | "map"
            | "area"
            | "dialog"
    )
}

pub(crate) struct Writer<'o, 'a> {
    out: String,
    opts: &'o RenderOptions<'a>,
    depth: usize,
    /// Blank lines wanted before the next text: 0, 1 (newline) or 2 (blank line).
    need: u8,
    space: bool,
    leading_space: bool,
    /// Inside a list item: nested lists follow without a blank line.
    tight: bool,
    /// Inside a table cell or heading: blocks become spaces.
    inline_only: bool,
    /// Emphasis markers already open around this writer: `<b>` inside `<b>`
    /// adds no second `**`.
    open_marks: u8,
    /// Columns of indentation and quote prefix that the lists and quotes
    /// around this writer give each of its lines.
    indent: usize,
    /// The line so far is one word of digits: a `.` glued to it from the
    /// next text node would make an ordered-list marker.
    line_digits: bool,
}

impl<'o, 'a> Writer<'o, 'a> {
    pub(crate) fn new(opts: &'o RenderOptions<'a>, depth: usize, tight: bool) -> Self {
        Self {
            out: String::new(),
            opts,
            depth,
            need: 0,
            space: false,
            leading_space: false,
            tight,
            inline_only: false,
            open_marks: 0,
            indent: 0,
            line_digits: false,
        }
    }

    fn sub(&self, tight: bool) -> Writer<'o, 'a> {
        let mut w = Writer::new(self.opts, self.depth + 1, tight);
        w.inline_only = self.inline_only;
        w.open_marks = self.open_marks;
        w.indent = self.indent;
        w
    }

    /// A writer for the content of a list item or a quote whose lines get
    /// `columns` more of indentation or prefix.
    fn nested_sub(&self, tight: bool, columns: usize) -> Writer<'o, 'a> {
        let mut w = self.sub(tight);
        w.indent = self.indent + columns;
        w
    }

    /// Whether a list or quote adding `columns` to every line would pass
    /// [`MAX_INDENT`]: then it adds nothing.
    fn at_indent_cap(&self, columns: usize) -> bool {
        self.indent + columns > MAX_INDENT
    }

    pub(crate) fn inline_sub(&self) -> Writer<'o, 'a> {
        let mut w = Writer::new(self.opts, self.depth + 1, false);
        w.inline_only = true;
        w.open_marks = self.open_marks;
        w.indent = self.indent;
        w
    }

    pub(crate) fn finish(mut self) -> String {
        let end = self.out.trim_end().len();
        self.out.truncate(end);
        self.out
    }

    fn block_start(&mut self, n: u8) {
        if self.inline_only {
            self.space = true;
            return;
        }
        self.need = self.need.max(n);
        self.space = false;
    }

    fn flush_break(&mut self) {
        if self.out.is_empty() {
            self.need = 0;
            return;
        }
        if self.need > 0 {
            let end = self.out.trim_end_matches([' ', '\t']).len();
            self.out.truncate(end);
            let have = self.out.len() - self.out.trim_end_matches('\n').len();
            for _ in have..self.need as usize {
                self.out.push('\n');
            }
            self.need = 0;
            self.space = false;
        }
    }

    /// Ends a pending break or space before inline content; says whether
    /// that content starts a line.
    fn begin_inline(&mut self) -> bool {
        self.flush_break();
        if self.space && !self.out.is_empty() && !self.out.ends_with(['\n', ' ']) {
            self.out.push(' ');
        }
        self.space = false;
        self.line_digits = false;
        self.out.is_empty() || self.out.ends_with('\n')
    }

    /// Writes text that is already formatted (markup included), as inline content.
    fn raw_inline(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        self.begin_inline();
        // The page's `!` right before a link of ours would turn the link
        // into an image loading the link's URL.
        if self.opts.markdown && s.starts_with('[') && self.out.ends_with('!') {
            self.out.pop();
            self.out.push_str("\\!");
        }
        self.out.push_str(s);
    }

    /// Writes one word of the page's text: escaped in Markdown, so that it
    /// shows as the characters it is and forms no markup (issue #11).
    fn word(&mut self, word: &str, open_end: bool) {
        if !self.opts.markdown {
            self.raw_inline(word);
            return;
        }
        let digits_before = self.line_digits;
        let line_start = self.begin_inline();
        if digits_before
            && matches!(word, "." | ")")
            && self.out.ends_with(|c: char| c.is_ascii_digit())
        {
            self.out.push('\\');
        }
        escape::escape_word(word, line_start, open_end, &mut self.out);
        self.line_digits =
            line_start && word.len() <= 9 && word.bytes().all(|b| b.is_ascii_digit());
    }

    /// Writes a finished block (a list, a table, a code block).
    fn raw_block(&mut self, s: &str, before: u8) {
        if s.is_empty() {
            return;
        }
        if self.inline_only {
            self.space = true;
            self.raw_inline(&s.replace('\n', " "));
            self.space = true;
            return;
        }
        self.block_start(before);
        self.flush_break();
        self.out.push_str(s);
        self.need = 2;
    }

    fn text(&mut self, t: &str) {
        // Zero-width characters are not ASCII: an ASCII text (most) holds
        // none, said by one look at the whole text, not one per word.
        let ascii = t.is_ascii();
        let mut rest = t;
        let mut first = true;
        loop {
            // The words between HTML spaces, read by bytes (every space
            // but the no-break space is one ASCII byte): as `split` on
            // `is_html_space` gives them, empty ones included.
            let (word, after) = match next_html_space(rest.as_bytes()) {
                Some((at, len)) => (&rest[..at], Some(&rest[at + len..])),
                None => (rest, None),
            };
            // The last word of a node may be continued by the next node.
            let open_end = after.is_none();
            if !first {
                if self.out.is_empty() && self.need == 0 {
                    self.leading_space = true;
                }
                self.space = true;
            }
            first = false;
            if !word.is_empty() {
                let word = if ascii {
                    Cow::Borrowed(word)
                } else {
                    strip_invisible(word)
                };
                if !word.is_empty() {
                    self.word(&word, open_end);
                }
            }
            match after {
                Some(after) => rest = after,
                None => break,
            }
        }
    }

    fn children(&mut self, node: &NodeRef<'_>) {
        let mut after_styled_span = false;
        for child in node.children_it(false) {
            // `<span class="value">1,124</span><span class="label">knee
            // replacements</span>`: a style sheet lays such spans out as
            // blocks; without a space the two words would run together.
            let styled_span = is_styled_span(&child);
            if styled_span && after_styled_span {
                self.space = true;
            }
            after_styled_span = styled_span;
            self.node(&child);
        }
    }

    pub(crate) fn node(&mut self, node: &NodeRef<'_>) {
        if self.opts.deadline.passed() {
            return;
        }
        // A text node's contents are read in place, not copied out.
        let is_text = node.query_or(false, |n| {
            let NodeData::Text { contents } = &n.data else {
                return false;
            };
            self.text(contents);
            true
        });
        if is_text {
            return;
        }
        if !node.is_element() {
            if node.is_document() || node.is_fragment() {
                self.children(node);
            }
            return;
        }
        let Some(name) = node.node_name() else {
            return;
        };
        let name: &str = &name;
        if is_skipped(name) || (!self.opts.images && crate::inner::is_image_caption(node)) {
            return;
        }
        if self.depth > MAX_DEPTH {
            self.flat(node);
            return;
        }
        match name {
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => self.heading(node, name),
            "p" => {
                self.block_start(2);
                self.children(node);
                self.block_start(2);
            }
            "br" => {
                if self.inline_only {
                    self.space = true;
                } else {
                    self.flush_break();
                    if !self.out.is_empty() {
                        self.need = self.need.max(1);
                    }
                }
            }
            "hr" => {
                if self.opts.markdown {
                    self.raw_block("---", 2);
                } else {
                    self.block_start(2);
                }
            }
            "ul" | "ol" | "menu" => self.list(node, name == "ol"),
            "pre" => self.pre(node),
            "blockquote" => self.blockquote(node),
            "table" => table::render_table(self, node),
            "strong" | "b" => self.wrap_inline(node, "**"),
            "em" | "i" | "cite" | "dfn" => self.wrap_inline(node, "*"),
            "del" | "s" | "strike" => self.wrap_inline(node, "~~"),
            "code" | "kbd" | "samp" | "tt" => self.code_inline(node),
            "a" => self.link(node),
            "img" => self.image(node),
            "math" => self.math(node),
            "dl" => {
                if !table::render_pairs(self, node) {
                    self.block_start(2);
                    self.children(node);
                    self.block_start(2);
                }
            }
            "dt" => {
                self.block_start(2);
                self.wrap_inline(node, "**");
                self.block_start(1);
            }
            "dd" => {
                self.block_start(1);
                self.children(node);
                self.block_start(2);
            }
            "li" => {
                // A stray list item outside a list: still a block.
                self.block_start(1);
                self.children(node);
                self.block_start(1);
            }
            "td" | "th" => {
                self.children(node);
                self.space = true;
            }
            "tr" => {
                self.block_start(1);
                self.children(node);
                self.block_start(1);
            }
            _ if is_block(name) => {
                self.block_start(2);
                self.children(node);
                self.block_start(2);
            }
            _ => self.children(node),
        }
    }

    /// Renders everything below `node` as plain text, with an explicit stack
    /// instead of recursion.
    fn flat(&mut self, node: &NodeRef<'_>) {
        let mut stack: Vec<NodeRef<'_>> = node.children_it(true).collect();
        while let Some(d) = stack.pop() {
            if d.is_text() {
                let t = d.text();
                self.text(&t);
                continue;
            }
            let Some(n) = d.node_name() else {
                continue;
            };
            if is_skipped(&n) || (!self.opts.images && crate::inner::is_image_caption(&d)) {
                continue;
            }
            if &*n == "math" {
                if let Some(f) = math::formula(&d) {
                    self.text(&f.text);
                }
                continue;
            }
            if is_block(&n) || &*n == "br" {
                self.block_start(1);
            }
            stack.extend(d.children_it(true));
        }
    }

    fn heading(&mut self, node: &NodeRef<'_>, name: &str) {
        let mut w = self.inline_sub();
        w.children(node);
        let text = w.finish();
        if text.is_empty() {
            return;
        }
        let level = name.as_bytes()[1] - b'0';
        // A heading inside a table cell or caption is the line's words:
        // `#` marks a heading only at the start of a line.
        let s = if self.opts.markdown && !self.inline_only {
            format!(
                "{} {}",
                "#".repeat(level as usize),
                escape_closing_hashes(&text)
            )
        } else {
            text
        };
        self.raw_block(&s, 2);
    }

    fn wrap_inline(&mut self, node: &NodeRef<'_>, marker: &str) {
        let mark = match marker {
            "**" => 1,
            "*" => 2,
            _ => 4,
        };
        if !self.opts.markdown || self.open_marks & mark != 0 {
            self.children(node);
            return;
        }
        let mut w = self.sub(self.tight);
        w.open_marks |= mark;
        w.children(node);
        let (leading, trailing) = (w.leading_space, w.space);
        let inner = w.finish();
        if inner.is_empty() {
            if leading || trailing {
                self.space = true;
            }
            return;
        }
        if inner.contains('\n') {
            // Emphasis cannot span blocks in Markdown: keep the blocks.
            self.raw_block(&inner, 2);
            return;
        }
        if leading {
            self.space = true;
        }
        self.raw_inline(&format!("{marker}{inner}{marker}"));
        if trailing {
            self.space = true;
        }
    }

    fn code_inline(&mut self, node: &NodeRef<'_>) {
        if !self.opts.markdown {
            self.children(node);
            return;
        }
        let text = collapse_ws(&node.text());
        if text.is_empty() {
            return;
        }
        let run = longest_run(&text, '`');
        let fence = "`".repeat(run + 1);
        let pad = if text.starts_with('`') || text.ends_with('`') {
            " "
        } else {
            ""
        };
        self.raw_inline(&format!("{fence}{pad}{text}{pad}{fence}"));
    }

    fn link(&mut self, node: &NodeRef<'_>) {
        let href = node.attr("href");
        let url = href.as_deref().and_then(|h| self.opts.resolver.link(h));
        if !self.opts.markdown || !self.opts.links || url.is_none() {
            self.children(node);
            return;
        }
        let mut w = self.sub(self.tight);
        w.children(node);
        let (leading, trailing) = (w.leading_space, w.space);
        let inner = w.finish();
        if inner.is_empty() {
            return;
        }
        if inner.contains('\n') {
            self.raw_block(&inner, 2);
            return;
        }
        if leading {
            self.space = true;
        }
        let url = url.unwrap_or_default();
        // `inner` is rendered page text, escaped already.
        self.raw_inline(&format!("[{inner}]({})", escape::escape_url(&url)));
        if trailing {
            self.space = true;
        }
    }

    fn image(&mut self, node: &NodeRef<'_>) {
        if !self.opts.images {
            return;
        }
        let alt = collapse_ws(&node.attr("alt").unwrap_or_default());
        if !self.opts.markdown {
            if !alt.is_empty() {
                self.space = true;
                self.raw_inline(&alt);
                self.space = true;
            }
            return;
        }
        let src = node
            .attr("src")
            .or_else(|| node.attr("data-src"))
            .and_then(|s| self.opts.resolver.image(&s));
        let Some(src) = src else {
            return;
        };
        self.space = true;
        self.raw_inline(&format!(
            "![{}]({})",
            escape::escape_inline(&alt),
            escape::escape_url(&src)
        ));
        self.space = true;
    }

    /// A formula (see `math.rs`): TeX between `$` signs in Markdown (`$$`
    /// on a line of its own for a displayed one), its words otherwise.
    fn math(&mut self, node: &NodeRef<'_>) {
        let Some(f) = math::formula(node) else {
            return;
        };
        let display = math::is_display(node);
        if self.opts.markdown && f.tex {
            let tex = math::markdown_tex(&f.text);
            if display {
                self.raw_block(&format!("${tex}$"), 2);
            } else {
                self.raw_inline(&tex);
            }
            return;
        }
        if display {
            self.block_start(2);
        }
        self.text(&f.text);
        if display {
            self.block_start(2);
        }
    }

    fn list(&mut self, node: &NodeRef<'_>, ordered: bool) {
        let start: usize = node
            .attr("start")
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(1)
            // CommonMark list numbers have at most nine digits.
            .min(MAX_LIST_NUMBER);
        // Past the cap, a list adds neither indentation nor markers: its
        // items are lines of the item around it. (Markers without the
        // indentation would end that item at the next line, and a code
        // block in it would be read as Markdown.)
        let width = if ordered && self.opts.markdown {
            format!("{start}. ").len()
        } else {
            2
        };
        let capped = self.at_indent_cap(width);
        // Items as (marker, body), indented once all are known: a list
        // written straight inside a list (`<ol><li>A</li><ol>…</ol></ol>`,
        // as many editors and TOC generators write it) is a sub-list of the
        // item before it, not an item of its own.
        let mut items: Vec<(String, String)> = Vec::new();
        let mut n = start;
        for child in node.children_it(false) {
            let name = child.node_name();
            let is_li = name.as_deref() == Some("li");
            let mut w = self.nested_sub(true, if capped { 0 } else { width });
            if is_li {
                w.children(&child);
            } else {
                w.node(&child);
            }
            let body = w.finish();
            if body.is_empty() {
                continue;
            }
            if matches!(name.as_deref(), Some("ul" | "ol" | "menu"))
                && let Some((_, prev)) = items.last_mut()
            {
                prev.push('\n');
                prev.push_str(&body);
                continue;
            }
            let marker = if ordered && self.opts.markdown {
                format!("{n}. ")
            } else {
                "- ".to_string()
            };
            n = (n + 1).min(MAX_LIST_NUMBER);
            items.push((marker, body));
        }
        if items.is_empty() {
            return;
        }
        if self.inline_only {
            // A list in a table cell: its items on the cell's one line,
            // apart by `;` unless they end in punctuation of their own
            // ("an optional caption,").
            let mut line = String::new();
            for (_, body) in items {
                if !line.is_empty() {
                    if !line.ends_with([',', ';', '.', ':']) {
                        line.push(';');
                    }
                    line.push(' ');
                }
                line.push_str(&body.replace('\n', " "));
            }
            self.space = true;
            self.raw_inline(&line);
            self.space = true;
            return;
        }
        let items: Vec<String> = items
            .into_iter()
            .map(|(marker, body)| {
                if capped {
                    body
                } else {
                    indent_item(&marker, &body)
                }
            })
            .collect();
        let before = if self.tight { 1 } else { 2 };
        self.raw_block(&items.join("\n"), before);
        if self.tight {
            self.need = 1;
        }
    }

    fn pre(&mut self, node: &NodeRef<'_>) {
        let mut code = String::new();
        pre_text(node, &mut code);
        let code = strip_invisible(code.trim_matches('\n'));
        if code.trim().is_empty() {
            return;
        }
        if !self.opts.markdown {
            self.raw_block(&code, 2);
            return;
        }
        let lang = code_language(node).unwrap_or_default();
        let fence = "`".repeat(longest_run(&code, '`').max(2) + 1);
        self.raw_block(&format!("{fence}{lang}\n{code}\n{fence}"), 2);
    }

    fn blockquote(&mut self, node: &NodeRef<'_>) {
        // Past the cap, a quote adds no further `> ` to every line.
        let capped = !self.opts.markdown || self.at_indent_cap(2);
        let mut w = self.nested_sub(false, if capped { 0 } else { 2 });
        w.children(node);
        let body = w.finish();
        if body.is_empty() {
            return;
        }
        if capped {
            self.raw_block(&body, 2);
            return;
        }
        let quoted: Vec<String> = body
            .lines()
            .map(|l| {
                if l.is_empty() {
                    ">".to_string()
                } else {
                    format!("> {l}")
                }
            })
            .collect();
        self.raw_block(&quoted.join("\n"), 2);
    }

    pub(crate) fn markdown(&self) -> bool {
        self.opts.markdown
    }

    /// Whether this writer writes one line (a table cell, a heading).
    pub(crate) fn inline_only(&self) -> bool {
        self.inline_only
    }

    /// Renders `node`'s content on one line (for table cells).
    pub(crate) fn cell(&self, node: &NodeRef<'_>) -> String {
        let mut w = self.inline_sub();
        w.children(node);
        w.finish()
    }

    /// Renders `node`'s content as blocks (for layout tables).
    pub(crate) fn blocks_of(&mut self, node: &NodeRef<'_>) {
        self.block_start(2);
        self.children(node);
        self.block_start(2);
    }

    pub(crate) fn push_block(&mut self, s: &str) {
        self.raw_block(s, 2);
    }
}

fn is_styled_span(n: &NodeRef<'_>) -> bool {
    n.node_name().as_deref() == Some("span")
        && n.attr("class").is_some_and(|c| !c.trim().is_empty())
}

fn indent_item(marker: &str, body: &str) -> String {
    let pad = " ".repeat(marker.len());
    let mut out = String::with_capacity(body.len() + marker.len());
    for (i, line) in body.lines().enumerate() {
        if i == 0 {
            out.push_str(marker);
            out.push_str(line);
        } else {
            out.push('\n');
            if !line.is_empty() {
                out.push_str(&pad);
                out.push_str(line);
            }
        }
    }
    out
}

/// The text of a `<pre>`, whitespace kept, `<br>` as a newline, iteratively.
fn pre_text(node: &NodeRef<'_>, out: &mut String) {
    for d in node.descendants_it() {
        if d.is_text() {
            out.push_str(&d.text());
        } else if d.node_name().as_deref() == Some("br") {
            out.push('\n');
        }
    }
}

/// The language a code block names in its classes (`language-rust`,
/// `lang-js`, `highlight-source-python`, `brush: js`) or `data-lang`.
fn code_language(pre: &NodeRef<'_>) -> Option<String> {
    let mut candidates = vec![*pre];
    if let Some(code) = pre.first_element_child() {
        candidates.push(code);
    }
    if let Some(parent) = pre.parent() {
        candidates.push(parent);
    }
    for n in candidates {
        for attr in ["data-lang", "data-language"] {
            if let Some(v) = n.attr(attr)
                && let Some(l) = clean_lang(&v)
            {
                return Some(l);
            }
        }
        let class = n.attr("class").unwrap_or_default();
        for c in class.split_ascii_whitespace() {
            for prefix in [
                "language-",
                "lang-",
                "highlight-source-",
                "highlight-",
                "brush:",
            ] {
                if let Some(rest) = c.strip_prefix(prefix)
                    && let Some(l) = clean_lang(rest)
                {
                    return Some(l);
                }
            }
        }
    }
    None
}

fn clean_lang(s: &str) -> Option<String> {
    let s = s.trim().trim_end_matches(';').to_ascii_lowercase();
    let ok = !s.is_empty()
        && s.len() <= 20
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '#' | '-' | '_' | '.'));
    (ok && s != "none" && s != "text" && s != "plaintext").then_some(s)
}

pub(crate) fn longest_run(s: &str, c: char) -> usize {
    let (mut best, mut cur) = (0, 0);
    for ch in s.chars() {
        if ch == c {
            cur += 1;
            best = best.max(cur);
        } else {
            cur = 0;
        }
    }
    best
}

/// A heading's text ending in ` #` would lose those `#`s as a closing
/// sequence: escape the first of them.
fn escape_closing_hashes(text: &str) -> String {
    let body = text.trim_end_matches('#');
    if body.len() == text.len() || !(body.is_empty() || body.ends_with(' ')) {
        return text.to_string();
    }
    format!("{body}\\{}", &text[body.len()..])
}

/// HTML's whitespace plus the no-break space, which pages use as a spacer.
fn is_html_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c' | '\u{a0}')
}

/// Where the first [`is_html_space`] character of `b` (UTF-8) starts, and
/// its length in bytes. The no-break space is the only one beyond ASCII:
/// its first byte, 0xC2, only ever starts a character.
fn next_html_space(b: &[u8]) -> Option<(usize, usize)> {
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0c => return Some((i, 1)),
            0xc2 if b.get(i + 1) == Some(&0xa0) => return Some((i, 2)),
            _ => i += 1,
        }
    }
    None
}

/// Zero-width characters hide or split words: dropped from the output.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{feff}' | '\u{ad}'
    )
}

/// Whether `s` holds a zero-width character ([`is_invisible`]). All of
/// them are outside ASCII, so ASCII text is answered without a look at
/// its characters.
fn has_invisible(s: &str) -> bool {
    !s.is_ascii() && s.contains(is_invisible)
}

/// `s` without its zero-width characters: `s` itself when it holds none,
/// as nearly every word does (a copy of each word rendered was over half
/// the cost of writing the text).
pub(crate) fn strip_invisible(s: &str) -> Cow<'_, str> {
    if has_invisible(s) {
        Cow::Owned(s.chars().filter(|c| !is_invisible(*c)).collect())
    } else {
        Cow::Borrowed(s)
    }
}

/// Whitespace runs collapsed to one space, trimmed.
pub(crate) fn collapse_ws(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split(is_html_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    if has_invisible(&out) {
        out.retain(|c| !is_invisible(c));
    }
    out
}
