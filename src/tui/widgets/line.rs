//! The line panel: the best line from the position on screen (the principal variation to the end
//! of the game once proven, labelled `perfect`; until then the deepest completed estimate's line,
//! labelled `est @d` (`est @d 95%` when selective) and `not proven`; auto-play's line while it plays one),
//! on a move review marked, why it loses (its reasons, refutation and the best line), the move
//! history from the root with the current node marked (`[3.c3]`, reversed), the moves ahead on
//! the current line (dim), and the branches at the current node.

use crate::notation::transcript;
use crate::tui::app::{Focus, LineKind, Model, SolverState};
use crate::tui::theme::Theme;
use crate::tui::tree::{Edge, NodeId};
use crate::tui::widgets::graph;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Block, Borders, Widget};

/// Rectangles drawn, each with the node a click there goes to.
pub(crate) type NodeHits = Vec<(Rect, NodeId)>;

/// The line widget.
pub(crate) struct LineWidget<'a> {
    /// The model drawn.
    pub model: &'a Model,
    /// The styles.
    pub theme: Theme,
}

impl LineWidget<'_> {
    /// Draws the panel into `area` and returns each history entry's rectangle with its node, and
    /// each column of the score graph (drawn at the bottom when the panel is tall enough and the
    /// values show).
    pub fn render(self, area: Rect, buf: &mut Buffer) -> (NodeHits, NodeHits) {
        let m = self.model;
        let t = self.theme;
        let focused = m.focus == Focus::History;
        let title = if focused { " line · history focused: ←→ moves, ↑↓ branches " } else { " line " };
        let block = Block::default().borders(Borders::ALL).border_style(t.border(focused)).title(title);
        let inner = block.inner(area);
        block.render(area, buf);
        if inner.height == 0 || inner.width < 10 {
            return (Vec::new(), Vec::new());
        }
        // The score graph takes the bottom rows of a tall enough panel: its full height when
        // 8 rows stay for the line and the history, else a compact one of at least
        // [`graph::MIN_HEIGHT`] rows leaving them 6 (8x8 at 120x40); none below.
        let graph_h = if inner.height >= graph::HEIGHT + 8 {
            graph::HEIGHT
        } else {
            inner.height.saturating_sub(6).min(graph::HEIGHT)
        };
        let (inner, graph) = if graph_h >= graph::MIN_HEIGHT && !m.values_hidden() {
            let g = Rect::new(inner.x, inner.bottom() - graph_h, inner.width, graph_h);
            (Rect { height: inner.height - graph_h, ..inner }, graph::render(m, t, g, buf))
        } else {
            (inner, Vec::new())
        };
        // The best line: proven, or the deepest estimate's.
        let (label, pv_text) = match (m.shown_line(), m.solver_state()) {
            _ if m.values_hidden() => ("line ".to_string(), m.hidden_text()),
            (_, SolverState::GameOver) => ("line ".to_string(), "game over".to_string()),
            (Some(line), _) => {
                let pass = if m.position().must_pass() { "pass " } else { "" };
                let moves = format!("{pass}{}", spaced(&line.moves));
                match line.kind {
                    LineKind::Perfect => {
                        ("perfect ".to_string(), format!("{moves}  ({:+} exact)", m.shown_value(line.score)))
                    }
                    kind @ LineKind::Estimate { .. } => (
                        format!("{} ", kind.score_kind().label()),
                        format!("{moves}  (≈{:+}, not proven)", m.shown_value(line.score)),
                    ),
                }
            }
            (_, state @ SolverState::Solving { depth: Some(_), .. }) => {
                let label = state.estimate().and_then(|k| k.depth_label()).unwrap_or_default();
                ("line ".to_string(), format!("solving… (estimates {label} meanwhile)"))
            }
            (_, SolverState::Solving { .. }) => ("line ".to_string(), "solving…".to_string()),
            // Every child proven, the line to the end still being followed.
            (_, SolverState::Exact { .. }) if m.job.is_some() => {
                ("line ".to_string(), "every move proven; finding the perfect line…".to_string())
            }
            _ => ("line ".to_string(), "not solved yet".to_string()),
        };
        // A game or a drill says where it stands before the line.
        let (label, pv_text) = match m.mode_text() {
            Some((word, text)) if m.values_hidden() => (format!("{word} "), format!("{text} · {pv_text}")),
            Some((word, text)) => (format!("{word} "), format!("{text} · {}{pv_text}", label)),
            None => (label, pv_text),
        };
        let label_w = label.chars().count() as u16;
        buf.set_stringn(inner.x, inner.y, &label, inner.width as usize, t.label());
        let pv_w = inner.width.saturating_sub(label_w) as usize;
        // Wrapped at words into the rows the panel can spare (two, three when it is tall), the
        // last shortened with … if the text goes on.
        let wrapped = crate::notation::printable::wrap(&pv_text, pv_w.max(1));
        let room = if inner.height >= 9 {
            3
        } else if inner.height >= 5 {
            2
        } else {
            1
        };
        let pv_rows = wrapped.len().clamp(1, room) as u16;
        for (i, row) in wrapped.iter().take(pv_rows as usize).enumerate() {
            let text = if i + 1 == pv_rows as usize && wrapped.len() > pv_rows as usize {
                crate::notation::printable::fit(&wrapped[i..].join(" "), pv_w)
            } else {
                row.clone()
            };
            buf.set_stringn(inner.x + label_w, inner.y + i as u16, text, pv_w, t.text());
        }
        if inner.height < pv_rows + 1 {
            return (Vec::new(), graph);
        }
        // On a move review marked: why it loses, on a row of its own when the panel has room.
        let pv_rows = match m.why(m.tree.current()).filter(|_| !m.values_hidden()) {
            Some(why) if inner.height >= pv_rows + 4 => {
                let text = crate::notation::printable::fit(&why_text(why), inner.width as usize);
                buf.set_stringn(inner.x, inner.y + pv_rows, text, inner.width as usize, t.text());
                pv_rows + 1
            }
            _ => pv_rows,
        };
        // Branches at the current node, if any.
        let siblings = m.tree.siblings(m.tree.current());
        let branch_rows = if siblings.len() > 1 && inner.height >= 3 { 1 } else { 0 };
        // The history, wrapped into lines, scrolled so the current entry shows.
        let line = m.tree.line();
        let current = m.tree.current();
        let mut entries: Vec<(String, NodeId)> = Vec::with_capacity(line.len());
        for &id in &line {
            let mut label = match m.tree.edge(id) {
                None => "start".to_string(),
                Some(Edge::Move(sq)) => format!("{}.{sq}", m.tree.depth(id)),
                Some(Edge::Pass) => format!("{}.pass", m.tree.depth(id)),
            };
            // A move with other moves beside it: which branch of how many is shown.
            if let Some((mark, proven)) = m.mark(id).filter(|_| !m.values_hidden()) {
                label.push_str(&crate::studies::review::mark_text(mark, proven));
            }
            let beside = m.tree.siblings(id);
            if beside.len() > 1
                && let Some(k) = beside.iter().position(|&b| b == id)
            {
                label.push_str(&format!("({}/{})", k + 1, beside.len()));
            }
            let label = if id == current { format!("[{label}]") } else { format!(" {label} ") };
            entries.push((label, id));
        }
        let rows = (inner.height - pv_rows - branch_rows) as usize;
        let width = inner.width as usize;
        let mut placed: Vec<(usize, usize, usize)> = Vec::new(); // (row, col, entry)
        let (mut row, mut col) = (0usize, 0usize);
        for (i, (label, _)) in entries.iter().enumerate() {
            let w = label.chars().count();
            if col > 0 && col + w > width {
                row += 1;
                col = 0;
            }
            placed.push((row, col, i));
            col += w;
        }
        let cur_row = placed.iter().find(|p| entries[p.2].1 == current).map_or(0, |p| p.0);
        let first_row = (cur_row + 1).saturating_sub(rows);
        let on_path: Vec<NodeId> = m.tree.path();
        let mut hits = Vec::new();
        for &(r, c, i) in &placed {
            if r < first_row || r >= first_row + rows {
                continue;
            }
            let (label, id) = &entries[i];
            let x = inner.x + c as u16;
            let y = inner.y + pv_rows + (r - first_row) as u16;
            let style = if *id == current {
                t.selected()
            } else if on_path.contains(id) {
                Style::new()
            } else {
                t.dim()
            };
            let w = label.chars().count().min(width - c);
            buf.set_stringn(x, y, label, w, style);
            hits.push((Rect::new(x, y, w as u16, 1), *id));
        }
        if branch_rows == 1 {
            let y = inner.bottom() - 1;
            buf.set_string(inner.x, y, "branches ", t.label());
            let mut x = inner.x + 9;
            for id in siblings {
                let name = m.tree.edge(id).map(|e| e.to_string()).unwrap_or_default();
                let label = if id == current { format!("[{name}]") } else { format!(" {name} ") };
                let w = label.chars().count() as u16;
                if x + w > inner.right() {
                    break;
                }
                buf.set_string(x, y, &label, if id == current { t.selected() } else { t.text() });
                hits.push((Rect::new(x, y, w, 1), id));
                x += w;
            }
            let hint = " [ ] switch";
            if x + hint.len() as u16 <= inner.right() {
                buf.set_string(x, y, hint, t.dim());
            }
        }
        (hits, graph)
    }
}

/// A marked move's reasons and refutation on one line: "why: the reply a1 takes a corner … ·
/// refuted by a1 b1 c1".
fn why_text(why: &crate::studies::review::reasons::Why) -> String {
    let reasons = if why.reasons.is_empty() {
        crate::studies::review::reasons::DEEPER.to_string()
    } else {
        why.reasons.iter().map(|r| r.detail.as_str()).collect::<Vec<_>>().join("; ")
    };
    format!("why: {reasons} · refuted by {} · best {}", spaced(&why.refutation), spaced(&why.best_line))
}

fn spaced(moves: &[crate::board::square::Square]) -> String {
    let t = transcript::format(moves);
    t.as_bytes().chunks(2).map(|c| String::from_utf8_lossy(c).into_owned()).collect::<Vec<_>>().join(" ")
}
