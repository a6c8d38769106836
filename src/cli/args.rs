//! The position options every subcommand shares: `--size`, `--moves`, `--board`.

use super::common::CliError;
use clap::Args;
use othello_explorer::notation::transcript::{self, Line};
use othello_explorer::{Position, Size, notation::obf};

#[derive(Args, Debug, Clone, Default)]
pub struct PositionArgs {
    /// Board size: 4, 6 or 8 (the start position of that size; default 8).
    #[arg(long, value_name = "N", global = false, allow_negative_numbers = true, value_parser = super::values::SIZE)]
    pub size: Option<u8>,
    /// A transcript to play from the start, like f5d6c3 (either case, spaces allowed, passes implicit).
    #[arg(long, value_name = "T", conflicts_with = "board")]
    pub moves: Option<String>,
    /// A board string: N*N characters X/O/- from a1, a space, then X or O to move.
    #[arg(long, value_name = "B", allow_hyphen_values = true)]
    pub board: Option<String>,
}

/// The position the options name, with the transcript that led there when there is one.
pub struct Resolved {
    pub position: Position,
    pub line: Option<Line>,
}

impl PositionArgs {
    /// The size `--size` names, if given.
    pub fn size(&self) -> Result<Option<Size>, CliError> {
        self.size
            .map(|n| {
                Size::from_n(n as usize)
                    .ok_or_else(|| CliError::Usage(format!("--size {n}: the board size must be 4, 6 or 8")))
            })
            .transpose()
    }

    pub fn resolve(&self) -> Result<Resolved, CliError> {
        let size = self.size()?;
        if let Some(board) = &self.board {
            let position = obf::parse_board(board).map_err(|e| CliError::Usage(format!("--board: {e}")))?;
            if let Some(size) = size.filter(|&s| s != position.size()) {
                return Err(CliError::Usage(format!(
                    "--size {} does not match the {} board string",
                    size.n(),
                    position.size()
                )));
            }
            return Ok(Resolved { position, line: None });
        }
        let start = Position::start(size.unwrap_or(Size::Eight));
        match &self.moves {
            Some(text) => {
                let line = transcript::play(&start, text).map_err(|e| CliError::Usage(format!("--moves: {e}")))?;
                Ok(Resolved { position: line.end(), line: Some(line) })
            }
            None => Ok(Resolved { position: start, line: None }),
        }
    }
}
