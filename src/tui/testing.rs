//! What the tests reach of the app, and nothing else: the modules themselves are private to the
//! crate. The model, its messages and `update`; the view; the threads; the session format and its
//! files; the key table; the tree. Each mirrors the module it comes from.

/// The model, its messages and effects, and the one `update`.
pub mod app {
    pub use crate::tui::app::game::Strength;
    pub use crate::tui::app::{
        AutoLine, AutoPlay, BoardGeometry, Config, Effect, Focus, LineKind, Model, Msg, Overlay, SolverState, update,
    };
}
/// The solver thread.
pub mod worker {
    pub use crate::tui::worker::{EventKind, SolverEvent, Worker};
}
/// The search lab's thread.
pub mod lab_worker {
    pub use crate::tui::lab_worker::{LabEvent, LabResult, LabWorker};
}
/// The session format.
pub mod session {
    pub use crate::tui::session::{Session, parse, parse_full, to_text, write_atomic};
}
/// The session's files: the lock, the kept sessions, the file thread.
pub mod disk {
    pub use crate::tui::disk::{Claim, Claimed, Disk, KEPT_SESSIONS, SESSION_SLOTS, claim_session, kept_session};
}
/// The explored tree.
pub mod tree {
    pub use crate::tui::tree::{Edge, Tree};
}
/// The whole screen.
pub mod view {
    pub use crate::tui::view::{draw, view};
}
/// The widgets tested alone.
pub mod widgets {
    /// The help overlay.
    pub mod help {
        pub use crate::tui::widgets::help::help_text;
    }
    /// The board.
    pub mod board {
        pub use crate::tui::widgets::board::{BoardWidget, Zoom};
    }
}
/// The colours.
pub mod theme {
    pub use crate::tui::theme::Theme;
}
/// The teaching view.
pub mod teach {
    pub use crate::tui::teach::{Lesson, Teach, lesson_trace};
}
/// The command line's parser.
pub mod command {
    pub use crate::tui::command::{Command, parse};
}
/// The clipboard's escape sequence.
pub mod clipboard {
    pub use crate::tui::clipboard::{base64, osc52};
}
/// The one key table.
pub mod keys {
    pub use crate::tui::keys::{Action, BAR_MORE, Context, action_for, bindings, key_bar};
}
