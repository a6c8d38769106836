//! The board: discs, the side to move, the cursor, legal moves with their scores, the last move,
//! the flips of the selected move, and the mask overlay.
//!
//! A square is four columns by one row (`Zoom::Compact`, the 80x24 layout), or four columns by
//! two rows (`Zoom::Large`) when there is room. Glyphs carry every meaning without colour:
//!
//! | glyph | compact | large |
//! | --- | --- | --- |
//! | black / white disc | `●` / `○` | `●●` / `○○` |
//! | empty square | `·` | `·` |
//! | legal move, not proven yet | `?` | `?` |
//! | legal move with its exact score | `+4`, `-12` in bold (best moves underlined) | `+12` in bold, `★` under best moves, `✓` under the others |
//! | legal move with a proven outcome | `W`, `D`, `L` | `W`, `D`, `L` |
//! | legal move with an estimate | `+4` in plain italic (never bold) | `+12` in plain italic, its depth under it (`@18`) |
//! | the estimates' depth and selectivity | in the title: `≈@18 95%` | the selectivity in the title: `≈ 95%` |
//! | last move | `●*` | `**` under the disc |
//! | disc the selected move flips | `●x` | `xx` under the disc |
//! | square in the drawn mask | `■` | `■■` |
//!
//! Every score is written with its sign (`+0` too, as the moves table writes it), two digits and
//! all, in both sizes, and a blank column keeps neighbouring scores apart: `-16 +12`, never
//! `-16+12`.

use crate::solver::Selectivity;
use crate::tui::app::{BoardGeometry, Model, ScoreKind};
use crate::tui::theme::Theme;
use crate::{board::size::Size, board::square::Square};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Borders, Widget};

/// How big a square is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zoom {
    /// Four columns by one row.
    Compact,
    /// Four columns by two rows.
    Large,
}

impl Zoom {
    /// Columns and rows of one square.
    pub const fn cell(self) -> (u16, u16) {
        match self {
            Zoom::Compact => (4, 1),
            Zoom::Large => (4, 2),
        }
    }
}

/// The board widget.
pub struct BoardWidget<'a> {
    /// The model drawn.
    pub model: &'a Model,
    /// The styles.
    pub theme: Theme,
    /// The square size.
    pub zoom: Zoom,
}

/// Width and height the bordered board needs for `size` at `zoom`.
pub(crate) const fn board_extent(size: Size, zoom: Zoom) -> (u16, u16) {
    let (cw, ch) = zoom.cell();
    let n = size.n() as u16;
    (2 + 3 + cw * n, 2 + 1 + ch * n)
}

/// A score right-aligned in three columns, always signed (scores are within ±64).
fn score_text(value: i32) -> String {
    format!("{value:>+3}")
}

