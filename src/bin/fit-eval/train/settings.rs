//! How a training run is set: what `fit-eval train` reads from its command line, and what the
//! checkpoint records of it.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// How a training run is set.
pub struct Settings {
    pub shards: Vec<PathBuf>,
    pub epochs: usize,
    pub prior: f32,
    pub smooth: f32,
    /// Plies of the search that relabels the midgame positions in the second round (0: one round).
    pub bootstrap_depth: usize,
    /// Relabel by the mean of the searches `bootstrap_depth` and `bootstrap_depth - 1` plies deep.
    pub bootstrap_pair: bool,
    /// The share of the game result in a relabelled midgame label.
    pub lambda: f32,
    /// Shift each fitted stage's bias so that its mean signed error on the validation positions
    /// is the `base` weights' there: keep the lean the base was given (docs/eval.md, "The 8x8
    /// opening").
    pub keep_lean: bool,
    /// From this many empties on, each self-play position is also trained with the other side to
    /// move and the opposite label (0: never).
    pub swap_from: u32,
    pub threads: usize,
    /// Keep the stages of this many empties and more as they are in `base` (0: fit every stage).
    pub freeze_from: u32,
    /// Keep the stages below this many empties as they are in `base` (0: none).
    pub freeze_below: u32,
    /// The weights the frozen stages come from.
    pub base: Option<PathBuf>,
    /// Problem files (OBF, every move's exact score) to report the fit's error on, per stage,
    /// against the positions' exact values.
    pub exact_check: Vec<PathBuf>,
    pub out: PathBuf,
    /// Where the fit keeps its state to resume from (`None`: it keeps none).
    pub checkpoint: Option<PathBuf>,
    /// At most this many epochs in this run (of either round), then the state is kept and the run
    /// stops unfinished (`None`: no limit).
    pub epochs_per_run: Option<usize>,
    /// Set by SIGINT or SIGTERM: the epoch under way ends, the state is kept, the run stops.
    pub stop: Arc<AtomicBool>,
}
