//! The `?` help overlay, generated from the key table and the command table, with the legend of
//! the board's glyphs.

use crate::tui::command::COMMANDS;
use crate::tui::keys::{self, Context};
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Widget};

/// What each kind of value looks like: the help's legend (the moves table shows a short one).
pub(crate) const LEGEND: &[(&str, &str)] = &[
    (
        "+4 -12",
        "exact score: the final disc difference under perfect play, bold; ★ the best, ✓ under it on the large board",
    ),
    (
        "+4 @14",
        "estimate from a 14-ply search, plain italic: not proven (@14 under it on the large board; the small board's title says ≈@14, ✓ exact, or ✓ and ≈)",
    ),
    (
        "+4 @14 95%",
        "the same with probable cutoffs at 95% confidence (the selectivity, % changes it; without a % it is 100%, full width; the board's title says ≈ 95%)",
    ),
    ("W D L", "proven win, draw or loss; the margin not known yet"),
    ("?", "a legal move the solver has not valued yet"),
    ("for", "values are for the side to move; v shows them for black (the moves table's heading says black)"),
];

/// Every line of the help, in order: the keys of the contexts under the help (`active`, the most
/// specific first, marked "now"), then every other context's, then the commands and the legend.
pub fn help_text(t: Theme, active: &[Context]) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for (context, on, entries) in keys::help_sections(active) {
        let heading = if on { format!("{} · now", context.name()) } else { context.name().to_string() };
        out.push(Line::from(Span::styled(heading, t.heading())));
        for (keys, text) in entries {
            labelled(&mut out, t, &keys, 19, text.to_string());
        }
    }
    out.push(Line::from(Span::styled("commands (after :)", t.heading())));
    for c in COMMANDS {
        labelled(&mut out, t, c.usage, 26, c.help.to_string());
    }
    out.push(Line::from(Span::styled("values (board, moves table, line)", t.heading())));
    for (glyph, text) in LEGEND {
        out.push(Line::from(vec![Span::styled(format!("  {glyph:<14}"), t.label()), Span::raw(*text)]));
    }
    out.push(Line::from(Span::styled("board", t.heading())));
    for (glyph, text) in [
        ("● ○", "black and white discs; · an empty square"),
        ("* / **", "the last move"),
        ("x / xx", "a disc the move under the cursor flips"),
        ("■", "a square of the mask drawn by o"),
        ("reversed", "cursor, current node, bits of the move and flips"),
    ] {
        out.push(Line::from(vec![Span::styled(format!("  {glyph:<14}"), t.label()), Span::raw(text)]));
    }
    out
}

/// A help line: `label` in a column of `width`, then `text`, at least two spaces apart; a label
/// that fills its column gets a line of its own and the text starts under the column, so the two
/// never read as one (`moves d3c3 | moves /f5d6c3 play a transcript`).
fn labelled(out: &mut Vec<Line<'static>>, t: Theme, label: &str, width: usize, text: String) {
    if label.chars().count() < width {
        out.push(Line::from(vec![Span::styled(format!("  {label:<width$} "), t.label()), Span::raw(text)]));
    } else {
        out.push(Line::from(Span::styled(format!("  {label}"), t.label())));
        out.push(Line::from(vec![Span::raw(" ".repeat(width + 3)), Span::raw(text)]));
    }
}

/// `lines` wrapped at word boundaries to `width` columns: a line of a label and a text keeps
/// the label and indents the text's further lines under the text's first.
pub fn wrapped(lines: Vec<Line<'static>>, width: usize) -> Vec<Line<'static>> {
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let [label, text] = &line.spans[..] else {
            out.push(line);
            continue;
        };
        let indent = label.content.chars().count();
        let room = width.saturating_sub(indent).max(10);
        let parts = super::wrap(&text.content, room);
        if parts.is_empty() {
            out.push(Line::from(vec![label.clone()]));
        }
        for (i, part) in parts.into_iter().enumerate() {
            let head = if i == 0 { label.clone() } else { Span::raw(" ".repeat(indent)) };
            out.push(Line::from(vec![head, Span::styled(part, text.style)]));
        }
    }
    out
}

/// Draws the help centred over `area`, scrolled by `scroll` lines, its text wrapped to the
/// width; returns the largest useful scroll.
pub fn render(t: Theme, active: &[Context], scroll: u16, area: Rect, buf: &mut Buffer) -> u16 {
    let w = area.width.saturating_sub(4).min(100);
    let lines = wrapped(help_text(t, active), w.saturating_sub(3) as usize);
    let h = area.height.saturating_sub(2).min(lines.len() as u16 + 2);
    let popup = Rect::new(area.x + (area.width - w) / 2, area.y + (area.height - h) / 2, w, h);
    Clear.render(popup, buf);
    let more = lines.len() as u16 > h.saturating_sub(2);
    let title = if more { " help · ↑↓ scroll · Esc or ? closes " } else { " help · Esc or ? closes " };
    let block = Block::default().borders(Borders::ALL).border_style(t.border(true)).title(title);
    let inner = block.inner(popup);
    block.render(popup, buf);
    let max_scroll = (lines.len() as u16).saturating_sub(inner.height);
    let first = scroll.min(max_scroll) as usize;
    for (i, line) in lines.iter().skip(first).take(inner.height as usize).enumerate() {
        buf.set_line(inner.x + 1, inner.y + i as u16, line, inner.width.saturating_sub(1));
    }
    max_scroll
}
