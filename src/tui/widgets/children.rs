//! The children table: every legal move with its value (best first) and how many discs it flips;
//! the best moves starred. A value says what it is: `+12` exact (bold), `W` / `L` / `D` a proven
//! outcome, `+12 @14` an estimate by a search 14 plies deep (plain italic), `?` nothing yet.

use crate::Square;
use crate::solver::{ValueText, outcome_letter};
use crate::tui::app::{Model, ScoreKind, SolverState};
use crate::tui::theme::Theme;
use crate::tui::tree::Edge;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget};
use std::cmp::Reverse;

/// The width of the score column: `+12 @14`.
const SCORE_W: usize = 7;

/// The score column's heading: `score` (from the side to move), or `black` when the values are
/// shown from black's side.
fn score_heading(m: &Model) -> &'static str {
    if m.value_side().is_some() { "black" } else { "score" }
}

/// The children table widget.
pub struct ChildrenWidget<'a> {
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
        let title = match m.solver_state() {
            SolverState::Exact { .. } => " moves · exact ".to_string(),
            SolverState::Solving { proven, total, phase, depth, .. } => {
                format!(" {} ", super::bars::solving_text(proven, total, phase, depth))
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
            // values by score, a proven outcome by its sign and its last estimate, equal values by
            // the deepest earlier estimate that tells them apart), then in reading order; moves
            // without a value last.
            let key = |sq: Square| m.analysis().and_then(|a| a.value(sq).map(|c| a.rank_key(&c)));
            rows.sort_by_cached_key(|r| match (r.edge, r.score) {
                (Edge::Move(sq), Some(_)) => (0, Reverse(key(sq))),
                _ => (1, Reverse(None)),
            });
        }
        let header = Line::from(vec![Span::styled(
            format!(" {:<4} {:>SCORE_W$}  {:>5}", "move", score_heading(m), "flips"),
            t.label(),
        )]);
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
            let name = match row.edge {
                Edge::Move(sq) => sq.to_string(),
                Edge::Pass => "pass".to_string(),
            };
            let (score, score_style) = match row.score.map(|(v, kind)| (m.shown_value(v), kind)) {
                Some((v, ScoreKind::Exact)) => (format!("{v:+}"), if row.best { t.best() } else { t.exact() }),
                Some((v, ScoreKind::Wld)) => (outcome_letter(v).to_string(), t.outcome()),
                Some((score, kind @ ScoreKind::Estimate { .. })) => {
                    (ValueText { score, kind }.to_string(), t.estimate())
                }
                None => ("?".to_string(), t.unproven()),
            };
            let star = if row.best && row.score.is_some() { "★" } else { " " };
            let flips = if row.edge == Edge::Pass { String::new() } else { row.flips.to_string() };
            let line = Line::from(vec![
                Span::styled(format!(" {name:<4} "), Style::new()),
                Span::styled(format!("{score:>SCORE_W$}"), score_style),
                Span::styled(star.to_string(), t.best()),
                Span::styled(format!(" {flips:>5}"), Style::new()),
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
