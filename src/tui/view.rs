//! The one `view`: lays the screen out from the terminal's size and draws every panel. It returns
//! the [`Hits`] (the `Rect`s it drew the clickable things into) for the mouse.
//!
//! ```text
//! ┌ title bar ────────────────────────────────────────────────────────────┐
//! │ board       │ moves (children) │ bitboards                            │
//! │             │                  │                                      │
//! │ position    │                  │ line: perfect line, history, branches│
//! └ status line / command line ── key bar ────────────────────────────────┘
//! ```
//!
//! Below 80x24 only a "terminal too small" message is drawn.

use super::app::{Hits, Model, Overlay};
use super::theme::Theme;
use super::widgets::bitboards::{self, BitboardsWidget};
use super::widgets::board::{BoardWidget, Zoom, board_extent};
use super::widgets::children::ChildrenWidget;
use super::widgets::line::LineWidget;
use super::widgets::teach::TeachWidget;
use super::widgets::{bars, graph, help};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// The smallest terminal the explorer draws into.
pub(crate) const MIN_WIDTH: u16 = 80;
/// The smallest terminal height.
pub(crate) const MIN_HEIGHT: u16 = 24;

/// Where each panel goes on a screen of a given size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Areas {
    /// The title bar.
    pub title: Rect,
    /// The board.
    pub board: Rect,
    /// How big squares are drawn.
    pub zoom: Zoom,
    /// The position panel under the board.
    pub info: Rect,
    /// The children table.
    pub children: Rect,
    /// The bitboards.
    pub bitboards: Rect,
    /// The line panel.
    pub line: Rect,
    /// The status line.
    pub status: Rect,
    /// The key bar.
    pub keys: Rect,
}

/// Lays out a screen of `area` for a board of `size` (at least 80x24), the status line
/// `status_rows` high (1, or 2 for a message that does not fit on one).
pub(crate) fn areas(area: Rect, size: crate::board::size::Size, status_rows: u16) -> Areas {
    let status_rows = status_rows.clamp(1, 2);
    let title = Rect::new(area.x, area.y, area.width, 1);
    let status = Rect::new(area.x, area.bottom() - 1 - status_rows, area.width, status_rows);
    let keys = Rect::new(area.x, area.bottom() - 1, area.width, 1);
    let body = Rect::new(area.x, area.y + 1, area.width, area.height - 2 - status_rows);
    let children_w = 22u16;
    let (lw, lh) = board_extent(size, Zoom::Large);
    let large_fits = body.height >= lh + 7 && body.width >= lw + children_w + 36;
    let zoom = if large_fits { Zoom::Large } else { Zoom::Compact };
    let (bw, bh) = board_extent(size, zoom);
    let board_w = bw.max(24).min(body.width);
    let board = Rect::new(body.x, body.y, board_w, bh.min(body.height));
    let info = Rect::new(body.x, board.bottom(), board_w, body.bottom() - board.bottom());
    let children_w = children_w.min(body.width - board_w);
    let children = Rect::new(board.right(), body.y, children_w, body.height);
    let right_x = children.right();
    let right_w = body.right() - right_x;
    let line_min = 5u16;
    // Every grid where the line panel keeps room for the score graph's compact form below
    // them; else every hex value with the grids that fit (the list form); else what is left.
    let with_graph = graph::MIN_HEIGHT + 8;
    let full_h = bitboards::full_height(size, right_w);
    let compact_h = bitboards::list_height(size, right_w);
    let bits_h = if full_h + with_graph <= body.height {
        full_h
    } else {
        full_h.min(body.height.saturating_sub(line_min)).min(compact_h.max(body.height.saturating_sub(with_graph)))
    };
    let bits_h = bits_h.max(body.height.saturating_sub(line_min).min(compact_h));
    let bitboards = Rect::new(right_x, body.y, right_w, bits_h);
    let line = Rect::new(right_x, bitboards.bottom(), right_w, body.bottom() - bitboards.bottom());
    Areas { title, board, zoom, info, children, bitboards, line, status, keys }
}

/// Draws the model into `buf` over `area` and returns where the clickable things went.
pub fn draw(model: &Model, area: Rect, buf: &mut Buffer) -> Hits {
    let t = Theme::new(model.config.color);
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let text = vec![
            Line::from("terminal too small"),
            Line::from(format!("{}x{}: the explorer needs at least {MIN_WIDTH}x{MIN_HEIGHT}", area.width, area.height)),
            Line::from("enlarge the window, or press q to quit"),
        ];
        let y = area.y + area.height.saturating_sub(3) / 2;
        let h = area.height.min(3);
        Paragraph::new(text)
            .alignment(ratatui::layout::Alignment::Center)
            .wrap(Wrap { trim: true })
            .style(t.error())
            .render(Rect::new(area.x, y, area.width, h), buf);
        return Hits::default();
    }
    let a = areas(area, model.position().size(), bars::status_rows(model, area.width));
    bars::title(model, t, a.title, buf);
    let geometry = BoardWidget { model, theme: t, zoom: a.zoom }.render(a.board, buf);
    bars::info(model, t, a.info, buf);
    let (children, history, graph) = if model.teach().is_some() {
        // The teaching view takes the place of the moves, bitboards and line panels.
        let right = Rect::new(a.children.x, a.children.y, area.right() - a.children.x, a.children.height);
        let right = right.intersection(area);
        TeachWidget { model, theme: t }.render(right, buf);
        (Vec::new(), Vec::new(), Vec::new())
    } else {
        let children = ChildrenWidget { model, theme: t }.render(a.children, buf);
        if model.archive_panel() {
            super::widgets::archive::render(model, t, a.bitboards, buf);
        } else {
            BitboardsWidget { model, theme: t }.render(a.bitboards, buf);
        }
        let (history, graph) = LineWidget { model, theme: t }.render(a.line, buf);
        (children, history, graph)
    };
    bars::status(model, t, a.status, buf);
    bars::key_bar(model, t, a.keys, buf);
    // Overlays cover the panels, never the title, the status line or the key bar.
    // The panels under a modal overlay are blanked, so none shows a word half hidden.
    let over = Rect::new(area.x, a.title.bottom(), area.width, a.status.y - a.title.bottom());
    if matches!(model.overlay, Overlay::Help | Overlay::Pick(_)) {
        ratatui::widgets::Clear.render(over, buf);
    }
    if model.overlay == Overlay::Help {
        let help_max_scroll = help::render(t, &model.help_contexts(), model.help_scroll, over, buf);
        return Hits { help_max_scroll, ..Hits::default() };
    }
    if let Overlay::Pick(p) = &model.overlay {
        super::widgets::pick::render(t, p, over, buf);
        return Hits::default();
    }
    Hits { board: geometry, children, history, graph, help_max_scroll: 0 }
}

/// The view for a ratatui frame.
pub fn view(model: &Model, frame: &mut Frame) -> Hits {
    let area = frame.area();
    draw(model, area, frame.buffer_mut())
}
