//! The score graph: the value along the line shown, from black's side (above the axis black is
//! ahead), one column per ply. Exact values are drawn `●`, estimates `∘`, unknown ones not at all;
//! the review's marks have the bottom row to themselves, under their move (`?!`, `?`, `??` when
//! proven, in the error colour; `~?` from estimates, dimmed; one cell wide, `?` or `~`), so a
//! mark never covers a point; the current ply's column is reversed. A click on a column goes to
//! that ply.

use crate::tui::app::Model;
use crate::tui::theme::Theme;
use crate::tui::tree::NodeId;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;

/// Rows the graph takes (a heading and the plot) in a tall panel.
pub(crate) const HEIGHT: u16 = 9;

/// The fewest rows of the compact graph (a heading and four rows of plot).
pub(crate) const MIN_HEIGHT: u16 = 5;

/// Draws the graph into `area` and returns each column's rectangle with its node.
pub fn render(m: &Model, t: Theme, area: Rect, buf: &mut Buffer) -> Vec<(Rect, NodeId)> {
    if area.height < 4 || area.width < 12 {
        return Vec::new();
    }
    let points = m.graph();
    let current = m.tree.current();
    let max = points.iter().filter_map(|p| p.value).map(i32::abs).max().unwrap_or(0).max(4);
    let heading = format!("graph · for black · ● exact ∘ estimate · ±{max}");
    buf.set_stringn(area.x, area.y, &heading, area.width as usize, t.label());
    // The points above, the marks' row below them.
    let plot = Rect::new(area.x, area.y + 1, area.width, area.height - 2);
    let marks_y = area.bottom() - 1;
    // Rows: the top is +max, the bottom -max, the middle row 0.
    let rows = plot.height as i32;
    let mid = plot.y as i32 + (rows - 1) / 2;
    let half = ((rows - 1) / 2).max(1);
    for x in plot.x..plot.right() {
        buf.set_string(x, mid as u16, "─", t.dim());
    }
    // One column per ply, two cells wide when there is room.
    let n = points.len().max(1);
    let step = (plot.width as usize / n).clamp(1, 2);
    let mut hits = Vec::new();
    // With more plies than columns, the last ones that fit (the current one among them).
    let fit = plot.width as usize / step;
    let cur_index = points.iter().position(|p| p.node == current).unwrap_or(0);
    let first = if points.len() > fit { (cur_index + 1).saturating_sub(fit).min(points.len() - fit) } else { 0 };
    for (k, p) in points.iter().enumerate().skip(first).take(fit) {
        let x = plot.x + ((k - first) * step) as u16;
        let column = Rect::new(x, plot.y, step as u16, plot.height + 1);
        if let Some(v) = p.value {
            let y = (mid - (v * half + v.signum() * (max / 2)) / max).clamp(plot.y as i32, plot.bottom() as i32 - 1);
            let (glyph, style) = if p.exact { ("●", t.exact()) } else { ("∘", t.estimate()) };
            buf.set_string(x, y as u16, glyph, style);
        }
        if let Some((mark, proven)) = m.mark(p.node).filter(|_| !m.values_hidden()) {
            let text = if step == 1 {
                if proven { "?".to_string() } else { "~".to_string() }
            } else {
                crate::studies::review::mark_text(mark, proven).chars().take(step).collect()
            };
            let style = if proven { t.error() } else { t.dim() };
            buf.set_string(x, marks_y, text, style);
        }
        if p.node == current {
            for y in plot.y..=marks_y {
                let cell = &mut buf[(x, y)];
                cell.set_style(cell.style().add_modifier(Modifier::REVERSED));
            }
        }
        hits.push((column, p.node));
    }
    hits
}
