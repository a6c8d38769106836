//! The one-line bars (title, status, key bar) and the info panel under the board.

use crate::board::position::{Color, Position};
use crate::solver::{Kind, Phase};
use crate::tui::app::{Model, Overlay, SolverState};
use crate::tui::keys;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget};
use std::time::Duration;

/// A count with a k/M/G suffix: `1.2M`.
pub(crate) fn si(n: f64) -> String {
    match n {
        n if n >= 1e9 => format!("{:.1}G", n / 1e9),
        n if n >= 1e6 => format!("{:.1}M", n / 1e6),
        n if n >= 1e3 => format!("{:.1}k", n / 1e3),
        n => format!("{n:.0}"),
    }
}

fn rate(nodes: u64, elapsed: Duration) -> String {
    let s = elapsed.as_secs_f64();
    if s > 0.0 && nodes > 0 { format!("{} n/s", si(nodes as f64 / s)) } else { "- n/s".to_string() }
}

/// The solver's state in words: the state (`exact ✓`, `solving 2/4`, `not solved yet`), its
/// details (nodes, nodes per second, time), and whether it is exact.
pub(crate) fn solver_parts(m: &Model) -> (String, Vec<String>, bool) {
    if m.editor().is_some() {
        return ("editing: nothing analysed".into(), Vec::new(), false);
    }
    let state = m.solver_state();
    let estimate = state.estimate();
    match state {
        SolverState::GameOver => ("game over".into(), Vec::new(), true),
        // Proven without a search of this run: every child came from the store or the book.
        SolverState::Exact { nodes: 0, .. } => ("exact ✓".into(), vec!["from the store".to_string()], true),
        SolverState::Exact { nodes, elapsed } => (
            "exact ✓".into(),
            vec![format!("{} nodes", si(nodes as f64)), rate(nodes, elapsed), format!("{:.2}s", elapsed.as_secs_f64())],
            true,
        ),
        SolverState::Solving { proven, total, phase, nodes, elapsed, counted, .. } => (
            solving_text(proven, total, phase, estimate),
            vec![format!("{} nodes", si(nodes as f64)), rate(nodes, counted), format!("{:.1}s", elapsed.as_secs_f64())],
            false,
        ),
        SolverState::Paused { proven, total, .. } => {
            let known = estimate.map_or(String::new(), |kind| format!(" · {}", kind.long_label()));
            (format!("paused (z resumes){known}, exact {proven}/{total}"), Vec::new(), false)
        }
        SolverState::NotSolved { proven, total, .. } => match estimate {
            Some(kind) => (format!("{}, exact {proven}/{total}", kind.long_label()), Vec::new(), false),
            None => (format!("not solved yet {proven}/{total}"), Vec::new(), false),
        },
    }
}

/// What a running search is doing: `estimating @12 95%` (the deepest `estimate` so far),
/// `proving W/L/D 1/4`, `solving 2/4`.
pub(crate) fn solving_text(proven: usize, total: usize, phase: Option<Phase>, estimate: Option<Kind>) -> String {
    match phase {
        Some(Phase::Estimate) => match estimate.and_then(Kind::depth_label) {
            Some(label) => format!("estimating {label}"),
            None => "estimating".to_string(),
        },
        Some(Phase::Wld) => format!("proving W/L/D · exact {proven}/{total}"),
        Some(Phase::Exact) | None => format!("solving {proven}/{total}"),
    }
}

/// The solver's state on one line.
pub(crate) fn solver_text(m: &Model) -> (String, bool) {
    let (state, details, exact) = solver_parts(m);
    let mut text = state;
    for d in details {
        text.push_str(" · ");
        text.push_str(&d);
    }
    (text, exact)
}

fn disc(c: Color) -> char {
    match c {
        Color::Black => '●',
        Color::White => '○',
    }
}

fn side_text(p: &Position) -> String {
    if p.is_game_over() {
        "game over".into()
    } else if p.must_pass() {
        format!("{} {} must pass", disc(p.to_move()), p.to_move())
    } else {
        format!("{} {} to move", disc(p.to_move()), p.to_move())
    }
}

