//! Where the explorer keeps its files by default: the user's data directory for this program
//! (`$XDG_DATA_HOME/othello-explorer`, usually `~/.local/share/othello-explorer` on Linux), and
//! the `--store` / `--no-store` options that choose the store of solved positions.

use std::path::PathBuf;

/// The program's data directory, if the platform has one (it is not created here).
pub fn data_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("othello-explorer"))
}

/// The file name of the default store in [`data_dir`].
pub const STORE_FILE: &str = "store.redb";

/// The options that choose the store; they go before or after any subcommand.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct StoreArgs {
    /// The file of solved positions kept between runs (default: store.redb in the user's data directory).
    #[arg(long, value_name = "PATH", global = true, conflicts_with = "no_store")]
    pub store: Option<PathBuf>,
    /// Run without the file of solved positions.
    #[arg(long, global = true)]
    pub no_store: bool,
    /// The archive of played games (`archive add`; the explorer's archive panel): default
    /// archive.oxar in the user's data directory. A regular file of at most 2 GiB, checked
    /// before it is read.
    #[arg(long, value_name = "PATH", global = true)]
    pub archive: Option<PathBuf>,
}

/// The file name of the default archive in [`data_dir`].
pub const ARCHIVE_FILE: &str = "archive.oxar";

impl StoreArgs {
    /// The archive of played games: `--archive`, else `archive.oxar` in the data directory.
    pub fn archive_path(&self) -> Option<PathBuf> {
        self.archive.clone().or_else(|| data_dir().map(|d| d.join(ARCHIVE_FILE)))
    }

    /// The store to use: none with `--no-store`, the `--store` file, else `store.redb` in the
    /// data directory (none when the platform has no data directory).
    pub fn path(&self) -> Option<PathBuf> {
        if self.no_store {
            return None;
        }
        self.store.clone().or_else(|| data_dir().map(|d| d.join(STORE_FILE)))
    }
}
