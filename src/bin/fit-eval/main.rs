//! `fit-eval`: makes the evaluation weights shipped in `data/eval/` from data the project makes
//! itself, and measures them. See `docs/eval.md`, which gives the commands, seeds and volumes.
//!
//! - `games`, `games-merge`, `games-stats` ([`games`]): self-play games at scale, in compressed
//!   shards that a Slurm job array or a Kubernetes Indexed Job runs unchanged
//!   (`docs/training-data.md`).
//! - `selfplay` ([`selfplay`]): training games in resumable shards: a random opening, the
//!   project's own search, the exact solver for the last 20 empties.
//! - `solved` ([`solved`]): exactly solved positions of lightly randomised games, for the late
//!   stages, in resumable shards.
//! - `merge`: one run's shards into one file.
//! - `train` ([`train`]): the 6x6 and 8x8 fit on games and solved positions; writes
//!   `weights-N.oxev` and `check-N.txt`.
//! - `opening`, `opening-fit` ([`opening`]): every position of the first plies labelled by a
//!   deeper search (resumable shards), and the opening stages refitted to those labels.
//! - `checkset`, `checkset-merge` ([`checkset`]): a test set of deep positions with every move's
//!   exact score, from self-play games of a seed the training does not use.
//! - `fit`: the 4x4 fit (every stage labelled exactly: the 4x4 tree is small); `measure`: weights
//!   against exact scores of fresh positions, per stage.
//!
//! Every generator is sharded the same way ([`shards`]): item `g` of a run belongs to shard
//! `g mod N` and depends only on the run's seed and `g`.

mod checkset;
mod games;
mod opening;
#[path = "../../parse_args.rs"]
mod parse_args;
mod selfplay;
mod shards;
mod solved;
mod train;