/// The title bar: name, size, ply, side to move, discs, empties, solver state.
pub fn title(m: &Model, t: Theme, area: Rect, buf: &mut Buffer) {
    let p = m.position();
    let ply = m.tree.depth(m.tree.current());
    let counts = format!("● {} ○ {} · {} empty", p.black().count(), p.white().count(), p.empty_count());
    // Longest first: the header shortens, dropping the least needed parts, before it would cut
    // or drop the solver's state on the right.
    let lefts = [
        format!(" othello-explorer · {} · ply {ply} · {} · {counts} ", p.size(), side_text(&p)),
        format!(" {} · ply {ply} · {} · {counts} ", p.size(), side_text(&p)),
        format!(" {} · ply {ply} · {} ", p.size(), side_text(&p)),
        format!(" ply {ply} · {} ", side_text(&p)),
    ];
    let (solver, _) = solver_text(m);
    // While the engine thinks in a game, that comes first, with the time it has taken.
    let thinking = m.engine_thinking().map_or(String::new(), |(spent, budget)| {
        format!("engine thinks {:.1}s of {:.1}s · ", spent.as_secs_f64(), budget.as_secs_f64())
    });
    let rights = [
        format!(" {thinking}{solver} "),
        format!(" {thinking}{} ", solver_parts(m).0),
        if thinking.is_empty() { String::new() } else { format!(" {} ", thinking.trim_end_matches(" · ")) },
    ];
    let width = area.width as usize;
    let fits = |l: &String, r: &String| l.chars().count() + r.chars().count() <= width;
    // The order of preference: the counts before the solver's details (the position panel shows
    // both), the solver's state before the program's name.
    let order = [(0, 0), (1, 0), (0, 1), (1, 1), (2, 0), (2, 1), (3, 1), (3, 2)];
    let (left, right) = order
        .iter()
        .map(|&(l, r)| (&lefts[l], &rights[r]))
        .find(|(l, r)| fits(l, r))
        .unwrap_or((&lefts[3], &rights[2]));
    buf.set_style(area, t.key());
    buf.set_stringn(area.x, area.y, left, width, t.key());
    let w = right.chars().count() as u16;
    if w > 0 {
        buf.set_string(area.right() - w, area.y, right, t.key());
    }
}

/// The info panel under the board.
pub fn info(m: &Model, t: Theme, area: Rect, buf: &mut Buffer) {
    let block = Block::default().borders(Borders::ALL).border_style(t.border(false)).title(" position ");
    let inner = block.inner(area);
    block.render(area, buf);
    let p = m.position();
    let mut lines: Vec<Line> = Vec::new();
    lines.push(Line::from(Span::styled(side_text(&p), t.heading())));
    lines.push(Line::from(format!("● {}  ○ {}  {} empty", p.black().count(), p.white().count(), p.empty_count())));
    if let Some(name) = m.opening() {
        // Wrapped: an opening's name is never cut (`Central Rose-Bill / Dead Draw`).
        for part in crate::notation::printable::wrap(&format!("opening: {name}"), inner.width as usize) {
            lines.push(Line::from(Span::styled(part, t.label())));
        }
    }
    if let Some(score) = m.final_score() {
        let verdict = match score.signum() {
            1 => format!("black wins by {score}"),
            -1 => format!("white wins by {}", -score),
            _ => "a draw".to_string(),
        };
        lines.push(Line::from(Span::styled(verdict, t.best())));
    } else if let Some(score) = m.best_score().filter(|_| !m.values_hidden()) {
        let who = m.value_side().unwrap_or(p.to_move());
        let score = m.shown_value(score);
        lines.push(Line::from(Span::styled(format!("value {score:+} for {who}"), t.exact())));
    }
    let (state, details, exact) = if p.is_game_over() { (String::new(), Vec::new(), true) } else { solver_parts(m) };
    let style = if exact { t.exact() } else { t.unproven() };
    if !state.is_empty() {
        for part in crate::studies::trace::wrap(&format!("solver {state}"), inner.width as usize) {
            lines.push(Line::from(Span::styled(part, style)));
        }
    }
    let joined = details.join(" · ");
    if !joined.is_empty() && joined.chars().count() + 2 <= inner.width as usize {
        lines.push(Line::from(Span::styled(format!("  {joined}"), t.dim())));
    } else if details.len() == 3 {
        lines.push(Line::from(Span::styled(format!("  {} · {}", details[0], details[2]), t.dim())));
        lines.push(Line::from(Span::styled(format!("  {}", details[1]), t.dim())));
    }
    match m.selected() {
        Some(sq) => {
            let flips = m.flips();
            let names: Vec<String> = flips.reading_order().iter().map(|s| s.to_string()).collect();
            let text = format!("cursor {sq} flips {}: {}", flips.count(), names.join(" "));
            lines.push(Line::from(crate::notation::printable::fit(&text, inner.width as usize)));
        }
        None if p.must_pass() => lines.push(Line::from("Enter passes")),
        None => lines.push(Line::from(Span::styled(format!("cursor {} (no move)", m.cursor), t.dim()))),
    }
    let auto = match m.auto() {
        Some(_) => format!("auto-play ▶ {:.1}s", m.config.auto_delay.as_secs_f64()),
        None => "auto-play off".to_string(),
    };
    // The estimates' level (`%` changes it): on the auto-play line when it fits there, else last
    // (when the panel has a row left for it).
    let level = format!("selectivity {}", m.selectivity);
    let level = if auto.chars().count() + 3 + level.chars().count() <= inner.width as usize {
        lines.push(Line::from(Span::styled(format!("{auto} · {level}"), t.dim())));
        None
    } else {
        lines.push(Line::from(Span::styled(auto, t.dim())));
        Some(level)
    };
    let mask = match (m.teach(), m.drawn_mask) {
        // The whole words where they fit: the panel is 20 columns wide at 80x24.
        (Some(_), _) => ["mask on board: this step's value", "mask: the step's value", "mask: step's value"]
            .into_iter()
            .find(|t| t.chars().count() <= inner.width as usize)
            .unwrap_or("mask: step's value")
            .to_string(),
        (None, Some(mask)) => format!("mask on board: {}", mask.name()),
        (None, None) => "mask on board: off".to_string(),
    };
    lines.push(Line::from(Span::styled(mask, t.dim())));
    if let Some(level) = level {
        lines.push(Line::from(Span::styled(level, t.dim())));
    }
    for (i, line) in lines.iter().enumerate() {
        if i as u16 >= inner.height {
            break;
        }
        buf.set_line(inner.x, inner.y + i as u16, line, inner.width);
    }
}

