//! The widgets of the explorer's screen, one file per panel. Each draws part of a [`Model`]
//! into a `Buffer` and returns what the mouse can click there.
//!
//! [`Model`]: crate::tui::app::Model

pub mod archive;
pub mod bars;
pub mod bitboards;
pub mod board;
pub mod children;
pub mod graph;
pub mod help;
pub mod line;
pub mod pick;
pub mod teach;

pub use crate::notation::printable::{fit, wrap};
