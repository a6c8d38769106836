//! The explorer's own options and its start: no subcommand opens the terminal app.

use super::CliError;
use super::args::Resolved;
use clap::Args;

/// Options of the terminal explorer.
#[derive(Args, Debug, Clone, Default)]
pub struct ExploreArgs {}

pub fn run(_resolved: &Resolved, _args: &ExploreArgs) -> Result<(), CliError> {
    Err(CliError::Usage("the explorer is not built yet: use a subcommand (see --help)".into()))
}
