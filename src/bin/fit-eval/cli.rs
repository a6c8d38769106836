//! The command line of `fit-eval`: its subcommands and their options (clap).

use crate::{selfplay, shards, solved};
use clap::{Parser, Subcommand};
use othello_explorer::Size;
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "fit-eval", about = "Fit and measure the evaluation weights (docs/eval.md)")]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Generate positions, label them, fit the weights, write data/eval/weights-N.oxev.
    Fit {
        /// Board side: 4, 6 or 8.
        #[arg(long)]
        size: usize,
        /// Games played (one position per stage from each).
        #[arg(long, default_value_t = 20_000)]
        games: usize,
        /// Stages whose positions all have at most this many empties are labelled exactly
        /// (default: 12 on 4x4, 15 on 6x6 and 8x8; deeper ones are slow to solve).
        #[arg(long)]
        exact: Option<usize>,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads for labelling.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Adam epochs per stage.
        #[arg(long, default_value_t = 300)]
        epochs: usize,
        /// The L2 prior on pattern weights, in samples' worth (default: 3 on 4x4, whose positions
        /// the games nearly cover, 30 elsewhere).
        #[arg(long)]
        prior: Option<f32>,
        /// Where to write the files.
        #[arg(long, default_value = "data/eval")]
        out: PathBuf,
    },
    /// Play training games in one shard (docs/eval.md): resumable, deterministic from the seed.
    Selfplay {
        /// Board side: 6 or 8.
        #[arg(long)]
        size: usize,
        /// The run's seed: game g is the same game whatever the shards.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// This shard, I/N (1-based): games g with g mod N = I-1.
        #[arg(long, default_value = "1/1")]
        shard: String,
        /// Games this shard holds when it is done (a file with fewer is continued).
        #[arg(long)]
        games: u64,
        #[command(flatten)]
        play: GameArgs,
        /// Transposition table, MiB.
        #[arg(long, default_value_t = 64)]
        hash_mb: usize,
        /// Where the shard files go.
        #[arg(long, default_value = "target/selfplay")]
        out: PathBuf,
    },
    /// Solve positions of lightly randomised games exactly, in one shard: labels for the late
    /// stages (resumable, deterministic from the seed).
    Solved {
        /// Board side: 6 or 8.
        #[arg(long)]
        size: usize,
        /// The run's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        shard: ShardArgs,
        /// Positions this shard holds when it is done.
        #[arg(long)]
        positions: u64,
        /// The fewest empties.
        #[arg(long, default_value_t = 4)]
        min_empties: u32,
        /// The most empties.
        #[arg(long, default_value_t = 14)]
        max_empties: u32,
        /// How the games are played: `mixed` (random or the stand-in's greedy move) or `search`
        /// (now and then random, else a 2-ply search of the shipped weights).
        #[arg(long, value_enum, default_value_t = solved::Play::Mixed)]
        play: solved::Play,
        /// Solve every move of each position, not only the position: a line lists each move's
        /// exact score as a problem file does (about four times the time, nine positions a line).
        #[arg(long)]
        every_move: bool,
        /// Where the shard files go.
        #[arg(long, default_value = "target/selfplay")]
        out: PathBuf,
    },
    /// Play self-play games into one compressed shard (docs/training-data.md): deterministic from
    /// the seed, resumable, the shard from --shard, a Slurm job array or a Kubernetes Indexed Job.
    Games {
        /// Board side: 6 or 8.
        #[arg(long)]
        size: usize,
        /// The run's seed: game g is the same game whatever the shards.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        shard: ShardArgs,
        /// Games of the whole run: this shard plays its share of games 0..G.
        #[arg(long)]
        games: u64,
        /// Plies of the estimate search that plays the middle game (default 4).
        #[arg(long)]
        depth: Option<u32>,
        /// Empties from which the exact solver plays (default 20 on 8x8, 22 on 6x6).
        #[arg(long)]
        exact: Option<u32>,
        /// Moves within this many discs of the best estimate may be drawn (default 2).
        #[arg(long)]
        margin: Option<u32>,
        /// The softness of the draw among them, in discs (default 1).
        #[arg(long)]
        temperature: Option<f64>,
        /// The longest random opening, in plies (default 12 on 8x8, 8 on 6x6).
        #[arg(long)]
        random: Option<u32>,
        /// Transposition table, MiB (cleared before every game).
        #[arg(long, default_value_t = 16)]
        hash_mb: usize,
        /// Where the shard files go.
        #[arg(long, default_value = "target/games")]
        out: PathBuf,
    },
    /// Solve one position of every game of `games` files exactly, in one shard (docs/training-data.md,
    /// "Exact labels"): labels for the stages above the games' perfect lines. Resumable,
    /// deterministic from the seed; the shard from --shard, a Slurm job array or a Kubernetes
    /// Indexed Job.
    GamesSolve {
        /// The games files (`fit-eval games` shards or merged files).
        #[arg(required = true)]
        from: Vec<PathBuf>,
        /// The seed that draws each game's number of empties.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        shard: ShardArgs,
        /// The fewest empties of a position solved.
        #[arg(long)]
        min_empties: u32,
        /// The most empties of a position solved.
        #[arg(long)]
        max_empties: u32,
        /// Transposition table, MiB.
        #[arg(long, default_value_t = 64)]
        hash_mb: usize,
        /// Where the label files go.
        #[arg(long, default_value = "target/solved")]
        out: PathBuf,
    },
    /// Label positions of every game of `games` files by search, in one shard (docs/training-data.md,
    /// "Searched labels"): exact up to --exact empties, the estimate search --depth plies deep at
    /// --selectivity above. Resumable, deterministic from the seed; the shard from --shard, a Slurm
    /// job array or a Kubernetes Indexed Job.
    Label {
        /// The games files (`fit-eval games` shards or merged files).
        #[arg(required = true)]
        from: Vec<PathBuf>,
        /// The seed that draws each game's labelled positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        shard: ShardArgs,
        /// Positions labelled in each game.
        #[arg(long, default_value_t = 2)]
        per_game: usize,
        /// The fewest empties of a labelled position (default: above the games' perfect lines).
        #[arg(long, default_value_t = 21)]
        min_empties: u32,
        /// The most empties of a labelled position.
        #[arg(long, default_value_t = 60)]
        max_empties: u32,
        /// Plies of the estimate search above --exact.
        #[arg(long, default_value_t = 10)]
        depth: u32,
        /// Its selectivity, percent (73, 87, 95, 98, 99 or 100).
        #[arg(long, default_value = "73")]
        selectivity: String,
        /// Positions with at most this many empties get their exact score.
        #[arg(long, default_value_t = 24)]
        exact: u32,
        /// Also solve the estimated positions with at most this many empties and write their
        /// exact score beside the label (to measure the labels, `label-stats`).
        #[arg(long, default_value_t = 0)]
        check: u32,
        /// Label the first G games of each file (this shard its share of them).
        #[arg(long, default_value_t = u64::MAX)]
        games: u64,
        /// Transposition table, MiB (cleared before every game).
        #[arg(long, default_value_t = 32)]
        hash_mb: usize,
        /// The evaluation at the leaves: patterns or network.
        #[arg(long = "eval", default_value = "patterns")]
        eval: String,
        /// With `--eval network`: this network file instead of the one built in (its fingerprint
        /// goes in the header), e.g. an earlier version's to continue its files.
        #[arg(long, value_name = "FILE")]
        network: Option<PathBuf>,
        /// Draw positions from each game's random opening too.
        #[arg(long)]
        openings: bool,
        /// Where the label files go.
        #[arg(long, default_value = "target/labels")]
        out: PathBuf,
    },
    /// Write the network's training data (docs/network.md, "Training"): positions of `games` files
    /// labelled with their results, and the positions of `label` files with their searched labels,
    /// as binary records for the trainer in `train/`.
    NetData {
        /// The games files (none: the solved positions alone).
        games: Vec<PathBuf>,
        /// Label files of `fit-eval label` for these games.
        #[arg(long, num_args = 1..)]
        labels: Vec<PathBuf>,
        /// Files of `fit-eval solved` (8x8 positions off the games' lines, solved exactly).
        #[arg(long, num_args = 1..)]
        solved: Vec<PathBuf>,
        /// Game positions with at least this many empties.
        #[arg(long, default_value_t = 10)]
        min_empties: u32,
        /// Keep one game position of K (searched labels are all kept).
        #[arg(long, default_value_t = 1)]
        keep: u64,
        /// Games whose index is a multiple of this go to the validation file.
        #[arg(long, default_value_t = 50)]
        valid_every: u64,
        /// The output folder.
        #[arg(long, default_value = "target/net-data")]
        out: PathBuf,
    },
    /// Count the labels of `label` files per band of empties, and their error against exact scores
    /// where `--check` solved them.
    LabelStats {
        /// The label files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The games files they label.
        #[arg(long, required = true, num_args = 1..)]
        games: Vec<PathBuf>,
    },
    /// Combine the shards of one `games` run into one file, games in order, a game played twice
    /// kept once.
    GamesMerge {
        /// The merged file.
        #[arg(long)]
        out: PathBuf,
        /// The shard files.
        #[arg(required = true)]
        shards: Vec<PathBuf>,
    },
    /// Count the games and positions of `games` files, every game replayed and checked.
    GamesStats {
        /// The files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Combine the shard files of one self-play run into one file, games in order.
    Merge {
        /// The shard files.
        #[arg(required = true)]
        shards: Vec<PathBuf>,
        /// The merged file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Fit the weights on self-play games (shard or merged files): all stages at once, with a
    /// prior and smoothing across stages; writes weights-N.oxev and check-N.txt.
    Train {
        /// Board side: 6 or 8.
        #[arg(long)]
        size: usize,
        /// Self-play files (shards or merged), or directories holding them.
        #[arg(required = true)]
        data: Vec<PathBuf>,
        /// Adam epochs.
        #[arg(long, default_value_t = 300)]
        epochs: usize,
        /// L2 prior on each pattern weight, in samples' worth.
        #[arg(long, default_value_t = 3.0)]
        prior: f32,
        /// Pull of each weight towards the neighbouring stages', in samples' worth.
        #[arg(long, default_value_t = 1000.0)]
        smooth: f32,
        /// Empty squares per stage (default 4 on 8x8, 2 on 6x6).
        #[arg(long)]
        bucket: Option<usize>,
        /// Plies of the search that relabels the midgame positions for a second round (0: none).
        #[arg(long, default_value_t = 3)]
        bootstrap_depth: usize,
        /// Relabel by the mean of the searches `bootstrap_depth` and one ply shallower, so the
        /// odd and the even depth's lean (towards the side that moves last) cancel.
        #[arg(long)]
        bootstrap_pair: bool,
        /// The game result's share of a relabelled midgame label.
        #[arg(long, default_value_t = 0.5)]
        lambda: f32,
        /// Shift each fitted stage's bias so its mean signed error on the validation positions is
        /// `--base`'s: the lean that offsets the search's own (docs/eval.md).
        #[arg(long)]
        keep_lean: bool,
        /// A problem file (OBF, every move's exact score listed, as `data/ffo/`) or a solved file
        /// (`solved`, `games-solve`): the fit's error against its positions' exact values, per
        /// stage, beside `--base`'s. Repeatable.
        #[arg(long, value_name = "FILE")]
        exact_check: Vec<PathBuf>,
        /// From this many empties on, self-play positions also train their colour-swapped twin
        /// with the opposite label (0: never).
        #[arg(long, default_value_t = 0)]
        swap_from: u32,
        /// Worker threads for the fit and the relabelling.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Keep the stages of this many empties and more as they are in `--base` and fit only
        /// the stages below (0: fit every stage). Must be the first empties of a stage.
        #[arg(long, default_value_t = 0)]
        freeze_from: u32,
        /// Keep the stages below this many empties as they are in `--base` too (0: none). Must be
        /// the first empties of a stage.
        #[arg(long, default_value_t = 0)]
        freeze_below: u32,
        /// The weights the frozen stages come from (a `weights-N.oxev`; its `check-N.txt` beside
        /// it gives their check positions). Its stages may be a multiple of `--bucket` wide: each
        /// is then split into stages of `--bucket`, with the same weights.
        #[arg(long)]
        base: Option<PathBuf>,
        /// Where to write the files.
        #[arg(long, default_value = "data/eval")]
        out: PathBuf,
        /// Keep the fit's state in this file (every 10 epochs, and when the run stops: after
        /// --epochs-per-run, or on SIGINT or SIGTERM) and go on from it when the same command is
        /// run again; removed once the weights are written. A stopped run exits with status 3.
        #[arg(long, value_name = "FILE")]
        checkpoint: Option<PathBuf>,
        /// With --checkpoint: fit at most this many epochs in this run, then keep the state and
        /// stop (a batch task's time slot).
        #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
        epochs_per_run: Option<u64>,
    },
    /// Label every position of the first plies by the estimate search, in one shard: resumable,
    /// deterministic (see opening.rs).
    Opening {
        /// Board side: 6 or 8.
        #[arg(long, default_value_t = 8)]
        size: usize,
        /// The positions of plies 0 to this (twins once).
        #[arg(long, default_value_t = 4)]
        plies: u32,
        /// Each label is the mean of the estimates this deep and one ply shallower.
        #[arg(long, default_value_t = 14)]
        depth: u32,
        /// This shard, I/N (1-based): positions g with g mod N = I-1.
        #[arg(long, default_value = "1/1")]
        shard: String,
        /// Transposition table, MiB.
        #[arg(long, default_value_t = 64)]
        hash_mb: usize,
        /// Where the shard files go.
        #[arg(long, default_value = "target/opening")]
        out: PathBuf,
    },
    /// Refit the stages that hold only labelled opening positions to their labels; writes
    /// weights-N.oxev, and check-N.txt when one is beside the weights started from.
    #[command(name = "opening-fit")]
    OpeningFit {
        /// Board side: 6 or 8.
        #[arg(long, default_value_t = 8)]
        size: usize,
        /// The label files (every shard of one run).
        #[arg(required = true)]
        labels: Vec<PathBuf>,
        /// The weights to start from (default: data/eval/weights-N.oxev).
        #[arg(long)]
        weights: Option<PathBuf>,
        /// Pull of each weight towards the weights started from, in samples' worth.
        #[arg(long, default_value_t = 0.001)]
        anchor: f64,
        /// Adam epochs.
        #[arg(long, default_value_t = 20_000)]
        epochs: usize,
        /// Where to write the weights.
        #[arg(long, default_value = "data/eval")]
        out: PathBuf,
    },
    /// Positions with every move's exact score, from self-play games, in one shard: resumable,
    /// deterministic from the seed (see checkset.rs).
    Checkset {
        /// Board side: 6 or 8.
        #[arg(long, default_value_t = 8)]
        size: usize,
        /// The run's seed; keep it apart from the training seeds (1).
        #[arg(long, default_value_t = 777)]
        seed: u64,
        /// This shard, I/N (1-based): games g with g mod N = I-1.
        #[arg(long, default_value = "1/1")]
        shard: String,
        /// Positions this shard holds when it is done (a file with fewer is continued).
        #[arg(long)]
        positions: u64,
        /// The fewest empty squares of a position taken.
        #[arg(long, default_value_t = 24)]
        min_empties: u32,
        /// The most empty squares of a position taken.
        #[arg(long, default_value_t = 26)]
        max_empties: u32,
        #[command(flatten)]
        play: GameArgs,
        /// Score the moves by the estimate this many plies deep (the move included) instead of
        /// exactly: for positions of the middle game. 0: exactly.
        #[arg(long, default_value_t = 0)]
        search_depth: u32,
        /// With --search-depth: the estimate's selectivity (73, 87, 95, 98, 99, 100).
        #[arg(long, default_value = "100")]
        selectivity: String,
        /// With --search-depth: the evaluations searched with, comma-separated; a move's value is
        /// the mean of theirs (so the set favours none of them).
        #[arg(long, value_delimiter = ',', default_value = "patterns,network")]
        label_eval: Vec<String>,
        /// Transposition table of the solver that scores the moves, MiB.
        #[arg(long, default_value_t = 256)]
        hash_mb: usize,
        /// Where the shard files go.
        #[arg(long, default_value = "target/checkset")]
        out: PathBuf,
    },
    /// Join checkset shard files of one run into a problem file, sorted by game index.
    #[command(name = "checkset-merge")]
    CheckMerge {
        /// The problem file to write.
        #[arg(long)]
        out: PathBuf,
        /// The shard files.
        #[arg(required = true)]
        shards: Vec<PathBuf>,
    },
    /// Measure how far estimates overstate a move's loss, per board, stage and depth, against
    /// problem files with every move's exact score; writes the review's margins table.
    Margins {
        /// Problem files (OBF lines with every move's exact score).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The deepest estimate measured.
        #[arg(long, default_value_t = 14)]
        max_depth: u32,
        /// The 8x8 bands' edges, in empties: each band runs from an edge to the next less one.
        #[arg(long, value_delimiter = ',', default_value = "14,17,21,24,28,35")]
        bands_8: Vec<u32>,
        /// The 6x6 bands' edges.
        #[arg(long, value_delimiter = ',', default_value = "14,18,22,27")]
        bands_6: Vec<u32>,
        /// Seconds allowed a position: the depths it completes within them count.
        #[arg(long, default_value_t = 60)]
        seconds: u64,
        /// The estimates' evaluation: patterns or network (whose table is
        /// `data/review-margins-network.txt`).
        #[arg(long = "eval", default_value = "patterns")]
        eval: String,
        /// Where the table goes.
        #[arg(long, default_value = "data/review-margins.txt")]
        out: PathBuf,
    },
    /// Sample positions of self-play games for the selective search's model: each valued by the
    /// full-width estimate search at every depth up to --max-depth, and exactly when it has few
    /// enough empties (a resumable shard).
    #[command(name = "probcut-samples")]
    ProbcutSamples {
        /// Games files of `fit-eval games` (one board size).
        #[arg(long = "games", required_unless_present = "from")]
        games: Vec<PathBuf>,
        /// Instead of drawing positions from games: search again the positions of these sample
        /// files (plain or `.gz`), item by item in their order, keeping their exact scores (which
        /// no evaluation changes). The way to measure the model of another evaluation.
        #[arg(long, conflicts_with = "games")]
        from: Vec<PathBuf>,
        /// The evaluation at the leaves of the estimates: patterns or network.
        #[arg(long = "eval", default_value = "patterns")]
        eval: String,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        shard: ShardArgs,
        /// Positions of the whole run.
        #[arg(long, default_value_t = 4000)]
        positions: u64,
        /// The deepest estimate of each position.
        #[arg(long, default_value_t = 10)]
        max_depth: u32,
        /// Positions with at most this many empties are also solved exactly.
        #[arg(long, default_value_t = 24)]
        exact_max: u32,
        /// The fewest empties of a position.
        #[arg(long, default_value_t = 12)]
        min_empties: u32,
        /// The most empties of a position.
        #[arg(long, default_value_t = 52)]
        max_empties: u32,
        /// The shard file to write or continue.
        #[arg(long)]
        out: PathBuf,
    },
    /// Fit the selective search's model to sample files; writes `data/probcut.txt`.
    #[command(name = "probcut-fit")]
    ProbcutFit {
        /// Sample files of `probcut-samples` (any boards).
        #[arg(required = true)]
        samples: Vec<PathBuf>,
        /// Width of the bands of empties on 8x8.
        #[arg(long, default_value_t = 4)]
        band_8: u32,
        /// Width of the bands of empties on 6x6.
        #[arg(long, default_value_t = 3)]
        band_6: u32,
        /// Fewest samples a cell is fitted from.
        #[arg(long, default_value_t = 40)]
        min_count: usize,
        /// Where the parameters go.
        #[arg(long, default_value = "data/probcut.txt")]
        out: PathBuf,
    },
    /// Measure weights against exact scores of held-out positions, per stage.
    Measure {
        /// Board side: 4, 6 or 8.
        #[arg(long)]
        size: usize,
        /// Games played for held-out positions.
        #[arg(long, default_value_t = 300)]
        games: usize,
        /// Deepest positions solved, in empties (default: 12 on 4x4, 24 on 6x6, 19 on 8x8).
        #[arg(long)]
        max_empties: Option<usize>,
        /// Random seed (keep it apart from the fitting seeds).
        #[arg(long, default_value_t = 1_000_001)]
        seed: u64,
        /// Worker threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// The weights file (default: data/eval/weights-N.oxev).
        #[arg(long)]
        weights: Option<PathBuf>,
    },
}

/// How self-play games are played: `selfplay` and `checkset` share these.
#[derive(clap::Args)]
pub(crate) struct GameArgs {
    /// Plies of the midgame search (default 6 on 8x8, 8 on 6x6).
    #[arg(long)]
    depth: Option<u32>,
    /// Empties from which the exact solver plays on (default 20).
    #[arg(long, default_value_t = 20)]
    exact: u32,
    /// The longest random opening, in plies (default 40 on 8x8, 20 on 6x6).
    #[arg(long)]
    random: Option<u32>,
}

impl GameArgs {
    /// The run's settings: games of `size` from `seed`, shard `shard` (`I/N`).
    pub(crate) fn settings(&self, size: Size, seed: u64, shard: &str) -> Result<selfplay::Settings, String> {
        let (index, count) = shards::parse_shard(shard)?;
        let eight = size == Size::Eight;
        Ok(selfplay::Settings {
            size,
            seed,
            index,
            count,
            depth: self.depth.unwrap_or(if eight { 6 } else { 8 }),
            exact: self.exact,
            random: self.random.unwrap_or(if eight { 40 } else { 20 }),
        })
    }
}

/// Which shard of a batch job this process is: `--shard`, or the batch engine's environment.
#[derive(clap::Args, Debug, Clone)]
pub struct ShardArgs {
    /// This shard, I/N (1-based). Without it: SLURM_ARRAY_TASK_ID (less SLURM_ARRAY_TASK_MIN) of
    /// SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX of --shards, or the whole run.
    #[arg(long)]
    pub shard: Option<String>,
    /// The number of shards, with JOB_COMPLETION_INDEX (a Kubernetes Indexed Job's completions).
    #[arg(long)]
    pub shards: Option<u64>,
}

impl ShardArgs {
    /// The shard, 0-based `(index, count)`, from the arguments or the environment ([`crate::games::which_shard`]).
    pub fn which(&self) -> Result<(u64, u64), String> {
        crate::games::which_shard(self.shard.as_deref(), self.shards, |k| std::env::var(k).ok())
    }
}