use clap::{Parser, Subcommand};
use othello_explorer::eval::features::{SCALARS, scalars};
use othello_explorer::eval::pattern::{Layout, pattern_entries};
use othello_explorer::eval::weights::StageWeights;
use othello_explorer::eval::{SCALE, Weights, baseline, evaluate_fine_with, evaluate_with};
use othello_explorer::geometry::full_mask;
use othello_explorer::obf::format_board;
use othello_explorer::rules::{flips, legal_moves};
use othello_explorer::solver::{Limits, Solver, SolverOptions};
use othello_explorer::{Color, Position, Size};
use std::collections::HashSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "fit-eval", about = "Fit and measure the evaluation weights (docs/eval.md)")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
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
        /// This shard, I/N (1-based).
        #[arg(long, default_value = "1/1")]
        shard: String,
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
        /// This shard, I/N (1-based). Without it: SLURM_ARRAY_TASK_ID (less SLURM_ARRAY_TASK_MIN) of
        /// SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX of --shards, or the whole run.
        #[arg(long)]
        shard: Option<String>,
        /// The number of shards, with JOB_COMPLETION_INDEX (a Kubernetes Indexed Job's completions).
        #[arg(long)]
        shards: Option<u64>,
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
        /// From this many empties on, self-play positions also train their colour-swapped twin
        /// with the opposite label (0: never).
        #[arg(long, default_value_t = 0)]
        swap_from: u32,
        /// Worker threads for the relabelling.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Keep the stages of this many empties and more as they are in `--base` and fit only
        /// the stages below (0: fit every stage). Must be the first empties of a stage.
        #[arg(long, default_value_t = 0)]
        freeze_from: u32,
        /// The weights the frozen stages come from (a `weights-N.oxev`; its `check-N.txt` beside
        /// it gives their check positions).
        #[arg(long)]
        base: Option<PathBuf>,
        /// Where to write the files.
        #[arg(long, default_value = "data/eval")]
        out: PathBuf,
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
struct GameArgs {
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
    fn settings(&self, size: Size, seed: u64, shard: &str) -> Result<selfplay::Settings, String> {
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

/// The board of `--size` for the generators, which run on 6x6 and 8x8 (`refusal` ends the error).
fn six_or_eight(size: usize, refusal: &str) -> Result<Size, String> {
    match size {
        6 => Ok(Size::Six),
        8 => Ok(Size::Eight),
        _ => Err(format!("--size {size}: {refusal}")),
    }
}

fn main() -> ExitCode {
    let cli = match parse_args::parse_args::<Cli>("fit-eval") {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let result = match cli.command {
        Command::Selfplay { size, seed, shard, games, play, hash_mb, out } => (|| {
            let settings = play.settings(six_or_eight(size, "self-play runs on 6 or 8")?, seed, &shard)?;
            let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            selfplay::run(&settings, &out, games, hash_mb, stop)
        })(),
        Command::Fit { size, games, exact, seed, threads, epochs, prior, out } => {
            let settings = FitSettings {
                games,
                exact: exact.unwrap_or(match size {
                    4 => 12,
                    _ => 15,
                }),
                seed,
                threads: threads.max(1),
                epochs,
                prior: prior.unwrap_or(if size == 4 { 3.0 } else { 30.0 }),
                out,
            };
            match size {
                4 => fit::<4>(&settings),
                6 => fit::<6>(&settings),
                8 => fit::<8>(&settings),
                _ => Err(format!("--size {size}: the board side must be 4, 6 or 8")),
            }
        }
        Command::Solved { size, seed, shard, positions, min_empties, max_empties, play, out } => (|| {
            let board = six_or_eight(size, "solved positions are made on 6 or 8")?;
            if min_empties > max_empties || max_empties as usize > size * size - 4 {
                return Err(format!("--min-empties {min_empties} --max-empties {max_empties}: not a range of empties"));
            }
            let (index, count) = shards::parse_shard(&shard)?;
            let settings = solved::Settings { size: board, seed, index, count, min_empties, max_empties, play };
            solved::run(&settings, &out, positions, &std::sync::atomic::AtomicBool::new(false))
        })(),
        Command::Checkset { size, seed, shard, positions, min_empties, max_empties, play, hash_mb, out } => (|| {
            let board = six_or_eight(size, "the check set comes from 6x6 or 8x8 self-play")?;
            if min_empties > max_empties {
                return Err(format!("--min-empties {min_empties} is above --max-empties {max_empties}"));
            }
            let run = checkset::Checkset { play: play.settings(board, seed, &shard)?, min_empties, max_empties };
            let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            checkset::run(&run, &out, positions, hash_mb, stop)
        })(
        ),
        Command::CheckMerge { out, shards } => checkset::merge(&shards, &out),
        Command::Opening { size, plies, depth, shard, hash_mb, out } => (|| {
            let size = six_or_eight(size, "the opening is labelled on 6 or 8")?;
            let (index, count) = shards::parse_shard(&shard)?;
            opening::label_shard(&opening::Labelling { size, plies, depth, index, count }, &out, hash_mb)
        })(),
        Command::OpeningFit { size, labels, weights, anchor, epochs, out } => {
            let weights = weights.unwrap_or_else(|| PathBuf::from(format!("data/eval/weights-{size}.oxev")));
            let settings = opening::Refit { labels, weights, anchor, epochs, out };
            match size {
                6 => opening::refit::<6>(&settings),
                8 => opening::refit::<8>(&settings),
                _ => Err(format!("--size {size}: the opening is refitted on 6 or 8")),
            }
        }
        Command::Merge { shards, out } => selfplay::merge(&shards, &out),
        Command::Games {
            size,
            seed,
            shard,
            shards,
            games,
            depth,
            exact,
            margin,
            temperature,
            random,
            hash_mb,
            out,
        } => (|| {
            let size = six_or_eight(size, "self-play runs on 6 or 8")?;
            let d = games::Run::defaults(size, seed);
            let run = games::Run {
                depth: depth.unwrap_or(d.depth),
                exact: exact.unwrap_or(d.exact),
                margin: margin.unwrap_or(d.margin),
                temperature: temperature.unwrap_or(d.temperature),
                random: random.unwrap_or(d.random),
                ..d
            };
            if !(run.temperature > 0.0 && run.temperature.is_finite()) {
                return Err(format!("--temperature {}: must be above 0", run.temperature));
            }
            if run.depth == 0 || run.random < 2 {
                return Err("--depth must be at least 1 and --random at least 2".to_string());
            }
            let shard = games::which_shard(shard.as_deref(), shards, |k| std::env::var(k).ok())?;
            let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
                signal_hook::flag::register(signal, stop.clone()).map_err(|e| format!("signals: {e}"))?;
            }
            games::run(&run, shard, &out, games, hash_mb, stop).map(|_| ())
        })(),
        Command::GamesMerge { out, shards } => games::merge(&shards, &out).map(|m| {
            eprintln!("{}: {} games ({} played twice, dropped)", out.display(), m.games, m.duplicates);
        }),
        Command::GamesStats { files } => games::stats(&files).map(|s| print!("{s}")),
        Command::Train {
            size,
            data,
            epochs,
            prior,
            smooth,
            bucket,
            bootstrap_depth,
            bootstrap_pair,
            lambda,
            swap_from,
            threads,
            freeze_from,
            base,
            out,
        } => (|| {
            let bucket = bucket.unwrap_or(if size == 8 { 4 } else { 2 });
            if !(1..=8).contains(&bucket) {
                return Err(format!("--bucket {bucket}: between 1 and 8 empties per stage"));
            }
            let mut shards = Vec::new();
            for path in data {
                if path.is_dir() {
                    let kinds = [format!("selfplay-{size}x{size}-"), format!("solved-{size}x{size}-")];
                    let mut found: Vec<PathBuf> = std::fs::read_dir(&path)
                        .map_err(|e| format!("{}: {e}", path.display()))?
                        .filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| {
                            p.file_name()
                                .and_then(|n| n.to_str())
                                .is_some_and(|n| n.ends_with(".txt") && kinds.iter().any(|k| n.starts_with(k.as_str())))
                        })
                        .collect();
                    if found.is_empty() {
                        return Err(format!(
                            "{}: no selfplay-{size}x{size}-*.txt or solved-{size}x{size}-*.txt files (unpack compressed ones first: xz -dk)",
                            path.display()
                        ));
                    }
                    found.sort();
                    shards.extend(found);
                } else {
                    shards.push(path);
                }
            }
            let settings = train::Settings {
                shards,
                epochs,
                prior,
                smooth,
                bootstrap_depth,
                bootstrap_pair,
                lambda,
                swap_from,
                threads: threads.max(1),
                freeze_from,
                base,
                out,
            };
            match size {
                6 => train::train::<6>(&settings, bucket),
                8 => train::train::<8>(&settings, bucket),
                _ => Err(format!("--size {size}: training runs on 6 or 8")),
            }
        })(),
        Command::Measure { size, games, max_empties, seed, threads, weights } => {
            let max = max_empties.unwrap_or(match size {
                4 => 12,
                6 => 24,
                _ => 19,
            });
            let path = weights.unwrap_or_else(|| PathBuf::from(format!("data/eval/weights-{size}.oxev")));
            match size {
                4 => measure::<4>(games, max, seed, threads.max(1), &path),
                6 => measure::<6>(games, max, seed, threads.max(1), &path),
                8 => measure::<8>(games, max, seed, threads.max(1), &path),
                _ => Err(format!("--size {size}: the board side must be 4, 6 or 8")),
            }
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fit-eval: {e}");
            ExitCode::from(2)
        }
    }
}

/// The stage widths, in empties: 1 on 4x4, 2 on 6x6, 4 on 8x8.
const fn bucket(n: usize) -> usize {
    match n {
        4 => 1,
        6 => 2,
        _ => 4,
    }
}

struct FitSettings {
    games: usize,
    exact: usize,
    seed: u64,
    threads: usize,
    epochs: usize,
    prior: f32,
    out: PathBuf,
}

/// splitmix64: a seeded stream of random numbers.
struct Rng(u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, k: usize) -> usize {
        (self.next() % k as u64) as usize
    }
}

