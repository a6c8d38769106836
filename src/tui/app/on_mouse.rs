//! A click or a scroll: the view's hit rectangles ([`super::Hits`]) say what was under it.

use super::super::tree::Edge;
use super::{Effect, Focus, Model, Overlay};
use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Position as Point;

impl Model {
    pub(super) fn mouse(&mut self, ev: MouseEvent) -> Vec<Effect> {
        let (x, y) = (ev.column, ev.row);
        match ev.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                if self.overlay == Overlay::Help {
                    self.overlay = Overlay::None;
                    return Vec::new();
                }
                if matches!(self.overlay, Overlay::Command(_)) {
                    return Vec::new();
                }
                let size = self.position().size();
                if let Some(sq) = self.hits.board.and_then(|b| b.square_at(size, x, y)) {
                    self.cursor = sq;
                    if self.editor().is_some() {
                        return self.edit_cycle(sq);
                    }
                    if self.drill().is_some() && !self.position().must_pass() {
                        return self.choose(sq);
                    }
                    let p = self.position();
                    if p.legal_moves().contains(sq) {
                        return self.play(Edge::Move(sq));
                    }
                    if p.must_pass() {
                        self.say(format!("{} has no move: Enter passes", p.to_move()));
                    }
                    return Vec::new();
                }
                if self.editor().is_some() {
                    return Vec::new();
                }
                let at = Point { x, y };
                if let Some(&(_, edge)) = self.hits.children.iter().find(|(r, _)| r.contains(at)) {
                    if let (Some(_), Edge::Move(sq)) = (self.drill(), edge) {
                        self.cursor = sq;
                        return self.choose(sq);
                    }
                    return self.play(edge);
                }
                if let Some(&(_, id)) = self.hits.graph.iter().find(|(r, _)| r.contains(at)) {
                    let moved = self.tree.goto(id);
                    return self.navigate(moved, "already here");
                }
                if let Some(&(_, id)) = self.hits.history.iter().find(|(r, _)| r.contains(at)) {
                    self.focus = Focus::History;
                    let moved = self.tree.goto(id);
                    return self.navigate(moved, "already here");
                }
                Vec::new()
            }
            _ if self.editor().is_some() || self.overlay != Overlay::None => Vec::new(),
            MouseEventKind::ScrollUp => self.step_back(),
            MouseEventKind::ScrollDown => self.step_forward(),
            _ => Vec::new(),
        }
    }
}
