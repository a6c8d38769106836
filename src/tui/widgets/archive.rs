//! The archive panel (`A`, in place of the bitboards): for the position on screen, every move
//! the archive's games played, with its games, share, results from black's side (wins, draws,
//! losses, as shares of the games with a result), the games whose result is unknown (`?`: they
//! do not end on the board), the mean final score of those with one, and the engine's value of the same move beside it, so a popular
//! move that loses (`✗`: a share of 15% or more, 4 discs or more below the engine's best) and a
//! rare one that is best (`★`) stand out. Moves the engine knows and the games never played follow,
//! with no games.

use crate::solver::ValueText;
use crate::tui::app::Model;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::{Block, Borders, Widget};

/// Draws the panel into `area`.
pub fn render(m: &Model, t: Theme, area: Rect, buf: &mut Buffer) {
    let stats = m.archive_stats();
    let title = match &stats {
        Some(s) => {
            format!(" archive · {} · A closes ", crate::notation::printable::count(i64::from(s.games), "game", "games"))
        }
        None => " archive · A closes ".to_string(),
    };
    let block = Block::default().borders(Borders::ALL).border_style(t.border(false)).title(title);
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.height == 0 {
        return;
    }
    if inner.width < 20 {
        // Too narrow for the table (80x24): say where the games are instead of showing nothing.
        let note = "too narrow for the table: :games lists the games, a wider terminal shows it";
        for (i, line) in
            crate::notation::printable::wrap(note, inner.width as usize).iter().take(inner.height as usize).enumerate()
        {
            buf.set_stringn(inner.x, inner.y + i as u16, line, inner.width as usize, t.dim());
        }
        return;
    }
    let width = inner.width as usize;
    let Some(s) = stats else {
        for (i, line) in
            crate::notation::printable::wrap(&m.archive_note(), width).iter().take(inner.height as usize).enumerate()
        {
            buf.set_stringn(inner.x, inner.y + i as u16, line, width, t.dim());
        }
        return;
    };
    let hidden = m.values_hidden();
    // The engine's best value known (exact or estimated), for the marks.
    let best = if hidden || m.position().must_pass() {
        None
    } else {
        m.position().legal_moves().reading_order().into_iter().filter_map(|sq| m.child_score(sq)).map(|s| s.value).max()
    };
    let header = " move  games share  black draw white   ?  mean  engine";
    buf.set_stringn(inner.x, inner.y, header, width, t.label());
    let total = f64::from(s.games.max(1));
    let mut rows: Vec<(String, ratatui::style::Style)> = Vec::new();
    for mv in &s.moves {
        let Some(sq) = mv.square else { continue };
        let share = f64::from(mv.games) / total;
        let engine = m.child_score(sq).filter(|_| !hidden);
        let value =
            engine.map_or(String::new(), |e| format!("{}", ValueText { score: m.shown_value(e.value), kind: e.kind }));
        let pct = |k: u32| mv.share_of_decided(k).map_or("   -".to_string(), |v| format!("{v:>3.0}%"));
        let (flag, style) = match (engine, best) {
            (Some(e), Some(b)) if e.value == b && share < 0.05 => ("★", t.best()),
            (Some(e), Some(b)) if e.value == b => ("★", t.text()),
            (Some(e), Some(b)) if share >= 0.15 && e.value <= b - 4 => ("✗", t.error()),
            _ => (" ", t.text()),
        };
        rows.push((
            format!(
                " {sq:<4}{:>6} {:>4.0}%  {} {} {} {:>3} {:>5}  {flag}{value}",
                mv.games,
                share * 100.0,
                pct(mv.black_wins),
                pct(mv.draws),
                pct(mv.white_wins),
                mv.unknown(),
                mv.mean_score().map_or("-".to_string(), |v| format!("{v:+.1}"))
            ),
            style,
        ));
    }
    // The engine's moves the archive never saw.
    if !m.position().must_pass() {
        for sq in m.position().legal_moves().reading_order() {
            if s.moves.iter().any(|mv| mv.square == Some(sq)) {
                continue;
            }
            let engine = m.child_score(sq).filter(|_| !hidden);
            let value = engine
                .map_or(String::new(), |e| format!("{}", ValueText { score: m.shown_value(e.value), kind: e.kind }));
            let flag = if engine.zip(best).is_some_and(|(e, b)| e.value == b) { "★" } else { " " };
            rows.push((
                format!(
                    " {sq:<4}{:>6} {:>5}  {:>4} {:>4} {:>4} {:>3} {:>5}  {flag}{value}",
                    0, "-", "-", "-", "-", "-", "-"
                ),
                t.dim(),
            ));
        }
    }
    let room = inner.height.saturating_sub(2) as usize;
    for (i, (row, style)) in rows.iter().take(room).enumerate() {
        buf.set_stringn(inner.x, inner.y + 1 + i as u16, crate::notation::printable::fit(row, width), width, *style);
    }
    let legend = if s.ended > 0 {
        format!(
            "ended here: {} · black/draw/white: shares of the games with a result · ?: result unknown · mean: from black's side",
            s.ended
        )
    } else {
        "black/draw/white: shares of the games with a result · ?: result unknown (not finished, none stated) · mean: from black's side · ★ the engine's best · ✗ popular, loses"
            .to_string()
    };
    let y = inner.y + inner.height - 1;
    buf.set_stringn(inner.x, y, crate::notation::printable::fit(&legend, width), width, t.dim());
}
