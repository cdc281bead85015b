//! Tables: a grid that honours colspan and rowspan, written as a GFM table
//! (or as blocks when the table only lays the page out).
//!
//! A data table stays a table whatever its cells hold: a key/value infobox
//! (labels in `th` or short first cells) and a table with header cells keep
//! their columns even when a value holds a list or a table of its own,
//! which is flattened into the cell's one line. A one-column table of short
//! cells (a list of stages under a "Stages" header) is a one-column table:
//! as a list it would lose which row is the header, and the grid keeps the
//! rows apart just as well. One-column tables of long or block content,
//! and single cells, are boxes that lay the page out: their blocks are
//! written as blocks.

use dom_query::{Document, NodeRef};

use crate::render::Writer;

/// Spans beyond these are clamped: a hostile `colspan="100000000"` must not
/// allocate a huge grid.
const MAX_COLSPAN: usize = 50;
const MAX_ROWSPAN: usize = 500;
const MAX_CELLS: usize = 100_000;

struct Cell {
    text: String,
    header: bool,
}

/// A cell longer than this (in bytes of text) is a block of the page, not
/// a value: its table lays the page out.
const LONG_CELL: usize = 400;
/// A one-column table's cells up to this long are values (a list of names
/// or steps); longer ones are paragraphs laid out in a box.
const SHORT_CELL: usize = 200;
/// A key/value table's labels are at most this long ("Highest point").
const LABEL: usize = 40;

