//! The list of a file's games, over the board: the keys, the columns' heading, then one line a
//! game (number, result, length, players, first moves), the one chosen reversed, scrolled so it
//! shows.

use crate::tui::app::pick::Picker;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::widgets::{Block, Borders, Clear, Widget};

/// Draws the list centred over `area`.
pub fn render(t: Theme, p: &Picker, area: Rect, buf: &mut Buffer) {
    let w = area.width.saturating_sub(4).min(100);
    let h = area.height.saturating_sub(2).min(p.lines.len() as u16 + 4);
    let popup = Rect::new(area.x + (area.width - w) / 2, area.y + (area.height - h) / 2, w, h);
    Clear.render(popup, buf);
    let title = format!(" {} ", p.title);
    let block = Block::default().borders(Borders::ALL).border_style(t.border(true)).title(title);
    let inner = block.inner(popup);
    block.render(popup, buf);
    if inner.height < 3 {
        return;
    }
    let hint = if p.lines.len() < p.total {
        format!("↑↓ choose · Enter loads · Esc closes · the first {}; :load FILE N for the others", p.lines.len())
    } else {
        "↑↓ choose · Enter loads · Esc closes".to_string()
    };
    let width = inner.width.saturating_sub(1) as usize;
    buf.set_stringn(inner.x + 1, inner.y, crate::tui::widgets::fit(&hint, width), width, t.label());
    buf.set_stringn(inner.x + 1, inner.y + 1, crate::tui::widgets::fit(&p.header, width), width, t.dim());
    let rows = (inner.height - 2) as usize;
    let first = (p.selected + 1).saturating_sub(rows);
    for (i, line) in p.lines.iter().enumerate().skip(first).take(rows) {
        let y = inner.y + 2 + (i - first) as u16;
        let style = if i == p.selected { t.text().add_modifier(Modifier::REVERSED) } else { t.text() };
        let text = crate::tui::widgets::fit(line, inner.width.saturating_sub(1) as usize);
        buf.set_stringn(inner.x + 1, y, text, inner.width.saturating_sub(1) as usize, style);
    }
}
