//! `fit-eval`: makes the evaluation weights shipped in `data/eval/` from data the project makes
//! itself, and measures them. See `docs/eval.md`, which gives the commands, seeds and volumes.
//!
//! - `games`, `games-merge`, `games-stats` ([`games`]): self-play games at scale, in compressed
//!   shards that a Slurm job array or a Kubernetes Indexed Job runs unchanged
//!   (`docs/training-data.md`).
//! - `selfplay` ([`selfplay`]): training games in resumable shards: a random opening, the
//!   project's own search, the exact solver for the last 20 empties.
//! - `solved` ([`solved`]): exactly solved positions of lightly randomised games, for the late
//!   stages, in resumable shards; `games-solve`: one position of every game of `games` files
//!   solved exactly, labels for the stages above the games' perfect lines.
//! - `merge`: one run's shards into one file.
//! - `train` ([`train`]): the 6x6 and 8x8 fit on games and solved positions; writes
//!   `weights-N.oxev` and `check-N.txt`.
//! - `opening`, `opening-fit` ([`opening`]): every position of the first plies labelled by a
//!   deeper search (resumable shards), and the opening stages refitted to those labels.
//! - `checkset`, `checkset-merge` ([`checkset`]): a test set of deep positions with every move's
//!   exact score, from self-play games of a seed the training does not use.
//! - `margins` ([`margins`]): how far estimates overstate a move's loss, per stage and depth: the
//!   review's margins table (`data/review-margins.txt`).
//! - `probcut-samples`, `probcut-fit` ([`probcut`]): the selective search's model
//!   (`data/probcut.txt`), measured on the project's own searches.
//! - `fit`: the 4x4 fit (every stage labelled exactly: the 4x4 tree is small); `measure`: weights
//!   against exact scores of fresh positions, per stage.
//!
//! The files: `cli.rs` the command line, this file the dispatch, one file per command family
//! above; `play.rs` (the seeded stream, raw moves, randomised games) and `labels.rs` (exact and
//! bootstrapped labels, worker threads) are what they share; `fit4.rs` holds `fit` and `measure`.
//!
//! Every generator is sharded the same way ([`shards`]): item `g` of a run belongs to shard
//! `g mod N` and depends only on the run's seed and `g`.

mod checkpoint;
mod checkset;
mod cli;
mod fit4;
mod games;
mod label;
mod labels;
mod margins;
mod netdata;
mod opening;
#[path = "../../parse_args.rs"]
mod parse_args;
mod play;
mod probcut;
mod selfplay;
mod shards;
mod solved;
mod train;

use cli::{Cli, Command};
use fit4::{FitSettings, fit, measure};
use othello_explorer::Size;
use std::path::PathBuf;
use std::process::ExitCode;

pub(crate) use labels::{bootstrap, parallel};
pub(crate) use play::{Rng, game, game_played};

/// The evaluation named by the option `flag` (`--eval`, `--label-eval`): patterns or network.
fn evaluator(flag: &str, name: &str) -> Result<othello_explorer::eval::Evaluator, String> {
    othello_explorer::eval::Evaluator::from_name(name).ok_or(format!("{flag} {name:?}: expected patterns or network"))
}

/// The board of `--size` for the generators, which run on 6x6 and 8x8 (`refusal` ends the error).
fn six_or_eight(size: usize, refusal: &str) -> Result<Size, String> {
    match size {
        6 => Ok(Size::Six),
        8 => Ok(Size::Eight),
        _ => Err(format!("--size {size}: {refusal}")),
    }
}

/// A flag that SIGINT and SIGTERM raise: the batch jobs stop at their next item and keep what
/// they wrote.
fn stop_on_signals() -> Result<std::sync::Arc<std::sync::atomic::AtomicBool>, String> {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(signal, stop.clone()).map_err(|e| format!("signals: {e}"))?;
    }
    Ok(stop)
}

