//! MathML (`<math>`) as text: a formula in a sentence is part of the
//! sentence ("the area is πr²"), and dropping it left gaps in the prose.
//!
//! A formula's text comes from, in order: the `alttext` attribute (what a
//! screen reader says; MediaWiki puts the TeX there), an
//! `<annotation encoding="application/x-tex">` (MathJax, KaTeX, LaTeXML and
//! MediaWiki all write one), or the formula's own tokens (`mi`, `mn`, `mo`,
//! `mtext`) joined, with `^`, `_` and `/` where the layout says so.

use dom_query::NodeRef;

/// A formula's text and whether it is TeX source (Markdown writes TeX
/// between `$` signs, where a math renderer reads it).
pub(crate) struct Formula {
    pub text: String,
    pub tex: bool,
}

/// The text of the `<math>` element `math`, or `None` when it has none.
pub(crate) fn formula(math: &NodeRef<'_>) -> Option<Formula> {
    let annotation = || {
        math.descendants_it().find(|d| {
            d.node_name().as_deref() == Some("annotation")
                && d.attr("encoding").is_some_and(|e| {
                    let e = e.trim().to_ascii_lowercase();
                    e == "application/x-tex" || e == "tex" || e == "latex"
                })
        })
    };
    let (text, tex) = if let Some(alt) = math.attr("alttext").filter(|a| !a.trim().is_empty()) {
        let alt = collapse(&alt);
        let tex = looks_like_tex(&alt);
        (alt, tex)
    } else if let Some(a) = annotation() {
        (collapse(&a.text()), true)
    } else {
        (tokens(math), false)
    };
    let text = if tex { unwrap_style(&text) } else { text };
    (!text.is_empty()).then_some(Formula { text, tex })
}

/// Whether `<math display="block">`: a formula on its own line.
pub(crate) fn is_display(math: &NodeRef<'_>) -> bool {
    math.attr("display")
        .is_some_and(|d| d.trim().eq_ignore_ascii_case("block"))
}

/// TeX as Markdown math (`$…$`), with what could end it early or turn into
/// other markup in a renderer that does not know math neutralised in TeX's
/// own terms: `$` escaped, `<` and `>` as `\lt` and `\gt`, a backtick as
/// TeX's grave accent, `](` (a link's middle) split by a space.
pub(crate) fn markdown_tex(tex: &str) -> String {
    let mut out = String::with_capacity(tex.len() + 2);
    out.push('$');
    let mut prev = ' ';
    let mut chars = tex.chars().peekable();
    while let Some(c) = chars.next() {
        // A control word ends at the first non-letter.
        let sep = if chars.peek().is_some_and(|n| n.is_ascii_alphabetic()) {
            " "
        } else {
            ""
        };
        match c {
            '$' if prev != '\\' => out.push_str("\\$"),
            '<' => {
                out.push_str("\\lt");
                out.push_str(sep);
            }
            '>' => {
                out.push_str("\\gt");
                out.push_str(sep);
            }
            '`' => out.push_str("\\`"),
            '(' if prev == ']' => out.push_str(" ("),
            _ => out.push(c),
        }
        prev = c;
    }
    // `$ x$` is not math to most renderers: no space inside the signs.
    let body = out[1..].trim().to_string();
    out.truncate(1);
    out.push_str(&body);
    out.push('$');
    out
}

/// Whether an `alttext` is TeX source rather than words: a control word
/// (`\frac`), a group (`{`) or a super- or subscript.
fn looks_like_tex(s: &str) -> bool {
    s.contains('\\') || s.contains('{') || s.contains('^') || s.contains('_')
}

/// TeX without MediaWiki's `{\displaystyle …}` wrapper, which every one of
/// its formulas carries and which says nothing about the formula.
fn unwrap_style(tex: &str) -> String {
    for style in ["\\displaystyle", "\\textstyle"] {
        if let Some(inner) = tex
            .strip_prefix('{')
            .and_then(|t| t.strip_suffix('}'))
            .and_then(|t| t.trim_start().strip_prefix(style))
        {
            return inner.trim().to_string();
        }
    }
    tex.to_string()
}

