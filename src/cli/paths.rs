//! Where the explorer keeps its files by default: the user's data directory for this program
//! (`$XDG_DATA_HOME/othello-explorer`, usually `~/.local/share/othello-explorer` on Linux).

use std::path::PathBuf;

/// The program's data directory, if the platform has one (it is not created here).
pub fn data_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("othello-explorer"))
}
