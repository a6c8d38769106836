//! The teaching view's panel: the current step of the trace (its group and name, the expression,
//! the value in hex and as a binary grid, the note) and the steps around it; or the search lab's
//! tables: the four methods with their scores, nodes and times, then the five outcome methods with
//! their outcomes, nodes and times. The board beside it draws the step's mask.

use crate::studies::lab::outcome::{self, Outcome, OutcomeError};
use crate::studies::lab::{LabError, Method};
use crate::studies::trace::Value;
use crate::tui::app::Model;
use crate::tui::teach::{LabMethod, LabState, Lesson, lesson_trace};
use crate::tui::theme::Theme;
use crate::tui::widgets::bars::si;
use crate::{board::bitboard::Bitboard, board::size::Size};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget};

/// The teaching panel.
pub(crate) struct TeachWidget<'a> {
    /// The model drawn.
    pub model: &'a Model,
    /// The styles.
    pub theme: Theme,
}

/// The N rows of a grid of bits, spaced: `0 1 0 0`.
fn grid(mask: Bitboard) -> Vec<String> {
    mask.binary_rows().iter().map(|r| r.chars().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")).collect()
}

fn grids_side_by_side(t: Theme, parts: &[(&str, Bitboard)], lines: &mut Vec<Line<'static>>) {
    let Some(first) = parts.first() else { return };
    let n = first.1.size().n();
    let w = (2 * n - 1).max(first.1.size().hex_digits() + 2) + 2;
    let mut head = Vec::new();
    for (name, m) in parts {
        head.push(Span::styled(format!("{:<w$}", format!("{name} {m}")), t.label()));
    }
    if parts.len() > 1 {
        lines.push(Line::from(head));
    }
    let rows: Vec<Vec<String>> = parts.iter().map(|(_, m)| grid(*m)).collect();
    for r in 0..n {
        let mut spans = Vec::new();
        for g in &rows {
            for (i, c) in g[r].chars().enumerate() {
                let style = if c == '1' {
                    t.bit_on()
                } else if c == '0' {
                    t.bit_off()
                } else {
                    Style::new()
                };
                let _ = i;
                spans.push(Span::styled(c.to_string(), style));
            }
            spans.push(Span::raw(" ".repeat(w - g[r].chars().count())));
        }
        lines.push(Line::from(spans));
    }
}

impl TeachWidget<'_> {
    /// Draws the panel into `area`.
    pub fn render(self, area: Rect, buf: &mut Buffer) {
        let m = self.model;
        let t = self.theme;
        let Some(teach) = m.teach() else { return };
        let lesson = teach.lesson();
        let page = format!("{}/{}", teach.lesson + 1, Lesson::ALL.len());
        let position = m.position();
        let mut lines: Vec<Line<'static>> = Vec::new();
        let title = match lesson {
            Lesson::Trace(topic) => match lesson_trace(topic, &position, m.cursor) {
                Ok(trace) => {
                    let total = trace.steps.len();
                    let k = teach.step.min(total.saturating_sub(1));
                    let step = &trace.steps[k];
                    let inner_w = area.width.saturating_sub(2) as usize;
                    lines.push(Line::from(Span::styled(topic.title().to_string(), t.heading())));
                    if let Some(sq) = trace.square {
                        lines.push(Line::from(Span::styled(
                            format!("move {sq} (the cursor's, or the first legal)"),
                            t.dim(),
                        )));
                    }
                    lines.push(Line::from(""));
                    let where_ = if step.group.is_empty() { String::new() } else { format!("{} · ", step.group) };
                    lines.push(Line::from(vec![
                        Span::styled(where_, t.label()),
                        Span::styled(step.name.clone(), t.heading()),
                    ]));
                    // An input named by its expression (`player`) is written once.
                    if step.expression != step.name {
                        for l in crate::studies::trace::wrap(&step.expression, inner_w.max(10)) {
                            lines.push(Line::from(Span::styled(l, t.exact())));
                        }
                    }
                    let size = position.size();
                    match step.value {
                        Value::Mask(mask) => {
                            let count = mask.count();
                            let squares = if count == 1 { "square" } else { "squares" };
                            lines.push(Line::from(format!("= {mask}  ({count} {squares})")));
                            grids_side_by_side(t, &[("", mask)], &mut lines);
                        }
                        Value::Word { bits, .. } => {
                            let b = Bitboard::new(size, bits);
                            lines.push(Line::from(format!("= {b}")));
                            grids_side_by_side(t, &[("", b)], &mut lines);
                        }
                        Value::Number(v) => lines.push(Line::from(Span::styled(format!("= {v}"), t.best()))),
                        Value::Position(p) => {
                            lines.push(Line::from(format!("= {p}")));
                            grids_side_by_side(t, &[("black", p.black()), ("white", p.white())], &mut lines);
                        }
                        Value::Key { player, opponent, symmetry } => {
                            lines.push(Line::from(format!("= the {} image", symmetry.name())));
                            grids_side_by_side(t, &[("player", player), ("opponent", opponent)], &mut lines);
                        }
                    }
                    for l in crate::studies::trace::wrap(&step.note, inner_w.max(10)) {
                        lines.push(Line::from(Span::styled(l, t.info())));
                    }
                    // The steps around the current one, while there is room.
                    let room = (area.height as usize).saturating_sub(2 + lines.len() + 1);
                    if room >= 3 {
                        lines.push(Line::from(Span::styled("steps", t.label())));
                        let first = k.saturating_sub(room / 2).min(total.saturating_sub(room - 1));
                        for (i, s) in trace.steps.iter().enumerate().skip(first).take(room - 1) {
                            let text = format!("{:>3} {}", i + 1, s.full_name());
                            let style = if i == k { t.selected() } else { t.dim() };
                            lines.push(Line::from(Span::styled(text, style)));
                        }
                    }
                    format!(" teach · {} {page} · step {}/{total} ", topic.name(), k + 1)
                }
                Err(e) => {
                    lines.push(Line::from(Span::styled(topic.title().to_string(), t.heading())));
                    lines.push(Line::from(Span::styled(e.to_string(), t.error())));
                    format!(" teach · {} {page} ", topic.name())
                }
            },
            Lesson::Lab => {
                self.lab_lines(&mut lines, position.size(), area.width.saturating_sub(2) as usize);
                format!(" teach · search lab {page} ")
            }
        };
        let block = Block::default().borders(Borders::ALL).border_style(t.border(true)).title(title);
        let inner = block.inner(area);
        block.render(area, buf);
        for (i, line) in lines.iter().enumerate() {
            if i as u16 >= inner.height {
                break;
            }
            buf.set_line(inner.x, inner.y + i as u16, line, inner.width);
        }
    }

    fn lab_lines(&self, lines: &mut Vec<Line<'static>>, _size: Size, width: usize) {
        let m = self.model;
        let t = self.theme;
        let p = m.position();
        lines.push(Line::from(Span::styled("one position solved four ways", t.heading())));
        lines.push(Line::from(Span::styled(
            format!("{} · {} empty · {} to move", p.size(), p.empty_count(), p.to_move()),
            t.dim(),
        )));
        lines.push(Line::from(""));
        let lab = m.lab.as_ref().filter(|l| l.position == p);
        let Some(lab) = lab else {
            lines.push(Line::from("s runs the search lab on this position:"));
            for method in Method::ALL {
                lines.push(Line::from(Span::styled(
                    format!("  {:<14} {}", method.name(), method.description()),
                    t.dim(),
                )));
            }
            lines.push(Line::from("then proves win, loss or draw five ways:"));
            for method in outcome::Method::ALL {
                lines.push(Line::from(Span::styled(
                    format!("  {:<19} {}", method.name(), method.description()),
                    t.dim(),
                )));
            }
            return;
        };
        lines.push(Line::from(Span::styled(
            format!("{:<14} {:>5} {:>8} {:>9}", "method", "score", "nodes", "time"),
            t.label(),
        )));
        let mut notes = Vec::new();
        for (i, method) in Method::ALL.iter().enumerate() {
            let text = match lab.results.get(i) {
                Some(Ok(run)) => format!(
                    "{:<14} {:>+5} {:>8} {:>8.3}s",
                    method.name(),
                    run.score,
                    si(run.nodes as f64),
                    run.elapsed.as_secs_f64()
                ),
                Some(Err(e @ LabError::TooDeep { .. })) => {
                    notes.push(e.to_string());
                    format!("{:<14} refused", method.name())
                }
                Some(Err(LabError::Cancelled { nodes, .. })) => {
                    format!("{:<14} cancelled after {} nodes", method.name(), si(*nodes as f64))
                }
                None if lab.current() == Some(LabMethod::Exact(*method)) => format!("{:<14} running…", method.name()),
                None if lab.running => format!("{:<14} waiting", method.name()),
                None => format!("{:<14} cancelled", method.name()),
            };
            lines.push(Line::from(text));
        }
        let scores: Vec<i32> = lab.results.iter().filter_map(|r| r.as_ref().ok().map(|r| r.score)).collect();
        let exact_done = lab.results.len() == Method::ALL.len() || !lab.running;
        if exact_done && !scores.is_empty() {
            let agree = scores.iter().all(|&s| s == scores[0]);
            let text = if agree { "every method that ran agrees on the score" } else { "the methods disagree!" };
            lines.push(Line::from(Span::styled(text, if agree { t.best() } else { t.error() })));
        }
        lines.push(Line::from(""));
        self.outcome_lines(lab, scores.first().copied(), width, lines);
        let hint = if lab.running { "s cancels" } else { "s runs it again" };
        lines.push(Line::from(Span::styled(hint, t.dim())));
        for n in notes {
            for l in crate::studies::trace::wrap(&n, width.max(10)) {
                lines.push(Line::from(Span::styled(l, t.dim())));
            }
        }
    }

    /// The outcome half of the lab: each method's outcome, nodes and time (and WPNS's share of
    /// time spent selecting), and whether they agree with each other and with `score`.
    fn outcome_lines(&self, lab: &LabState, score: Option<i32>, width: usize, lines: &mut Vec<Line<'static>>) {
        let t = self.theme;
        lines.push(Line::from(Span::styled(
            format!("{:<24} {:>6} {:>8}", "win, loss or draw", "nodes", "time"),
            t.label(),
        )));
        for (i, method) in outcome::Method::ALL.iter().enumerate() {
            let name = method.name();
            let text = match lab.outcomes.get(i) {
                Some(Ok(run)) => {
                    let row = format!(
                        "{name:<19} {:<4} {:>6} {:>7.3}s",
                        run.outcome.name(),
                        si(run.nodes as f64),
                        run.elapsed.as_secs_f64()
                    );
                    // WPNS's share of its time spent choosing the node to expand, in as many
                    // whole words as the panel has room for.
                    let share = run.selection_share().map_or(String::new(), |s| {
                        let p = (100.0 * s).round();
                        [
                            format!(" ({p:.0}% of it choosing nodes)"),
                            format!(" ({p:.0}% choosing)"),
                            format!(" {p:.0}% choosing"),
                        ]
                        .into_iter()
                        .find(|t| row.chars().count() + t.chars().count() <= width)
                        .unwrap_or_default()
                    });
                    format!("{row}{share}")
                }
                Some(Err(OutcomeError::TooDeep { limit, .. })) => format!("{name:<19} refused: over {limit} empty"),
                Some(Err(OutcomeError::Cancelled { nodes, .. })) => {
                    format!("{name:<19} cancelled after {} nodes", si(*nodes as f64))
                }
                Some(Err(OutcomeError::OverBudget { nodes, .. })) => {
                    format!("{name:<19} out of time after {} nodes", si(*nodes as f64))
                }
                None if lab.current() == Some(LabMethod::Outcome(*method)) => format!("{name:<19} running…"),
                None if lab.running => format!("{name:<19} waiting"),
                None => format!("{name:<19} cancelled"),
            };
            lines.push(Line::from(text));
        }
        let outcomes: Vec<Outcome> = lab.outcomes.iter().filter_map(|r| r.as_ref().ok().map(|r| r.outcome)).collect();
        if (lab.complete() || !lab.running) && !outcomes.is_empty() {
            let agree =
                outcomes.iter().all(|&o| o == outcomes[0]) && score.is_none_or(|s| Outcome::of_score(s) == outcomes[0]);
            let text = if agree {
                format!("every method that ran proves a {}", outcomes[0])
            } else {
                "the methods disagree!".to_string()
            };
            lines.push(Line::from(Span::styled(text, if agree { t.best() } else { t.error() })));
        }
    }
}