fn main() -> ExitCode {
    let cli = match parse_args::parse_args::<Cli>("fit-eval") {
        Ok((cli, _)) => cli,
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
        Command::Solved { size, seed, shard, positions, min_empties, max_empties, play, every_move, out } => (|| {
            let board = six_or_eight(size, "solved positions are made on 6 or 8")?;
            if min_empties > max_empties || max_empties as usize > size * size - 4 {
                return Err(format!("--min-empties {min_empties} --max-empties {max_empties}: not a range of empties"));
            }
            let (index, count) = shard.which()?;
            let settings =
                solved::Settings { size: board, seed, index, count, min_empties, max_empties, play, every_move };
            // SIGINT or SIGTERM: the line in hand is finished, the run stops there.
            let stop = stop_on_signals()?;
            solved::run(&settings, &out, positions, &stop)
        })(
        ),
        Command::Checkset {
            size,
            seed,
            shard,
            positions,
            min_empties,
            max_empties,
            play,
            search_depth,
            selectivity,
            label_eval,
            hash_mb,
            out,
        } => (|| {
            let board = six_or_eight(size, "the check set comes from 6x6 or 8x8 self-play")?;
            if min_empties > max_empties {
                return Err(format!("--min-empties {min_empties} is above --max-empties {max_empties}"));
            }
            let scoring = if search_depth == 0 {
                checkset::Scoring::Exact
            } else {
                let selectivity =
                    othello_explorer::solver::Selectivity::parse(&selectivity).map_err(|e| format!("--{e}"))?;
                let evaluators =
                    label_eval.iter().map(|name| evaluator("--label-eval", name)).collect::<Result<Vec<_>, _>>()?;
                if evaluators.is_empty() {
                    return Err("--label-eval names no evaluation".to_string());
                }
                checkset::Scoring::Search { depth: search_depth, selectivity, evaluators }
            };
            let run =
                checkset::Checkset { play: play.settings(board, seed, &shard)?, min_empties, max_empties, scoring };
            let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            checkset::run(&run, &out, positions, hash_mb, stop)
        })(),
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
        Command::Games { size, seed, shard, games, depth, exact, margin, temperature, random, hash_mb, out } => {
            (|| {
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
                let shard = shard.which()?;
                let stop = stop_on_signals()?;
                games::run(&run, shard, &out, games, hash_mb, stop).map(|_| ())
            })()
        }
        Command::GamesSolve { from, seed, shard, min_empties, max_empties, hash_mb, out } => (|| {
            if min_empties > max_empties {
                return Err(format!("--min-empties {min_empties} is above --max-empties {max_empties}"));
            }
            let (index, count) = shard.which()?;
            let settings = solved::FromGames { seed, index, count, min_empties, max_empties };
            let stop = stop_on_signals()?;
            solved::run_from_games(&settings, &from, &out, hash_mb, &stop).map(|_| ())
        })(),
        Command::Label {
            from,
            seed,
            shard,
            per_game,
            min_empties,
            max_empties,
            depth,
            selectivity,
            exact,
            check,
            games,
            hash_mb,
            eval,
            network,
            openings,
            out,
        } => (|| {
            let evaluator = evaluator("--eval", &eval)?;
            let network = match network {
                Some(_) if evaluator != othello_explorer::eval::Evaluator::Network => {
                    return Err("--network goes with --eval network".to_string());
                }
                Some(path) => {
                    let refused = |e: String| format!("--network {}: {e}", path.display());
                    let bytes = othello_explorer::notation::textfile::read_bytes(&path, 64 << 20)
                        .map_err(|e| refused(e.to_string()))?;
                    othello_explorer::eval::network::use_instead(&bytes).map_err(refused)?;
                    Some(play::fingerprint_of(&bytes))
                }
                None => None,
            };
            if min_empties > max_empties {
                return Err(format!("--min-empties {min_empties} is above --max-empties {max_empties}"));
            }
            if depth == 0 || per_game == 0 {
                return Err("--depth and --per-game must be at least 1".to_string());
            }
            let selectivity =
                othello_explorer::solver::Selectivity::parse(&selectivity).map_err(|e| format!("--{e}"))?;
            let (index, count) = shard.which()?;
            let settings = label::Settings {
                seed,
                index,
                count,
                per_game,
                min_empties,
                max_empties,
                depth,
                selectivity,
                exact,
                check,
                games,
                evaluator,
                network,
                openings,
            };
            let stop = stop_on_signals()?;
            label::run(&settings, &from, &out, hash_mb, &stop).map(|_| ())
        })(),
        Command::NetData { games, labels, solved, min_empties, keep, valid_every, out } => (|| {
            if games.is_empty() && solved.is_empty() {
                return Err("net-data: no games files and no --solved files: nothing to make records of".to_string());
            }
            let settings = netdata::Settings { min_empties, keep: keep.max(1), valid_every: valid_every.max(1) };
            netdata::run(&settings, &games, &labels, &solved, &out).map(|s| print!("{s}"))
        })(),
        Command::LabelStats { files, games } => label::stats(&files, &games).map(|s| print!("{s}")),
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
            keep_lean,
            exact_check,
            swap_from,
            threads,
            freeze_from,
            freeze_below,
            base,
            out,
            checkpoint,
            epochs_per_run,
        } => (|| {
            let bucket = bucket.unwrap_or(if size == 8 { 4 } else { 2 });
            if !(1..=8).contains(&bucket) {
                return Err(format!("--bucket {bucket}: between 1 and 8 empties per stage"));
            }
            let mut shards = Vec::new();
            for path in data {
                if path.is_dir() {
                    let kinds = [format!("selfplay-{size}x{size}-"), format!("solved-{size}x{size}-")];
                    let games = format!("games-{size}x{size}-");
                    let mut found: Vec<PathBuf> = std::fs::read_dir(&path)
                        .map_err(|e| format!("{}: {e}", path.display()))?
                        .filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| {
                            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                                (n.ends_with(".txt") && kinds.iter().any(|k| n.starts_with(k.as_str())))
                                    || (n.ends_with(".oxg") && n.starts_with(games.as_str()))
                            })
                        })
                        .collect();
                    if found.is_empty() {
                        return Err(format!(
                            "{}: no games-{size}x{size}-*.oxg, selfplay-{size}x{size}-*.txt or solved-{size}x{size}-*.txt files (unpack compressed text first: xz -dk)",
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
                keep_lean,
                exact_check,
                swap_from,
                threads: threads.max(1),
                freeze_from,
                freeze_below,
                base,
                out,
                stop: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
                epochs_per_run: epochs_per_run.map(|k| k as usize),
                checkpoint,
            };
            if settings.checkpoint.is_some() {
                // A signal ends the epoch under way and keeps the state (without a checkpoint
                // there is nothing to keep, and a signal ends the fit at once).
                for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
                    signal_hook::flag::register(signal, settings.stop.clone()).map_err(|e| format!("signals: {e}"))?;
                }
            }
            let ended = match size {
                6 => train::train::<6>(&settings, bucket)?,
                8 => train::train::<8>(&settings, bucket)?,
                _ => return Err(format!("--size {size}: training runs on 6 or 8")),
            };
            if let train::Ended::Paused { round, epoch } = ended {
                let path = settings.checkpoint.as_ref().expect("a stopped fit has a checkpoint").display();
                eprintln!(
                    "stopped in round {round} at epoch {epoch} of {}: the state is in {path}; the same command goes on",
                    settings.epochs
                );
                std::process::exit(3);
            }
            Ok(())
        })(),
        Command::Margins { files, max_depth, bands_8, bands_6, seconds, eval, out } => (|| {
            let evaluator = evaluator("--eval", &eval)?;
            margins::run(&margins::Margins {
                files,
                max_depth,
                bands: vec![(8, bands_8), (6, bands_6)],
                per_position: std::time::Duration::from_secs(seconds),
                evaluator,
                out,
            })
        })(),
        Command::ProbcutSamples {
            games,
            from,
            eval,
            seed,
            shard,
            positions,
            max_depth,
            exact_max,
            min_empties,
            max_empties,
            out,
        } => (|| {
            let shard = shard.which()?;
            if min_empties > max_empties || max_empties > 60 {
                return Err(format!("--min-empties {min_empties} --max-empties {max_empties}: not a range of empties"));
            }
            let evaluator = evaluator("--eval", &eval)?;
            let settings = probcut::Samples {
                games,
                from,
                evaluator,
                seed,
                shard,
                positions,
                max_depth: max_depth.min(20),
                exact_max,
                min_empties,
                max_empties,
                out,
            };
            probcut::samples(&settings).map(|n| eprintln!("{n} samples in {}", settings.out.display()))
        })(),
        Command::ProbcutFit { samples, band_8, band_6, min_count, out } => {
            let f = probcut::Fit { samples, band: vec![(8, band_8), (6, band_6)], min_count: min_count.max(3), out };
            probcut::fit(&f).map(|summary| eprint!("{summary}"))
        }
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
