//! The bitboards: black, white, empty, legal and the flips of the selected move, then the concepts
//! players reason with (the opponent's replies, stable and frontier discs, potential mobility, the
//! odd regions, the corners' status: [`crate::board::concepts`]), each in hex (the board's width,
//! `a1` the most significant bit) and as an N x N grid of bits in `a1..` order. The bits of the
//! selected move and its flips are highlighted (reversed) in every grid.

use crate::tui::app::{Mask, Model};
use crate::tui::theme::Theme;
use crate::{board::bitboard::Bitboard, board::size::Size};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::{Block, Borders, Widget};

/// The bitboards widget.
pub(crate) struct BitboardsWidget<'a> {
    /// The model drawn.
    pub model: &'a Model,
    /// The styles.
    pub theme: Theme,
}

/// The width of one grid: bits separated by spaces, or the hex text if wider.
fn tile_width(size: Size) -> u16 {
    let grid = 2 * size.n() as u16 - 1;
    grid.max(size.hex_digits() as u16 + 2).max(8)
}

/// Rows the widget needs to show every mask with its grid in `width` columns (borders included).
pub(crate) fn full_height(size: Size, width: u16) -> u16 {
    let per_row = ((width.saturating_sub(2) + 2) / (tile_width(size) + 2)).max(1);
    let rows = (Mask::ALL.len() as u16).div_ceil(per_row);
    2 + rows * (2 + size.n() as u16) + rows.saturating_sub(1)
}

/// Lines a mask takes in the list form at `width` (borders included): 1 when its name (9 columns)
/// and its hex fit side by side, else 2.
pub(crate) fn list_lines(size: Size, width: u16) -> u16 {
    if width.saturating_sub(2) >= 9 + size.hex_digits() as u16 + 2 { 1 } else { 2 }
}

/// Rows the list form needs at `width` (borders included), with the grids under it.
pub(crate) fn list_height(size: Size, width: u16) -> u16 {
    2 + Mask::ALL.len() as u16 * list_lines(size, width) + 1 + size.n() as u16
}

impl BitboardsWidget<'_> {
    fn label(&self, mask: Mask) -> String {
        match (mask, self.model.selected()) {
            (Mask::Flips, Some(sq)) => format!("flips {sq}"),
            (Mask::Flips, None) => "flips -".to_string(),
            (m, _) => m.name().to_string(),
        }
    }

    /// Draws the masks into `area`: every grid when there is room, else every hex value and as
    /// many grids as fit.
    pub fn render(self, area: Rect, buf: &mut Buffer) {
        let m = self.model;
        let t = self.theme;
        let size = m.position().size();
        // The whole title where it fits, else its first word: never a word cut.
        let title = [" bitboards · a1 = top bit ", " bitboards "]
            .into_iter()
            .find(|title| title.chars().count() + 2 <= area.width as usize)
            .unwrap_or("");
        let block = Block::default().borders(Borders::ALL).border_style(t.border(false)).title(title);
        let inner = block.inner(area);
        block.render(area, buf);
        if inner.width < 4 || inner.height < 2 {
            return;
        }
        let selected = m.flips() | m.selected().map_or(Bitboard::empty(size), |sq| Bitboard::from_square(size, sq));
        let tw = tile_width(size);
        let n = size.n() as u16;
        let per_row = ((inner.width + 2) / (tw + 2)).max(1) as usize;
        if full_height(size, area.width) <= area.height {
            for (i, mask) in Mask::ALL.iter().enumerate() {
                let x = inner.x + (i % per_row) as u16 * (tw + 2);
                let y = inner.y + (i / per_row) as u16 * (n + 3);
                buf.set_stringn(x, y, self.label(*mask), tw as usize, t.heading());
                buf.set_stringn(x, y + 1, m.mask(*mask).hex(), tw as usize, t.text());
                self.grid(m.mask(*mask), selected, x, y + 2, buf, inner);
            }
            return;
        }
        // Compact: every hex value on its own line, then grids side by side.
        let name_w = 9u16;
        // A name and its hex on a line when they fit, else on two.
        let lines = list_lines(size, area.width);
        for (i, mask) in Mask::ALL.iter().enumerate() {
            let y = inner.y + i as u16 * lines;
            if y + lines > inner.bottom() {
                return;
            }
            let (hx, hy, name_room) =
                if lines == 1 { (inner.x + name_w, y, name_w) } else { (inner.x, y + 1, inner.width) };
            buf.set_stringn(inner.x, y, self.label(*mask), name_room as usize, t.heading());
            buf.set_stringn(hx, hy, m.mask(*mask).hex(), (inner.right() - hx) as usize, t.text());
        }
        let top = inner.y + Mask::ALL.len() as u16 * lines;
        if top + 1 + n > inner.bottom() {
            return;
        }
        let gw = 2 * n - 1;
        let per_row = ((inner.width + 2) / (gw + 2)) as usize;
        // Grids in order of interest: the flips and legal moves first.
        let first = [Mask::Flips, Mask::Legal, Mask::Black, Mask::White, Mask::Empty];
        let order: Vec<Mask> = first.into_iter().chain(Mask::ALL.into_iter().filter(|m| !first.contains(m))).collect();
        for (i, mask) in order.iter().take(per_row).enumerate() {
            let x = inner.x + i as u16 * (gw + 2);
            buf.set_stringn(x, top, mask.name(), gw as usize, t.label());
            self.grid(m.mask(*mask), selected, x, top + 1, buf, inner);
        }
    }

    fn grid(&self, mask: Bitboard, selected: Bitboard, x: u16, y: u16, buf: &mut Buffer, clip: Rect) {
        let t = self.theme;
        for (r, row) in mask.binary_rows().iter().enumerate() {
            let yy = y + r as u16;
            if yy >= clip.bottom() {
                return;
            }
            for (c, bit) in row.chars().enumerate() {
                let xx = x + 2 * c as u16;
                if xx >= clip.right() {
                    break;
                }
                let sq = crate::board::square::Square::new(c, r).expect("on board");
                let style = if selected.contains(sq) {
                    t.bit_highlight()
                } else if bit == '1' {
                    t.bit_on()
                } else {
                    t.bit_off()
                };
                buf.set_string(xx, yy, bit.to_string(), style);
            }
        }
    }
}