pub(crate) fn render_table(w: &mut Writer<'_, '_>, table: &NodeRef<'_>) {
    let rows = collect_rows(table);
    if w.inline_only() && !rows.is_empty() {
        // A table inside a table's cell (or a heading): its cells on the
        // one line, rows apart by `;`, never lost.
        let line: Vec<String> = rows
            .iter()
            .map(|r| {
                r.iter()
                    .map(|c| w.cell(c))
                    .filter(|t| !t.is_empty())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .filter(|l| !l.is_empty())
            .collect();
        w.push_block(&line.join("; "));
        return;
    }
    if is_layout(table, &rows) {
        for row in &rows {
            for cell in row {
                w.blocks_of(cell);
            }
        }
        return;
    }
    let caption = table
        .children_it(false)
        .find(|c| c.node_name().as_deref() == Some("caption"))
        .map(|c| w.cell(&c))
        .filter(|c| !c.is_empty());

    let grid = without_empty_columns(build_grid(w, &rows));
    let width = grid.iter().map(Vec::len).max().unwrap_or(0);
    if width == 0 {
        return;
    }
    // Every cell of a GFM table costs a few characters whether it holds
    // text or not: a mostly empty grid (500,000 `<td></td>` around a few
    // words) is written as lines instead, so the output stays a small
    // multiple of the table's text (issue #11).
    let filled = grid
        .iter()
        .flatten()
        .flatten()
        .filter(|c| !c.text.is_empty())
        .count();
    let sparse = filled.saturating_mul(4) < width.saturating_mul(grid.len());
    let mut out = String::new();
    if let Some(c) = caption {
        if w.markdown() {
            out.push_str(&format!("**{c}**\n\n"));
        } else {
            out.push_str(&c);
            out.push_str("\n\n");
        }
    }
    if w.markdown() && !sparse {
        let has_header = grid
            .first()
            .is_some_and(|r| r.iter().all(|c| c.as_ref().is_none_or(|c| c.header)));
        let mut body = grid.iter();
        if has_header {
            if let Some(first) = body.next() {
                push_row(&mut out, first, width);
            }
        } else {
            // GFM needs a header row; a key/value table has none of its own.
            push_row(&mut out, &[], width);
        }
        out.push_str("\n|");
        for _ in 0..width {
            out.push_str(" --- |");
        }
        for row in body {
            out.push('\n');
            push_row(&mut out, row, width);
        }
    } else {
        let lines: Vec<String> = grid
            .iter()
            .map(|r| {
                r.iter()
                    .flatten()
                    .map(|c| c.text.as_str())
                    .filter(|t| !t.is_empty())
                    .collect::<Vec<_>>()
                    .join(" | ")
            })
            .filter(|l| !l.is_empty())
            .collect();
        out.push_str(&lines.join("\n"));
    }
    w.push_block(out.trim_end());
}

/// A description list of short label/value pairs (`<dt>Length</dt><dd>268
/// miles</dd>`, a product's specifications, `<div>` groups allowed) written
/// in Markdown as a key/value table, as an infobox is. Returns false, writing nothing,
/// when `dl` is not one: a glossary's long definitions stay blocks.
pub(crate) fn render_pairs(w: &mut Writer<'_, '_>, dl: &NodeRef<'_>) -> bool {
    // Text keeps a label above its value: ` | ` between them would be one
    // more word to every reader of plain text.
    if w.inline_only() || !w.markdown() {
        return false;
    }
    let mut items: Vec<NodeRef<'_>> = Vec::new();
    for c in dl.children_it(false).filter(|c| c.is_element()) {
        match c.node_name().as_deref() {
            Some("dt" | "dd") => items.push(c),
            Some("div") => items.extend(c.children_it(false).filter(|g| g.is_element())),
            _ => return false,
        }
    }
    let is = |n: &NodeRef<'_>, name: &str| n.node_name().as_deref() == Some(name);
    let pairs = items.len() >= 4
        && items.len().is_multiple_of(2)
        && items.chunks(2).all(|p| {
            is(&p[0], "dt")
                && is(&p[1], "dd")
                && p[0].text().trim().len() <= LABEL
                && p[1].text().trim().len() <= SHORT_CELL
                && !has_blocks(&p[0])
                && !has_blocks(&p[1])
        });
    if !pairs {
        return false;
    }
    let rows: Vec<Vec<Option<Cell>>> = items
        .chunks(2)
        .map(|p| {
            p.iter()
                .map(|c| {
                    Some(Cell {
                        text: w.cell(c),
                        header: false,
                    })
                })
                .collect()
        })
        .collect();
    let mut out = String::new();
    push_row(&mut out, &[], 2);
    out.push_str("\n| --- | --- |");
    for row in &rows {
        out.push('\n');
        push_row(&mut out, row, 2);
    }
    w.push_block(&out);
    true
}

/// The grid without columns and rows in which no cell holds text.
fn without_empty_columns(grid: Vec<Vec<Option<Cell>>>) -> Vec<Vec<Option<Cell>>> {
    let width = grid.iter().map(Vec::len).max().unwrap_or(0);
    let mut used = vec![false; width];
    for row in &grid {
        for (i, cell) in row.iter().enumerate() {
            if cell.as_ref().is_some_and(|c| !c.text.is_empty()) {
                used[i] = true;
            }
        }
    }
    if used.iter().all(|&u| u) {
        return grid;
    }
    grid.into_iter()
        .map(|row| {
            row.into_iter()
                .enumerate()
                .filter(|(i, _)| used[*i])
                .map(|(_, c)| c)
                .collect::<Vec<_>>()
        })
        .filter(|row| row.iter().flatten().any(|c| !c.text.is_empty()))
        .collect()
}

fn push_row(out: &mut String, row: &[Option<Cell>], width: usize) {
    out.push('|');
    for i in 0..width {
        let text = row
            .get(i)
            .and_then(|c| c.as_ref())
            .map(|c| c.text.as_str())
            .unwrap_or("");
        out.push(' ');
        push_cell_text(out, text);
        out.push_str(" |");
    }
}

/// A cell's Markdown with every `|` not yet escaped escaped: page text
/// comes escaped already, code spans do not (GFM reads `\|` as `|` there too).
fn push_cell_text(out: &mut String, text: &str) {
    let mut prev = None;
    for c in text.chars() {
        if c == '|' && prev != Some('\\') {
            out.push('\\');
        }
        out.push(c);
        prev = Some(c);
    }
}

/// The table's own rows (not those of nested tables), in order.
fn collect_rows<'a>(table: &NodeRef<'a>) -> Vec<Vec<NodeRef<'a>>> {
    let mut rows = Vec::new();
    let mut push_row = |tr: &NodeRef<'a>| {
        let cells: Vec<NodeRef<'a>> = tr
            .children_it(false)
            .filter(|c| matches!(c.node_name().as_deref(), Some("td" | "th")))
            .collect();
        if !cells.is_empty() {
            rows.push(cells);
        }
    };
    for child in table.children_it(false) {
        match child.node_name().as_deref() {
            Some("tr") => push_row(&child),
            Some("thead" | "tbody" | "tfoot") => {
                for tr in child.children_it(false) {
                    if tr.node_name().as_deref() == Some("tr") {
                        push_row(&tr);
                    }
                }
            }
            _ => {}
        }
    }
    rows
}

/// A table used for layout: one column, or cells that hold tables or
/// several blocks of their own.
fn is_layout(table: &NodeRef<'_>, rows: &[Vec<NodeRef<'_>>]) -> bool {
    if rows.is_empty() {
        return false;
    }
    let text_len = |c: &NodeRef<'_>| c.text().trim().len();
    let long_cell = || rows.iter().flatten().any(|c| text_len(c) > LONG_CELL);
    if rows.iter().all(|r| r.len() <= 1) {
        // A list of short values, not a box around the page.
        let values = rows.len() >= 2
            && rows
                .iter()
                .flatten()
                .all(|c| text_len(c) <= SHORT_CELL && !has_blocks(c));
        return !values;
    }
    // Header cells in the table's own rows, or labels beside values: data,
    // whatever the values hold.
    let headed = rows
        .iter()
        .flatten()
        .any(|c| c.node_name().as_deref() == Some("th"));
    if (headed || is_key_value(rows)) && !long_cell() {
        return false;
    }
    let nested = table.descendants_it().any(|d| {
        matches!(
            d.node_name().as_deref(),
            Some("table" | "ul" | "ol" | "pre" | "blockquote" | "h1" | "h2" | "h3")
        ) && d.id != table.id
    });
    if nested {
        return true;
    }
    let long_cells = rows
        .iter()
        .flatten()
        .filter(|c| c.text().len() > 400)
        .count();
    long_cells > 0 && rows.len() < 3
}