fn empties<const N: usize>(p: u64, o: u64) -> usize {
    (full_mask(N) & !(p | o)).count_ones() as usize
}

fn squares(mut m: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let sq = m.trailing_zeros();
            m &= m - 1;
            sq
        })
    })
}

fn play<const N: usize>(p: u64, o: u64, sq: u32) -> (u64, u64) {
    let f = flips::<N>(p, o, sq);
    (o & !f, p | f | 1 << sq)
}

fn start<const N: usize>() -> (u64, u64) {
    let (p, o) = Position::start(Size::from_n(N).expect("4, 6 or 8")).raw();
    (p, o)
}

/// One lightly randomised game: every position with a move to play, in order. Each move is random
/// or the hand-written stand-in's greedy choice, half and half.
fn game<const N: usize>(rng: &mut Rng) -> Vec<(u64, u64)> {
    // A position with a move to play has an empty square, so the game is never cut short.
    game_played::<N>(rng, 0, 2, |cp, co, _| -baseline::<N>(cp, co))
}

/// A randomised game from the start: every position with a move to play, in order, up to the first
/// with at most `stop` empties. Each move is random when the next number is a multiple of `one_in`,
/// else the move whose child has the highest `value(child's p, child's o, empties before the
/// move)`, ties broken at random (the list is walked from a random start).
fn game_played<const N: usize>(
    rng: &mut Rng,
    stop: usize,
    one_in: u64,
    value: impl Fn(u64, u64, usize) -> i32,
) -> Vec<(u64, u64)> {
    let (mut p, mut o) = start::<N>();
    let mut out = Vec::new();
    loop {
        let moves = legal_moves::<N>(p, o);
        if moves == 0 {
            if legal_moves::<N>(o, p) == 0 {
                return out;
            }
            (p, o) = (o, p);
            continue;
        }
        out.push((p, o));
        let empties = empties::<N>(p, o);
        if empties <= stop {
            return out;
        }
        let list: Vec<u32> = squares(moves).collect();
        let sq = if rng.next().is_multiple_of(one_in) {
            list[rng.below(list.len())]
        } else {
            let k = rng.below(list.len());
            let mut best = (i32::MIN, list[k]);
            for i in 0..list.len() {
                let sq = list[(k + i) % list.len()];
                let (cp, co) = play::<N>(p, o, sq);
                let v = value(cp, co, empties);
                if v > best.0 {
                    best = (v, sq);
                }
            }
            best.1
        };
        (p, o) = play::<N>(p, o, sq);
    }
}

