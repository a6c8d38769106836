//! The children table: every legal move with its value (best first) and how many discs it flips;
//! the best moves starred. A value says what it is: `+12` exact (bold), `W` / `L` / `D` a proven
//! outcome, `+12 @14` an estimate by a search 14 plies deep (plain italic; `+12 @14 95%` a
//! selective one, the columns then narrowed around it), `?` nothing yet.

use crate::board::square::Square;
use crate::solver::ValueText;
use crate::tui::app::{Model, ScoreKind, SolverState};
use crate::tui::theme::Theme;
use crate::tui::tree::Edge;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget};
use std::cmp::Reverse;

/// The usual width of the score column: `+12 @14`.
const SCORE_W: usize = 7;

/// The columns of the table: the move's name, the score, the flips (widths, in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Columns {
    name: usize,
    score: usize,
    flips: usize,
}

impl Columns {
    /// The columns for `width` characters, the widest score `widest` and the longest name
    /// `names`: name 4, score 7 and flips 5 (20 in all) for `+12 @14`; a wider score (a selective
    /// estimate, `-12 @22 95%`) takes the name's padding first and then the room the flips do not
    /// need (two digits at most), so no value is ever cut. Flips 0: no room for them.
    fn fit(width: usize, widest: usize, names: usize) -> Columns {
        let score = widest.max(SCORE_W);
        let name = if score <= SCORE_W { names.max(4) } else { names.max(2) };
        // A space, the name, a space, the score, the star, a space, the flips.
        let flips = width.saturating_sub(name + score + 4).min(5);
        Columns { name, score, flips: if flips >= 2 { flips } else { 0 } }
    }

    /// The heading line: `move`, the score's heading over the end of the scores and `flips`
    /// over the end of the flips (moved left to keep a space between them).
    fn heading(self, score: &str) -> String {
        let row = self.name + self.score + 2 + if self.flips > 0 { self.flips + 2 } else { 1 };
        let flips_at = row.saturating_sub(5);
        let score_end = (self.name + self.score + 2).min(if self.flips > 0 { flips_at - 1 } else { row });
        let mut line = format!(" move{}{score}", " ".repeat(score_end.saturating_sub(5 + score.chars().count())));
        if self.flips > 0 {
            line.push_str(&" ".repeat(flips_at.saturating_sub(line.chars().count())));
            line.push_str("flips");
        }
        line
    }
}

/// The score column's heading: `score` (from the side to move), or `black` when the values are
/// shown from black's side.
fn score_heading(m: &Model) -> &'static str {
    if m.value_side().is_some() { "black" } else { "score" }
}

/// The children table widget.
pub(crate) struct ChildrenWidget<'a> {
    /// The model drawn.
    pub model: &'a Model,
    /// The styles.
    pub theme: Theme,
}

/// One row: the edge, its score if proven, flips, whether it is a best move.
struct Row {
    edge: Edge,
    score: Option<(i32, ScoreKind)>,
    flips: u32,
    best: bool,
}