/// Rows of labels beside values: two cells each, the first short and
/// without blocks of its own ("Highest point" | "Cross Fell").
fn is_key_value(rows: &[Vec<NodeRef<'_>>]) -> bool {
    rows.len() >= 2
        && rows
            .iter()
            .all(|r| r.len() == 2 && r[0].text().trim().len() <= LABEL && !has_blocks(&r[0]))
}

/// Whether `table` holds data rather than laying the page out: it has
/// header cells (`th`, `thead`), or is a key/value table (see
/// [`is_key_value`]) without long cells. Link density never removes one:
/// a sortable table's column titles and an infobox's values are links.
pub(crate) fn is_data_table(table: &NodeRef<'_>) -> bool {
    let rows = collect_rows(table);
    let headed = table
        .children_it(false)
        .any(|c| c.node_name().as_deref() == Some("thead"))
        || rows
            .iter()
            .flatten()
            .any(|c| c.node_name().as_deref() == Some("th"));
    headed || is_key_value_table(&rows)
}

/// Whether a table's own rows are labels beside values, none of them long.
fn is_key_value_table(rows: &[Vec<NodeRef<'_>>]) -> bool {
    is_key_value(rows)
        && !rows
            .iter()
            .flatten()
            .any(|c| c.text().trim().len() > LONG_CELL)
}

/// Marks the key/value tables of `doc` as data for dom_smoothie, which
/// takes a table of ten cells or fewer without header cells for layout and
/// cleans it like any block: an infobox whose values are links went whole
/// (issue #12). `summary` is the attribute it reads as "data"; nothing of
/// ours reads it, and the html format does not keep it.
pub(crate) fn mark_key_value_tables(doc: &Document) {
    for table in doc.select("table").nodes() {
        if is_key_value_table(&collect_rows(table)) {
            table.set_attr("summary", "");
        }
    }
}

/// Whether a cell holds blocks (paragraphs, lists, tables, headings) of
/// its own rather than a value.
fn has_blocks(cell: &NodeRef<'_>) -> bool {
    cell.descendants_it().any(|d| {
        matches!(
            d.node_name().as_deref(),
            Some(
                "p" | "table"
                    | "ul"
                    | "ol"
                    | "pre"
                    | "blockquote"
                    | "h1"
                    | "h2"
                    | "h3"
                    | "h4"
                    | "h5"
                    | "h6"
            )
        )
    })
}

fn span(cell: &NodeRef<'_>, attr: &str, max: usize) -> usize {
    cell.attr(attr)
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(1)
        .clamp(1, max)
}

fn build_grid(w: &Writer<'_, '_>, rows: &[Vec<NodeRef<'_>>]) -> Vec<Vec<Option<Cell>>> {
    let mut grid: Vec<Vec<Option<Cell>>> = Vec::with_capacity(rows.len());
    // Cells still spanning down into later rows: (column, rows left).
    let mut pending: Vec<usize> = Vec::new();
    let mut total = 0usize;
    for row in rows {
        let mut line: Vec<Option<Cell>> = Vec::new();
        let mut col = 0usize;
        let occupied = |col: usize, pending: &Vec<usize>| pending.get(col).is_some_and(|&n| n > 0);
        for cell in row {
            while occupied(col, &pending) {
                line.push(None);
                col += 1;
            }
            let header = cell.node_name().as_deref() == Some("th")
                || cell
                    .parent()
                    .and_then(|p| p.parent())
                    .and_then(|g| g.node_name())
                    .as_deref()
                    == Some("thead");
            let cs = span(cell, "colspan", MAX_COLSPAN);
            let rs = span(cell, "rowspan", MAX_ROWSPAN).min(rows.len());
            total += cs * rs;
            if total > MAX_CELLS {
                break;
            }
            line.push(Some(Cell {
                text: w.cell(cell),
                header,
            }));
            for extra in 0..cs {
                let c = col + extra;
                if extra > 0 {
                    line.push(None);
                }
                if pending.len() <= c {
                    pending.resize(c + 1, 0);
                }
                pending[c] = pending[c].max(rs);
            }
            col += cs;
        }
        while col < pending.len() && occupied(col, &pending) {
            line.push(None);
            col += 1;
        }
        for p in &mut pending {
            *p = p.saturating_sub(1);
        }
        grid.push(line);
        if total > MAX_CELLS {
            break;
        }
    }
    grid
}