/// The status message as written (errors marked `✗`, else `·`), and its style, if one shows.
fn status_message(m: &Model, t: Theme) -> (String, ratatui::style::Style) {
    match &m.status {
        Some(s) if s.error => (format!("✗ {}", s.text), t.error()),
        Some(s) => (format!("· {}", s.text), t.info()),
        None => ("· ? for help · : for commands".to_string(), t.dim()),
    }
}

/// Rows the status line takes at `width`: 2 for a message longer than a row, else 1.
pub fn status_rows(m: &Model, width: u16) -> u16 {
    if matches!(m.overlay, Overlay::Command(_)) {
        return 1;
    }
    let (text, _) = status_message(m, Theme::new(false));
    if text.chars().count() > width as usize { 2 } else { 1 }
}

/// The status line: the command line while it is open (its end shows when it is longer than the
/// row), else the last message, wrapped at words over the rows it has, the last shortened with
/// `…` if it goes on, else a hint.
pub fn status(m: &Model, t: Theme, area: Rect, buf: &mut Buffer) {
    if let Overlay::Command(text) = &m.overlay {
        let room = (area.width as usize).saturating_sub(3);
        let chars: Vec<char> = text.chars().collect();
        let shown: String = if chars.len() > room {
            std::iter::once('…').chain(chars[chars.len() + 1 - room..].iter().copied()).collect()
        } else {
            text.clone()
        };
        let line = Line::from(vec![Span::styled(":", t.heading()), Span::raw(shown), Span::styled("█", t.text())]);
        buf.set_line(area.x, area.y, &line, area.width);
        return;
    }
    let (text, style) = status_message(m, t);
    let width = area.width as usize;
    let rows = crate::notation::printable::wrap(&text, width);
    let n = rows.len().min(area.height as usize);
    for (i, row) in rows.iter().take(n).enumerate() {
        let row = if i + 1 == n && rows.len() > n {
            crate::notation::printable::fit(&rows[i..].join(" "), width)
        } else {
            row.clone()
        };
        buf.set_stringn(area.x, area.y + i as u16, row, width, style);
    }
}

/// The key bar, generated from the key table for the contexts active now.
pub fn key_bar(m: &Model, t: Theme, area: Rect, buf: &mut Buffer) {
    let mut spans = Vec::new();
    for (keys, label) in keys::key_bar(area.width as usize, &m.contexts()) {
        spans.push(Span::styled(keys, t.key()));
        if !label.is_empty() {
            spans.push(Span::styled(format!(" {label}  "), t.text()));
        }
    }
    buf.set_line(area.x, area.y, &Line::from(spans), area.width);
}