impl ChildrenWidget<'_> {
    /// Draws the table into `area` and returns each row's rectangle with its edge.
    pub fn render(self, area: Rect, buf: &mut Buffer) -> Vec<(Rect, Edge)> {
        let m = self.model;
        let t = self.theme;
        let p = m.position();
        let state = m.solver_state();
        let title = match state {
            SolverState::Exact { .. } => " moves · exact ".to_string(),
            SolverState::Solving { proven, total, phase, .. } => {
                format!(" {} ", super::bars::solving_text(proven, total, phase, state.estimate()))
            }
            SolverState::NotSolved { proven, total, .. } => format!(" unproven {proven}/{total} "),
            SolverState::Paused { proven, total, .. } => format!(" paused {proven}/{total} "),
            SolverState::GameOver => " moves ".to_string(),
        };
        let block = Block::default().borders(Borders::ALL).border_style(t.border(false)).title(title);
        let inner = block.inner(area);
        block.render(area, buf);
        if inner.height == 0 || inner.width < 8 {
            return Vec::new();
        }
        let mut rows: Vec<Row> = Vec::new();
        let hidden = m.values_hidden();
        if p.must_pass() {
            let score = m.pass_score().filter(|_| !hidden).map(|s| (s.value, s.kind));
            rows.push(Row { edge: Edge::Pass, score, flips: 0, best: true });
        } else {
            let best = if hidden { Vec::new() } else { m.best_moves() };
            for sq in p.legal_moves().reading_order() {
                let score = m.child_score(sq).filter(|_| !hidden).map(|s| (s.value, s.kind));
                rows.push(Row { edge: Edge::Move(sq), score, flips: p.flips(sq).count(), best: best.contains(&sq) });
            }
            // Best first, as the analysis ranks them (`PositionValues::rank_key`: exact and estimated
            // values by score, a proven outcome by its sign and its last estimate, an exact value
            // before an equal one that is not, then equal values by the deepest earlier estimate
            // that tells them apart), then in reading order; moves
            // without a value last.
            let key = |sq: Square| m.analysis().and_then(|a| a.value(sq).map(|c| a.rank_key(&c)));
            rows.sort_by_cached_key(|r| match (r.edge, r.score) {
                (Edge::Move(sq), Some(_)) => (0, Reverse(key(sq))),
                _ => (1, Reverse(None)),
            });
        }
        let shown: Vec<(String, Style)> = rows
            .iter()
            .map(|row| match row.score.map(|(v, kind)| (m.shown_value(v), kind)) {
                Some((score, kind)) => {
                    let style = match kind {
                        ScoreKind::Exact if row.best => t.best(),
                        ScoreKind::Exact => t.exact(),
                        ScoreKind::Wld => t.outcome(),
                        ScoreKind::Estimate { .. } => t.estimate(),
                    };
                    (ValueText { score, kind }.to_string(), style)
                }
                None => ("?".to_string(), t.unproven()),
            })
            .collect();
        let name = |edge: Edge| match edge {
            Edge::Move(sq) => sq.to_string(),
            Edge::Pass => "pass".to_string(),
        };
        let widest = shown.iter().map(|(s, _)| s.chars().count()).max().unwrap_or(0);
        let names = rows.iter().map(|r| name(r.edge).chars().count()).max().unwrap_or(0);
        let cols = Columns::fit(inner.width as usize, widest, names);
        let header = Line::from(vec![Span::styled(cols.heading(score_heading(m)), t.label())]);
        buf.set_line(inner.x, inner.y, &header, inner.width);
        if rows.is_empty() {
            let text = match m.final_score() {
                Some(_) => " game over",
                None => " no moves",
            };
            buf.set_string(inner.x, inner.y + 1, text, t.dim());
            return Vec::new();
        }
        let visible = (inner.height - 1) as usize;
        let selected = rows.iter().position(|r| matches!(r.edge, Edge::Move(sq) if sq == m.cursor)).unwrap_or(0);
        let first = if selected >= visible { selected + 1 - visible } else { 0 };
        let mut hits = Vec::new();
        // A short legend at the foot, when the rows leave room for it.
        let legend = [
            ("+4", "exact  ★ best", t.exact()),
            ("+4 @d", "estimate", t.estimate()),
            ("W D L", "proven", t.outcome()),
            ("", if m.value_side().is_some() { "values for black" } else { "for side to move" }, t.dim()),
        ];
        let legend_h = legend.len() as u16 + 1;
        if inner.height >= 1 + rows.len() as u16 + legend_h {
            let top = inner.bottom() - legend.len() as u16;
            for (k, (glyph, text, style)) in legend.iter().enumerate() {
                let glyph = if glyph.is_empty() { String::from(" ") } else { format!(" {glyph:<6}") };
                let line = Line::from(vec![Span::styled(glyph, *style), Span::styled(*text, t.dim())]);
                buf.set_line(inner.x, top + k as u16, &line, inner.width);
            }
        }
        for (i, row) in rows.iter().enumerate().skip(first).take(visible) {
            let y = inner.y + 1 + (i - first) as u16;
            let (score, score_style) = &shown[i];
            let star = if row.best && row.score.is_some() { "★" } else { " " };
            let flips = if row.edge == Edge::Pass || cols.flips == 0 { String::new() } else { row.flips.to_string() };
            let (nw, sw, fw) = (cols.name, cols.score, cols.flips);
            let line = Line::from(vec![
                Span::styled(format!(" {:<nw$} ", name(row.edge)), Style::new()),
                Span::styled(format!("{score:>sw$}"), *score_style),
                Span::styled(star.to_string(), t.best()),
                Span::styled(if fw > 0 { format!(" {flips:>fw$}") } else { String::new() }, Style::new()),
            ]);
            buf.set_line(inner.x, y, &line, inner.width);
            let rect = Rect::new(inner.x, y, inner.width, 1);
            if matches!(row.edge, Edge::Move(sq) if sq == m.cursor) || row.edge == Edge::Pass {
                buf.set_style(rect, t.selected());
            }
            hits.push((rect, row.edge));
        }
        hits
    }
}

#[cfg(test)]
mod tests {
    use super::Columns;

    #[test]
    fn the_columns_make_room_for_a_selective_estimate() {
        let usual = Columns::fit(20, 6, 2);
        assert_eq!(usual, Columns { name: 4, score: 7, flips: 5 });
        assert_eq!(usual.heading("score"), " move   score  flips");
        let wide = Columns::fit(20, "-12 @22 95%".len(), 2);
        assert_eq!(wide, Columns { name: 2, score: 11, flips: 3 });
        // A row: " c5 " + score + star + " 18": 20 in all; the heading as wide, its words apart.
        assert_eq!(1 + wide.name + 1 + wide.score + 1 + 1 + wide.flips, 20);
        assert_eq!(wide.heading("score"), " move    score flips");
        let ten = Columns::fit(20, "+0 @12 95%".len(), 2);
        assert_eq!((ten.score, ten.flips), (10, 4));
        assert_eq!(ten.heading("score"), " move    score flips");
        assert_eq!(Columns::fit(20, 4, 4).name, 4, "pass");
    }
}
