//! othello-explorer: the Othello (Reversi) game tree on 4x4, 6x6 and 8x8 boards, on bitboards.
//!
//! # Conventions
//!
//! - **Squares**: columns `a..` left to right, rows `1..` top to bottom, `a1` top-left; a move is
//!   written like `f5`.
//! - **Bit layout**: squares are numbered row-major from `a1`, and `a1` is the *most* significant
//!   used bit (bit `N*N-1`); the last square (`d4`, `f6`, `h8`) is bit 0. Shifting left by 1 moves
//!   one square toward column `a`, shifting left by `N` moves one row toward row 1. Edax and
//!   Egaroucid number the other way round (`a1` = bit 0), so their masks read reversed.
//! - **Start**: white on the top-left and bottom-right centre squares, black on the other two;
//!   black moves first. 4x4: black `0x0240`, white `0x0420`; 8x8: black `0x0000000810000000`,
//!   white `0x0000001008000000`.
//! - **Scores**: the disc difference from the side to move. At the end of the game the empty
//!   squares go to the winner (the official rule, [`Scoring::Standard`]); [`Scoring::Discs`]
//!   leaves them uncounted.
//! - **Passes**: a pass is a ply (in perft too); the game ends when neither side can move.
//! - **Text**: transcripts like `f5d6c3` ([`notation::transcript`]); board strings of `N*N` characters
//!   `X`/`O`/`-` from `a1`, a space, then `X` or `O` to move ([`notation::obf`]).
//!
//! The engine (every module here but `tui`) depends on nothing of the terminal or the command line.
//!
//! ```
//! use othello_explorer::{Position, Size, Square};
//!
//! let start = Position::start(Size::Eight);
//! assert_eq!(start.legal_moves().count(), 4);
//! let after = start.play("f5".parse::<Square>().unwrap()).unwrap();
//! assert_eq!(after.to_string(), format!("{}---OX------XXX--{} O", "-".repeat(24), "-".repeat(24)));
//! ```

// The floors of the house, bottom up: the board and its rules; notation and files; the solver and
// the evaluation (with the store of proven results and the one analysis every front end calls);
// the studies built on them; the terminal app. `docs/architecture.md` says which file to open.
pub mod board;
pub mod notation;

#[cfg(feature = "store")]
pub mod analyst;
pub mod eval;
pub mod solver;
pub mod store;

pub mod archive;

pub mod studies;

#[cfg(feature = "tui")]
pub mod tui;

#[cfg(test)]
mod testing;

// The prelude: the board's types at the top, for users of the library (the example above). Every
// module is reached through its folder (`board::geometry`, `notation::transcript`,
// `studies::reach`), inside the library too, so the folders show who depends on whom.
pub use board::bitboard::Bitboard;
pub use board::position::{Color, IllegalMove, Position, PositionError, Scoring};
pub use board::size::Size;
pub use board::square::{ParseSquareError, Square};