impl BoardWidget<'_> {
    /// The compact board has no room under a value for its kind: the title says it in glyphs
    /// (`≈@16 95%` estimates, `✓` exact), so it survives without colour. The large board writes
    /// each estimate's depth under it (`@16`), and its title the selectivity when it prunes
    /// (`≈ 95%`).
    fn kinds_shown(&self) -> String {
        let m = self.model;
        if m.values_hidden() {
            return String::new();
        }
        let kinds: Vec<ScoreKind> = m
            .position()
            .legal_moves()
            .reading_order()
            .iter()
            .filter_map(|&sq| m.child_score(sq))
            .map(|s| s.kind)
            .collect();
        let estimates: Vec<ScoreKind> =
            kinds.iter().copied().filter(|k| matches!(k, ScoreKind::Estimate { .. })).collect();
        // The levels of the estimates shown, when one prunes: ` 95%` (one level, as it always is
        // but for a moment after a change).
        let mut levels: Vec<Selectivity> = estimates.iter().filter_map(|k| k.selectivity()).collect();
        levels.sort();
        levels.dedup();
        let levels = if levels.iter().all(|l| l.is_full()) {
            String::new()
        } else {
            format!(" {}", levels.iter().map(|l| l.to_string()).collect::<Vec<_>>().join("/"))
        };
        let deepest = estimates.iter().copied().max_by_key(|k| k.strength());
        if self.zoom == Zoom::Large {
            return if levels.is_empty() { String::new() } else { format!("· ≈{levels} ") };
        }
        match (kinds.iter().all(|k| *k == ScoreKind::Exact), deepest) {
            (true, _) if !kinds.is_empty() => "· ✓ exact ".to_string(),
            (_, Some(ScoreKind::Estimate { depth, selectivity })) if estimates.len() == kinds.len() => {
                match levels.matches('/').count() {
                    // One level: the deepest estimate's label says it (`≈@12 95%`).
                    0 => {
                        format!("· ≈{} ", ScoreKind::Estimate { depth, selectivity }.depth_label().unwrap_or_default())
                    }
                    _ => format!("· ≈@{depth}{levels} "),
                }
            }
            (_, Some(_)) => format!("· ✓ and ≈{levels} "),
            _ => String::new(),
        }
    }

    /// Draws the board into `area` (clipped if too small) and returns where the squares went.
    pub fn render(self, area: Rect, buf: &mut Buffer) -> Option<BoardGeometry> {
        let m = self.model;
        let t = self.theme;
        let p = m.position();
        let size = p.size();
        let n = size.n() as u16;
        let (cw, ch) = self.zoom.cell();
        let title = if p.is_game_over() {
            " game over ".to_string()
        } else if p.must_pass() {
            format!(" {} must pass ", p.to_move())
        } else {
            let disc = if p.to_move() == crate::board::position::Color::Black { '●' } else { '○' };
            let kinds = self.kinds_shown();
            let title = format!(" {disc} {} to move {kinds}", p.to_move());
            // The 4x4 board's narrow title keeps the values' kinds, without "to move".
            if title.chars().count() + 2 <= area.width as usize {
                title
            } else {
                format!(" {disc} {} {kinds}", p.to_move())
            }
        };
        let block = Block::default().borders(Borders::ALL).border_style(t.border(false)).title(title);
        let inner = block.inner(area);
        block.render(area, buf);
        if inner.width < 3 + cw * n || inner.height < 1 + ch * n {
            return None;
        }
        let ox = inner.x + 3;
        let oy = inner.y + 1;
        // Coordinates.
        for c in 0..n {
            let letter = ((b'a' + c as u8) as char).to_string();
            let x = ox + c * cw + if self.zoom == Zoom::Compact { 2 } else { 1 };
            buf.set_string(x, inner.y, letter, t.label());
        }
        for r in 0..n {
            buf.set_string(inner.x, oy + r * ch, format!("{:>2}", r + 1), t.label());
        }
        let squares = Rect::new(ox, oy, cw * n, ch * n);
        buf.set_style(squares, t.board());
        let legal = p.legal_moves();
        let flips = m.flips();
        let hidden = m.values_hidden();
        let best = if hidden { Vec::new() } else { m.best_moves() };
        let last = m.last_move();
        let overlay = m.board_mask();
        for sq in Square::all(size) {
            let x = ox + sq.col() as u16 * cw;
            let y = oy + sq.row() as u16 * ch;
            let cell = Rect::new(x, y, cw, ch);
            let black = p.black().contains(sq);
            let white = p.white().contains(sq);
            let mut top: (String, Style);
            let mut bottom: (String, Style) = ("    ".into(), Style::new());
            let mut mark_cell: Option<(String, Style)> = None;
            if black || white {
                let (glyph, style) = if black { ('●', t.black_disc()) } else { ('○', t.white_disc()) };
                let (mark, mark_style, word) = if flips.contains(sq) {
                    ('x', t.flip(), " xx ")
                } else if last == Some(sq) {
                    ('*', t.last_move(), " ** ")
                } else {
                    (' ', style, "    ")
                };
                match self.zoom {
                    Zoom::Compact => {
                        top = (format!("  {glyph} "), style);
                        mark_cell = Some((mark.to_string(), mark_style));
                    }
                    Zoom::Large => {
                        top = (format!(" {glyph}{glyph} "), style);
                        bottom = (word.to_string(), mark_style);
                    }
                }
            } else if legal.contains(sq) {
                match m.child_score(sq).filter(|_| !hidden) {
                    Some(score) => {
                        let is_best = best.contains(&sq);
                        let style = match score.kind {
                            ScoreKind::Exact if is_best => t.best(),
                            ScoreKind::Exact => t.exact(),
                            ScoreKind::Wld => t.outcome(),
                            ScoreKind::Estimate { .. } => t.estimate(),
                        };
                        let value = m.shown_value(score.value);
                        let text = match score.kind {
                            ScoreKind::Wld => format!("{:>3}", crate::solver::outcome_letter(value)),
                            _ => score_text(value),
                        };
                        // A blank column before the next square keeps the numbers apart.
                        top = (if self.zoom == Zoom::Large { format!("{text} ") } else { format!(" {text}") }, style);
                        // The large board says what the value is under it, in glyphs.
                        bottom = match score.kind {
                            ScoreKind::Exact if is_best => (" ★  ".into(), t.best()),
                            ScoreKind::Exact => (" ✓  ".into(), t.exact()),
                            // The depth alone (`@12`): the title says the selectivity.
                            ScoreKind::Estimate { depth, .. } => (format!("{:<4}", format!("@{depth}")), t.estimate()),
                            ScoreKind::Wld => ("    ".into(), t.outcome()),
                        };
                    }
                    None => {
                        let text = if self.zoom == Zoom::Large { "  ? " } else { "   ?" };
                        top = (text.into(), t.unproven());
                    }
                }
            } else {
                let text = "  · ";
                top = (text.into(), t.empty());
            }
            if let Some(mask) = overlay {
                if mask.contains(sq) {
                    top = (if self.zoom == Zoom::Large { " ■■ " } else { "  ■ " }.into(), t.overlay());
                    bottom = (" ■■ ".into(), t.overlay());
                    mark_cell = None;
                } else {
                    top.1 = top.1.add_modifier(Modifier::DIM);
                    bottom.1 = bottom.1.add_modifier(Modifier::DIM);
                }
            }
            buf.set_string(x, y, &top.0, top.1);
            if let Some((mark, style)) = mark_cell {
                buf.set_string(x + 3, y, mark, style);
            }
            if self.zoom == Zoom::Large {
                buf.set_string(x, y + 1, &bottom.0, bottom.1);
            }
            if m.cursor == sq {
                buf.set_style(cell, t.cursor());
            }
        }
        Some(BoardGeometry { squares, cell_width: cw, cell_height: ch })
    }
}