/// Positions per stage: from each game, one at a random number of empties within each stage.
fn sample<const N: usize>(games: usize, seed: u64) -> Vec<Vec<(u64, u64)>> {
    let stages = (N * N - 4) / bucket(N) + 1;
    let mut rng = Rng(seed);
    let mut per_stage = vec![Vec::new(); stages];
    let mut seen = HashSet::new();
    for _ in 0..games {
        let g = game::<N>(&mut rng);
        for (s, stage) in per_stage.iter_mut().enumerate() {
            let e = s * bucket(N) + rng.below(bucket(N));
            if let Some(&(p, o)) = g.iter().find(|&&(p, o)| empties::<N>(p, o) == e)
                && seen.insert((p, o))
            {
                stage.push((p, o));
            }
        }
    }
    per_stage
}

/// Runs `f` over `items` on `threads` workers, each with its own state from `init`, in order.
fn parallel<T: Sync, S, R: Send>(
    items: &[T],
    threads: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &T) -> R + Sync,
) -> Vec<R> {
    let chunk = items.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| {
                let (init, f) = (&init, &f);
                scope.spawn(move || {
                    let mut state = init();
                    part.iter().map(|x| f(&mut state, x)).collect::<Vec<R>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a worker panicked")).collect()
    })
}

fn solver() -> Solver {
    Solver::new(SolverOptions { hash_mb: 16, threads: 1, ..SolverOptions::default() })
}

fn exact<const N: usize>(solver: &mut Solver, p: u64, o: u64) -> i32 {
    let size = Size::from_n(N).expect("4, 6 or 8");
    let position = Position::from_player(size, p, o, Color::Black).expect("a position from play");
    solver.score(&position, &Limits::default()).expect("no limits").0
}

/// The bootstrapping search: alpha-beta down to `horizon` empties, leaves evaluated with `w` (in
/// 1/SCALE discs), finished games exact. Children are tried fewest opponent moves first.
fn bootstrap<const N: usize>(w: &Weights, p: u64, o: u64, horizon: usize, mut alpha: i32, beta: i32) -> i32 {
    if empties::<N>(p, o) <= horizon {
        return evaluate_fine_with::<N>(w, p, o);
    }
    let moves = legal_moves::<N>(p, o);
    if moves == 0 {
        if legal_moves::<N>(o, p) == 0 {
            return evaluate_fine_with::<N>(w, p, o);
        }
        return -bootstrap::<N>(w, o, p, horizon, -beta, -alpha);
    }
    let mut children: Vec<(u32, u64, u64)> = squares(moves)
        .map(|sq| {
            let (cp, co) = play::<N>(p, o, sq);
            (legal_moves::<N>(cp, co).count_ones(), cp, co)
        })
        .collect();
    children.sort_unstable_by_key(|c| c.0);
    let mut best = i32::MIN;
    for (_, cp, co) in children {
        let v = -bootstrap::<N>(w, cp, co, horizon, -beta, -alpha);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// One position's features as the fit sees them.
struct Sample {
    scalars: [f32; SCALARS],
    entries: Vec<u32>,
    label: f32,
}

fn features<const N: usize>(p: u64, o: u64, label: f32) -> Sample {
    let mut entries = Vec::new();
    pattern_entries::<N>(p, o, &mut entries);
    Sample { scalars: scalars::<N>(p, o).map(|x| x as f32), entries, label }
}

/// Least squares by full-batch Adam: scalar weights free, pattern weights with an L2 prior worth
/// `prior` samples each. Returns the weights in discs (scalars, tables).
fn fit_stage(samples: &[Sample], table_len: usize, epochs: usize, prior: f32) -> ([f32; SCALARS], Vec<f32>) {
    let n = samples.len().max(1) as f32;
    let mut ws = [0f32; SCALARS];
    ws[0] = samples.iter().map(|s| s.label).sum::<f32>() / n;
    let mut wt = vec![0f32; table_len];
    let mut touched: Vec<u32> = samples.iter().flat_map(|s| s.entries.iter().copied()).collect();
    touched.sort_unstable();
    touched.dedup();
    let (mut ms, mut vs) = ([0f32; SCALARS], [0f32; SCALARS]);
    let (mut mt, mut vt) = (vec![0f32; table_len], vec![0f32; table_len]);
    let mut gt = vec![0f32; table_len];
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    for epoch in 0..epochs {
        let lr = 0.1 * (1.0 - epoch as f32 / epochs as f32) + 0.005;
        let mut gs = [0f32; SCALARS];
        for &e in &touched {
            gt[e as usize] = 0.0;
        }
        for s in samples {
            let pred: f32 = s.scalars.iter().zip(&ws).map(|(x, w)| x * w).sum::<f32>()
                + s.entries.iter().map(|&e| wt[e as usize]).sum::<f32>();
            let r = 2.0 * (pred - s.label) / n;
            for (g, x) in gs.iter_mut().zip(&s.scalars) {
                *g += r * x;
            }
            for &e in &s.entries {
                gt[e as usize] += r;
            }
        }
        let t = epoch as i32 + 1;
        let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
        for i in 0..SCALARS {
            ms[i] = b1 * ms[i] + (1.0 - b1) * gs[i];
            vs[i] = b2 * vs[i] + (1.0 - b2) * gs[i] * gs[i];
            ws[i] -= lr * (ms[i] / c1) / ((vs[i] / c2).sqrt() + eps);
        }
        for &e in &touched {
            let e = e as usize;
            let g = gt[e] + 2.0 * prior / n * wt[e];
            mt[e] = b1 * mt[e] + (1.0 - b1) * g;
            vt[e] = b2 * vt[e] + (1.0 - b2) * g * g;
            wt[e] -= lr * (mt[e] / c1) / ((vt[e] / c2).sqrt() + eps);
        }
    }
    (ws, wt)
}

fn quantise(x: f32) -> i16 {
    (x * SCALE as f32).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16
}

fn fit<const N: usize>(settings: &FitSettings) -> Result<(), String> {
    let began = Instant::now();
    let w_bucket = bucket(N);
    let mut weights = Weights::zero(N, w_bucket);
    let layout = Layout::of(N);
    let per_stage = sample::<N>(settings.games, settings.seed);
    println!(
        "{N}x{N}: {} games, {} positions in {} stages ({:.1} s)",
        settings.games,
        per_stage.iter().map(Vec::len).sum::<usize>(),
        per_stage.len(),
        began.elapsed().as_secs_f64()
    );
    println!("| stage | empties | positions | labels | label s | train MAE | held-out MAE | stand-in MAE |");
    println!("|---|---|---|---|---|---|---|---|");
    for (s, positions) in per_stage.iter().enumerate() {
        let t0 = Instant::now();
        let (lo, hi) = (s * w_bucket, s * w_bucket + w_bucket - 1);
        let exact_stage = hi <= settings.exact;
        let labels: Vec<f32> = if exact_stage {
            parallel(positions, settings.threads, solver, |sv, &(p, o)| exact::<N>(sv, p, o) as f32)
        } else {
            let w = &weights;
            parallel(
                positions,
                settings.threads,
                || (),
                |_, &(p, o)| bootstrap::<N>(w, p, o, lo - 1, -i32::MAX, i32::MAX) as f32 / SCALE as f32,
            )
        };
        let label_secs = t0.elapsed().as_secs_f64();
        let samples: Vec<Sample> = positions.iter().zip(&labels).map(|(&(p, o), &y)| features::<N>(p, o, y)).collect();
        // Every tenth position is held out to report over-fitting (when there are enough).
        let holds = |i: usize| positions.len() >= 50 && i.is_multiple_of(10);
        let (held, train): (Vec<_>, Vec<_>) = samples.into_iter().enumerate().partition(|&(i, _)| holds(i));
        let train: Vec<Sample> = train.into_iter().map(|x| x.1).collect();
        let held: Vec<(usize, Sample)> = held;
        let (ws, wt) = fit_stage(&train, layout.table_len(), settings.epochs, settings.prior);
        let stage = StageWeights { scalars: ws.map(quantise), tables: wt.iter().map(|&x| quantise(x)).collect() };
        weights.set_stage(s, stage);
        let mae = |idx: &mut dyn Iterator<Item = usize>| {
            let (mut sum, mut sum_base, mut k) = (0f64, 0f64, 0);
            for i in idx {
                let (p, o) = positions[i];
                sum += (evaluate_with::<N>(&weights, p, o) as f32 - labels[i]).abs() as f64;
                sum_base += (baseline::<N>(p, o) as f32 - labels[i]).abs() as f64;
                k += 1;
            }
            (sum / k.max(1) as f64, sum_base / k.max(1) as f64)
        };
        let (train_mae, _) = mae(&mut (0..positions.len()).filter(|&i| !holds(i)));
        let (held_mae, base_mae) = mae(&mut held.iter().map(|x| x.0));
        println!(
            "| {s} | {lo}-{hi} | {} | {} | {label_secs:.1} | {train_mae:.2} | {held_mae:.2} | {base_mae:.2} |",
            positions.len(),
            if exact_stage { "exact" } else { "bootstrap" },
        );
    }
    std::fs::create_dir_all(&settings.out).map_err(|e| format!("{}: {e}", settings.out.display()))?;
    let path = settings.out.join(format!("weights-{N}.oxev"));
    let bytes = weights.to_bytes();
    std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("wrote {} ({} bytes)", path.display(), bytes.len());
    // Check positions: two per stage from fresh games, with the evaluations these weights give.
    let check = sample::<N>(50, settings.seed ^ 0xc4ec);
    let mut text = format!(
        "# fit-eval check positions for weights-{N}.oxev: board string, then the evaluation (discs, side to move)\n"
    );
    for stage in &check {
        for &(p, o) in stage.iter().take(2) {
            let size = Size::from_n(N).expect("4, 6 or 8");
            let position = Position::from_player(size, p, o, Color::Black).expect("a position from play");
            text += &format!("{} {}\n", format_board(&position), evaluate_with::<N>(&weights, p, o));
        }
    }
    let check_path = settings.out.join(format!("check-{N}.txt"));
    std::fs::write(&check_path, text).map_err(|e| format!("{}: {e}", check_path.display()))?;
    println!("wrote {} in {:.1} s", check_path.display(), began.elapsed().as_secs_f64());
    Ok(())
}

fn measure<const N: usize>(
    games: usize,
    max_empties: usize,
    seed: u64,
    threads: usize,
    path: &PathBuf,
) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let weights = Weights::from_bytes(N, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let per_stage = sample::<N>(games, seed);
    println!("{N}x{N}, {} ({games} games, seed {seed})", path.display());
    println!("| empties | positions | fitted MAE | stand-in MAE | fitted sign right | stand-in sign right |");
    println!("|---|---|---|---|---|---|");
    let (mut all_fit, mut all_base, mut all_k) = (0f64, 0f64, 0usize);
    for (s, positions) in per_stage.iter().enumerate() {
        let (lo, hi) = (s * bucket(N), s * bucket(N) + bucket(N) - 1);
        if hi > max_empties || positions.is_empty() {
            continue;
        }
        let exact: Vec<i32> = parallel(positions, threads, solver, |sv, &(p, o)| exact::<N>(sv, p, o));
        let (mut fit_err, mut base_err, mut fit_sign, mut base_sign, mut decided) = (0f64, 0f64, 0, 0, 0);
        for (&(p, o), &y) in positions.iter().zip(&exact) {
            let (f, b) = (evaluate_with::<N>(&weights, p, o), baseline::<N>(p, o));
            fit_err += (f - y).abs() as f64;
            base_err += (b - y).abs() as f64;
            if y != 0 {
                decided += 1;
                fit_sign += (f.signum() == y.signum()) as usize;
                base_sign += (b.signum() == y.signum()) as usize;
            }
        }
        let k = positions.len() as f64;
        all_fit += fit_err;
        all_base += base_err;
        all_k += positions.len();
        let pct = |x: usize| 100.0 * x as f64 / decided.max(1) as f64;
        println!(
            "| {lo}-{hi} | {} | {:.2} | {:.2} | {:.0}% | {:.0}% |",
            positions.len(),
            fit_err / k,
            base_err / k,
            pct(fit_sign),
            pct(base_sign)
        );
    }
    println!("| all | {all_k} | {:.2} | {:.2} | | |", all_fit / all_k.max(1) as f64, all_base / all_k.max(1) as f64);
    Ok(())
}