/// The formula's token elements' text, in order, with `^`, `_`, `/` and
/// `√` where scripts, fractions and roots put their parts, walked with a
/// stack. Annotations are left out: they repeat the formula in another
/// notation.
fn tokens(math: &NodeRef<'_>) -> String {
    enum Step<'a> {
        Node(NodeRef<'a>),
        Put(&'static str),
    }
    let mut out = String::new();
    let mut stack: Vec<Step<'_>> = vec![Step::Node(*math)];
    while let Some(step) = stack.pop() {
        let n = match step {
            Step::Put(s) => {
                out.push_str(s);
                continue;
            }
            Step::Node(n) => n,
        };
        if n.is_text() {
            continue;
        }
        let Some(name) = n.node_name() else {
            continue;
        };
        match &*name {
            "mi" | "mn" | "mtext" | "ms" => out.push_str(&collapse(&n.text())),
            "mo" => {
                let op = collapse(&n.text());
                if is_spaced_operator(&op) {
                    out.push(' ');
                    out.push_str(&op);
                    out.push(' ');
                } else {
                    out.push_str(&op);
                }
            }
            "annotation" | "annotation-xml" => {}
            _ => {
                let kids: Vec<NodeRef<'_>> =
                    n.children_it(false).filter(|c| c.is_element()).collect();
                let seps: &[&'static str] = match &*name {
                    "msup" => &["^"],
                    "msub" => &["_"],
                    "msubsup" => &["_", "^"],
                    "mfrac" => &["/"],
                    "mroot" => &["^(1/", ")"],
                    _ => &[],
                };
                if &*name == "msqrt" {
                    out.push('√');
                }
                // Reversed onto the stack: the first child comes off first.
                let mut steps: Vec<Step<'_>> = Vec::with_capacity(kids.len() * 2);
                for (i, k) in kids.into_iter().enumerate() {
                    if i > 0
                        && let Some(sep) = seps.get(i - 1)
                    {
                        steps.push(Step::Put(sep));
                    }
                    steps.push(Step::Node(k));
                }
                if &*name == "mroot"
                    && let Some(close) = seps.get(1)
                {
                    steps.push(Step::Put(close));
                }
                stack.extend(steps.into_iter().rev());
            }
        }
    }
    collapse(&out)
}

/// Operators read with a space either side ("a + b = c"); brackets,
/// commas and invisible operators are not.
fn is_spaced_operator(op: &str) -> bool {
    matches!(
        op,
        "+" | "-"
            | "−"
            | "="
            | "<"
            | ">"
            | "≤"
            | "≥"
            | "≠"
            | "≈"
            | "×"
            | "÷"
            | "±"
            | "→"
            | "⇒"
            | "∈"
            | "<="
            | ">="
    )
}

fn collapse(s: &str) -> String {
    crate::render::collapse_ws(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_math(html: &str) -> Option<Formula> {
        let doc = dom_query::Document::from(html);
        let m = doc.select("math").nodes().first().copied()?;
        formula(&m)
    }

    #[test]
    fn alttext_then_annotation_then_tokens() {
        let f = first_math(r#"<math alttext="x squared"><mi>y</mi></math>"#);
        assert_eq!(
            f.map(|f| (f.text, f.tex)),
            Some(("x squared".into(), false))
        );
        let f = first_math(
            r#"<math><semantics><mi>x</mi><annotation encoding="application/x-tex">{\displaystyle x^{2}}</annotation></semantics></math>"#,
        );
        assert_eq!(f.map(|f| (f.text, f.tex)), Some(("x^{2}".into(), true)));
        let f = first_math(
            "<math><mrow><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></mrow></math>",
        );
        assert_eq!(f.map(|f| f.text).as_deref(), Some("E = mc^2"));
        let f = first_math(
            "<math><mfrac><mn>1</mn><mn>2</mn></mfrac><mo>(</mo><msqrt><mi>x</mi></msqrt><mo>)</mo></math>",
        );
        assert_eq!(f.map(|f| f.text).as_deref(), Some("1/2(√x)"));
        assert!(first_math("<math></math>").is_none());
    }

    #[test]
    fn tex_cannot_break_out_of_its_dollars() {
        assert_eq!(markdown_tex(r"\pi r^2"), r"$\pi r^2$");
        assert_eq!(
            markdown_tex("a<b>c $x$ [t](javascript:x) `"),
            r"$a\lt b\gt c \$x\$ [t] (javascript:x) \`$"
        );
    }
}
