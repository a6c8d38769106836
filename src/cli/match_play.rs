//! `match`: two engines play each other from a set of openings, each opening twice with the
//! colours swapped; the games are written as GGF, and the summary gives wins, draws, losses, the
//! mean disc difference and the Elo difference with its 95% interval (and, with `--sprt`, the
//! sequential test engine developers stop on).
//!
//! An engine is a process spoken to by a protocol: `ours[:level=N,time=S,threads=K,hash=M,
//! selectivity=P,weights=FILE,eval=E]` (this program's own `gtp`, as a process of its own), `gtp:COMMAND` or
//! `nboard:COMMAND` (any program: Edax's `-gtp` and `-nboard`, neural-reversi's `gtp`, ...). Every
//! move an engine gives is checked by the rules: an illegal move, an engine that ends, refuses a
//! command (`? ...`), answers what is no move, or stays silent for more than `--timeout` loses the
//! game in hand (a forfeit, said so in the report and written to `--ggf` like any game), and the
//! match goes on with the engine started again. An engine's output is read in lines of at most
//! [`LONGEST_LINE`](super::protocol::LONGEST_LINE) bytes, at most
//! [`QUEUED_LINES`](super::protocol::QUEUED_LINES) of them ahead, so it cannot fill the match's
//! memory.
//!
//! Each engine runs in a process group of its own, and the whole group (the engine and whatever it
//! started) is killed on a forfeit, at the end of the match (after a polite `quit`) and on Ctrl-C
//! or SIGTERM: no engine is left running. Ctrl-C ends the match within moments, even while an
//! engine is silent, with the games finished so far written and counted; a second one ends it at
//! once, the engines killed.
//!
//! The opening is given, not chosen: each GGF record starts from the position after it (`BO`,
//! as the Othello servers record their random starts) and holds only the moves the engines
//! chose, so `review`, the explorer's `:review` and the archive judge and count those alone; the
//! report lists each game's opening (`opening_moves`) and its whole transcript (`moves`).

mod engine;
mod tally;

use super::common::CliError;
use super::protocol::vertex;
use super::values;
use clap::Args;
use engine::*;
use othello_explorer::notation::printable::{count, one_line};
use othello_explorer::{Color, Position, Scoring, Size, Square, notation::transcript};
use serde::Serialize;
use std::io::{BufReader, IsTerminal, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tally::*;

/// The options of `match`.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// The first engine: `ours[:level=N,time=S,threads=K,hash=M,selectivity=P,weights=FILE,eval=E]`
    /// (`selectivity`: 73, 87, 95, 98, 99 or 100, as `gtp --selectivity`; `eval`: patterns or
    /// network, as `gtp --eval`), `gtp:COMMAND` or
    /// `nboard:COMMAND` (the command run by `sh -c`, in a process group of its own that is killed
    /// whole at the end).
    #[arg(long, value_name = "ENGINE")]
    pub engine1: String,
    /// The second engine, the same way.
    #[arg(long, value_name = "ENGINE")]
    pub engine2: String,
    /// The working directory of the first engine's process.
    #[arg(long, value_name = "DIR")]
    pub dir1: Option<PathBuf>,
    /// The working directory of the second engine's process.
    #[arg(long, value_name = "DIR")]
    pub dir2: Option<PathBuf>,
    /// Board size: 8, 6 or 4.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = super::values::SIZE)]
    pub size: u8,
    /// Openings: a file of transcripts, one a line (`;` or `#` starts a comment). Without it,
    /// `--pairs` openings of `--random-plies` random moves (from `--seed`, no two alike under the
    /// board's symmetries).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// How many openings to play (each twice, colours swapped); default: every opening of the
    /// file, or 10 generated.
    #[arg(long, value_name = "N")]
    pub pairs: Option<usize>,
    /// Random plies of a generated opening (default 8 on 8x8, 4 on 6x6, 2 on 4x4).
    #[arg(long, value_name = "K")]
    pub random_plies: Option<usize>,
    /// The seed of the generated openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds a move for every engine: `ours` plays with this move time, and GTP engines are
    /// told it (`time_settings 0 S 1`, then `time_left` before each move; whole seconds, at
    /// least 1).
    #[arg(long, value_name = "SECONDS", value_parser = super::values::seconds)]
    pub move_time: Option<Duration>,
    /// Seconds an engine may stay silent on a move before it forfeits the game (its process group
    /// killed, the engine started again for the next).
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = super::values::seconds)]
    pub timeout: Duration,
    /// Write the games to FILE as GGF, one record a line, rewritten after each game: each record
    /// starts from the position after its opening (BO) and holds the moves the engines chose.
    /// FILE must not exist: an existing file is refused, never replaced or appended to.
    #[arg(long, value_name = "FILE")]
    pub ggf: Option<PathBuf>,
    /// Stop early by the sequential probability ratio test between these Elo differences
    /// (engine 1 less engine 2): `ELO0,ELO1`, for example `0,20`.
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// The SPRT's false-positive rate.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// The SPRT's false-negative rate.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
}

/// One game played.
#[derive(Clone, Debug, Serialize)]
struct Played {
    /// The opening's number, from 1.
    opening: usize,
    black: String,
    white: String,
    /// The opening's moves, given to both engines (the GGF record starts after them).
    opening_moves: String,
    /// The whole game from the start, the opening's moves first.
    moves: String,
    /// The final disc difference from black's side (empties to the winner); for a forfeit, the
    /// winner's side only (+1 or -1).
    black_score: i32,
    /// Why the game ended early, if it did.
    forfeit: Option<String>,
    /// Engine 1's result: 1 a win, 0.5 a draw, 0 a loss.
    engine1_points: f64,
    /// Engine 1's disc difference.
    engine1_discs: i32,
    /// The position after the opening, where the engines' choices begin.
    #[serde(skip)]
    start: Position,
    /// The moves the engines chose.
    #[serde(skip)]
    played: Vec<Square>,
}

/// The openings: a file's transcripts, or generated ones.
fn openings(args: &MatchArgs, size: Size) -> Result<Vec<Vec<Square>>, CliError> {
    let start = Position::start(size);
    if let Some(path) = &args.openings {
        let text =
            othello_explorer::notation::textfile::read_text(path, othello_explorer::notation::textfile::TEXT_LIMIT)
                .map_err(|e| CliError::Usage(format!("--openings {e}")))?;
        let mut out = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let t = line.split([';', '#']).next().unwrap_or("").trim();
            if t.is_empty() {
                continue;
            }
            let played = transcript::play(&start, t)
                .map_err(|e| CliError::Usage(format!("{} line {}: {e}", path.display(), i + 1)))?;
            out.push(played.moves);
        }
        if out.is_empty() {
            return Err(CliError::Usage(format!("{}: no opening in the file", path.display())));
        }
        let n = args.pairs.unwrap_or(out.len());
        out.truncate(n);
        return Ok(out);
    }
    let plies = args.random_plies.unwrap_or(match size {
        Size::Four => 2,
        Size::Six => 4,
        Size::Eight => 8,
    });
    let want = args.pairs.unwrap_or(10);
    let mut rng = args.seed ^ 0x9e37_79b9_7f4a_7c15;
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < want && tries < want * 1000 {
        tries += 1;
        let mut p = start;
        let mut moves = Vec::new();
        while moves.len() < plies && !p.is_game_over() {
            p = p.after_forced_pass().0;
            let legal = p.legal_moves().reading_order();
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let m = legal[(rng % legal.len() as u64) as usize];
            moves.push(m);
            p = p.play(m).expect("a legal move");
        }
        if p.is_game_over() || !seen.insert((othello_explorer::board::symmetry::canonical(&p).0, p.to_move())) {
            continue;
        }
        out.push(moves);
    }
    if out.len() < want {
        return Err(CliError::Usage(format!(
            "only {} distinct openings of {plies} plies: ask for fewer --pairs or more --random-plies",
            out.len()
        )));
    }
    Ok(out)
}

/// A game's moves (`None` a pass) from the start, how many of them the opening gave, its last
/// position, and the forfeit that ended it if one did: the engine that lost it and why.
type GameEnd = (Vec<Option<Square>>, usize, Position, Option<(usize, String)>);

/// Plays one game; its end (an engine's failure a forfeit), or the stop that cut it short (not
/// counted).
fn play_game(
    engines: &mut [Engine; 2],
    black: usize,
    start: &Position,
    opening: &[Square],
    move_time: Option<Duration>,
    stop: &AtomicBool,
) -> Result<GameEnd, String> {
    let mut moves: Vec<Option<Square>> = Vec::new();
    let mut p = *start;
    for &m in opening {
        if p.must_pass() {
            moves.push(None);
            p = p.pass();
        }
        moves.push(Some(m));
        p = p.play(m).map_err(|e| e.to_string())?;
    }
    let given = moves.len();
    let interrupted = || Err("interrupted".to_string());
    for (i, e) in engines.iter_mut().enumerate() {
        if let Err(why) = e.new_game(start, &moves, move_time) {
            if stop.load(Ordering::SeqCst) {
                return interrupted();
            }
            return Ok((moves, given, p, Some((i, why))));
        }
    }
    while !p.is_game_over() {
        if stop.load(Ordering::SeqCst) {
            return Err("interrupted".into());
        }
        let mover = if p.to_move() == Color::Black { black } else { 1 - black };
        if p.must_pass() {
            for e in engines.iter_mut() {
                e.tell(&p, None).ok();
            }
            moves.push(None);
            p = p.pass();
            continue;
        }
        let answer = engines[mover].genmove(start, &moves, &p, move_time);
        if answer.is_err() && stop.load(Ordering::SeqCst) {
            return interrupted();
        }
        let m = match answer {
            Ok(Some(sq)) if p.legal_moves().contains(sq) => sq,
            Ok(Some(sq)) => {
                return Ok((
                    moves,
                    given,
                    p,
                    Some((mover, format!("{} played {sq}, not a legal move", engines[mover].spec.name))),
                ));
            }
            Ok(None) => {
                return Ok((
                    moves,
                    given,
                    p,
                    Some((mover, format!("{} passed with a move to play", engines[mover].spec.name))),
                ));
            }
            Err(e) => return Ok((moves, given, p, Some((mover, e)))),
        };
        let other = 1 - mover;
        if let Err(e) = engines[other].tell(&p, Some(m)) {
            if stop.load(Ordering::SeqCst) {
                return interrupted();
            }
            return Ok((moves, given, p, Some((other, e))));
        }
        moves.push(Some(m));
        p = p.play(m).expect("checked legal");
    }
    Ok((moves, given, p, None))
}

/// The report of a match.
#[derive(Serialize)]
struct MatchReport {
    engine1: String,
    engine2: String,
    size: usize,
    games: usize,
    engine1_wins: usize,
    draws: usize,
    engine1_losses: usize,
    score: Option<f64>,
    mean_discs: Option<f64>,
    elo: Option<f64>,
    elo_low: Option<f64>,
    elo_high: Option<f64>,
    sprt: Option<Sprt>,
    interrupted: bool,
    played: Vec<Played>,
}

impl std::fmt::Display for MatchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} against {} on {}x{}: {}",
            self.engine1,
            self.engine2,
            self.size,
            self.size,
            count(self.games as i64, "game", "games")
        )?;
        writeln!(f, "engine 1: {} won, {} drawn, {} lost", self.engine1_wins, self.draws, self.engine1_losses)?;
        if let (Some(s), Some(d)) = (self.score, self.mean_discs) {
            writeln!(f, "score {:.1}% · mean disc difference {d:+.2} for engine 1", s * 100.0)?;
        }
        match (self.elo, self.elo_low, self.elo_high) {
            (Some(e), Some(lo), Some(hi)) => {
                writeln!(f, "Elo difference {:+.0} (95%: {:+.0} to {:+.0})", e + 0.0, lo + 0.0, hi + 0.0)?
            }
            _ if self.games > 0 => writeln!(f, "Elo difference: unbounded (every game went one way)")?,
            _ => {}
        }
        if let Some(s) = &self.sprt {
            let llr = s.llr.map_or("-".to_string(), |l| format!("{l:.2}"));
            writeln!(
                f,
                "SPRT [{:+}, {:+}] α {} β {}: LLR {llr} (bounds {:.2}, {:.2}): {}",
                s.elo0, s.elo1, s.alpha, s.beta, s.lower, s.upper, s.verdict
            )?;
        }
        for g in self.played.iter().filter(|g| g.forfeit.is_some()) {
            writeln!(
                f,
                "forfeit in opening {} ({} black): {}",
                g.opening,
                g.black,
                g.forfeit.as_deref().unwrap_or("")
            )?;
        }
        if self.interrupted {
            writeln!(f, "interrupted: the games finished so far are counted")?;
        }
        Ok(())
    }
}

pub fn run(args: &MatchArgs, json: bool) -> Result<ExitCode, CliError> {
    let size = Size::from_n(args.size as usize).ok_or_else(|| CliError::Usage("--size: 4, 6 or 8".into()))?;
    let specs = [
        spec_of(&args.engine1, args.move_time).map_err(|e| CliError::Usage(format!("--engine1 {e}")))?,
        spec_of(&args.engine2, args.move_time).map_err(|e| CliError::Usage(format!("--engine2 {e}")))?,
    ];
    let sprt = match &args.sprt {
        Some(text) => {
            let (a, b) = text.split_once(',').ok_or_else(|| CliError::Usage("--sprt ELO0,ELO1".into()))?;
            let parse = |s: &str| {
                s.trim().parse::<f64>().map_err(|_| CliError::Usage(format!("--sprt: '{s}' is not a number")))
            };
            Some((parse(a)?, parse(b)?))
        }
        None => None,
    };
    if !(0.0..0.5).contains(&args.alpha) || !(0.0..0.5).contains(&args.beta) || args.alpha == 0.0 || args.beta == 0.0 {
        return Err(CliError::Usage("--alpha and --beta: above 0 and below 0.5".into()));
    }
    let ggf = match &args.ggf {
        Some(p) => {
            let target =
                othello_explorer::notation::writefile::target(p).map_err(|e| CliError::Usage(format!("--ggf {e}")))?;
            // The file is rewritten after every game: an existing one (a previous match's games)
            // would be lost, so it is refused, not replaced.
            if std::fs::symlink_metadata(&target).is_ok() {
                return Err(CliError::Usage(format!(
                    "--ggf {}: the file exists; match writes a new file (remove it or choose another name)",
                    p.display()
                )));
            }
            if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty())
                && !dir.is_dir()
            {
                return Err(CliError::Usage(format!("--ggf {}: no folder {}", p.display(), dir.display())));
            }
            Some(target)
        }
        None => None,
    };
    let openings = openings(args, size)?;
    let stop = Arc::new(AtomicBool::new(false));
    let groups = Groups::default();
    let caught = catch_signals(&stop, &groups);
    let dirs = [args.dir1.as_ref(), args.dir2.as_ref()];
    let start_engine = |k: usize| Engine::start(&specs[k], dirs[k], args.timeout, &stop, &groups);
    let mut engines = [start_engine(0).map_err(CliError::Usage)?, start_engine(1).map_err(CliError::Usage)?];
    let start = Position::start(size);
    let terminal = std::io::stderr().is_terminal();
    let total = openings.len() * 2;
    let mut tally = Tally::default();
    let mut discs = 0i64;
    let mut played: Vec<Played> = Vec::new();
    let mut file = String::new();
    let mut interrupted = false;
    'openings: for (k, opening) in openings.iter().enumerate() {
        for black in [0usize, 1] {
            if stop.load(Ordering::SeqCst) {
                interrupted = true;
                break 'openings;
            }
            let result = play_game(&mut engines, black, &start, opening, args.move_time, &stop);
            let (moves, given, end, forfeit) = match result {
                Ok(r) => r,
                Err(_) if stop.load(Ordering::SeqCst) => {
                    interrupted = true;
                    break 'openings;
                }
                Err(e) => return Err(CliError::Failed(format!("match: opening {}: {e}", k + 1))),
            };
            // After a forfeit the engine may be stuck: its group is killed (dropped), and it
            // starts again.
            if let Some((loser, _)) = &forfeit {
                drop(std::mem::replace(&mut engines[*loser], start_engine(*loser).map_err(CliError::Usage)?));
            }
            let black_score = match &forfeit {
                Some((loser, _)) => {
                    if *loser == black {
                        -1
                    } else {
                        1
                    }
                }
                None => end.black_score(Scoring::Standard),
            };
            let e1 = if black == 0 { black_score } else { -black_score };
            let points = match e1.signum() {
                1 => 1.0,
                0 => 0.5,
                _ => 0.0,
            };
            match e1.signum() {
                1 => tally.wins += 1,
                0 => tally.draws += 1,
                _ => tally.losses += 1,
            }
            discs += i64::from(e1);
            let squares: Vec<Square> = moves.iter().flatten().copied().collect();
            let opening_moves: Vec<Square> = moves[..given].iter().flatten().copied().collect();
            let after_opening = moves[..given].iter().fold(start, |p, &m| next(&p, m));
            let g = Played {
                opening: k + 1,
                black: specs[black].name.clone(),
                white: specs[1 - black].name.clone(),
                opening_moves: transcript::format(&opening_moves),
                moves: transcript::format(&squares),
                black_score,
                forfeit: forfeit.map(|f| f.1),
                engine1_points: points,
                engine1_discs: e1,
                start: after_opening,
                played: moves[given..].iter().flatten().copied().collect(),
            };
            let mut game = othello_explorer::notation::gamefile::Game::new(
                g.start,
                g.played.clone(),
                othello_explorer::notation::gamefile::Format::Ggf,
            );
            game.black = Some(g.black.clone());
            game.white = Some(g.white.clone());
            // A forfeit is written as the loser's resignation (GGF has no other flag for it), with
            // the score the report counts.
            if g.forfeit.is_some() {
                game.stated = Some(othello_explorer::notation::gamefile::GameResult {
                    black_score: g.black_score,
                    how: Some(othello_explorer::notation::gamefile::How::Resigned),
                });
            }
            file.push_str(&othello_explorer::notation::gamefile::ggf::write(&game, &[]));
            if terminal {
                let elo =
                    tally.elo().map_or(String::new(), |(e, lo, hi)| format!(" · Elo {e:+.0} ({lo:+.0} to {hi:+.0})"));
                eprintln!(
                    "game {}/{total}: {} (black) {:+} {} · engine 1 +{} ={} -{}{elo}",
                    played.len() + 1,
                    g.black,
                    g.black_score,
                    g.white,
                    tally.wins,
                    tally.draws,
                    tally.losses
                );
            }
            played.push(g);
            if let Some(path) = &ggf {
                std::fs::write(path, &file).map_err(|e| CliError::Usage(format!("--ggf {}: {e}", path.display())))?;
            }
            if let Some((e0, e1)) = sprt
                && sprt_of(&tally, e0, e1, args.alpha, args.beta).verdict != "continue"
            {
                break 'openings;
            }
        }
    }
    // Killed at once after Ctrl-C; asked to quit first otherwise.
    for e in engines {
        if !interrupted {
            e.quit();
        }
    }
    let elo = tally.elo();
    let report = MatchReport {
        engine1: specs[0].name.clone(),
        engine2: specs[1].name.clone(),
        size: size.n(),
        games: tally.games(),
        engine1_wins: tally.wins,
        draws: tally.draws,
        engine1_losses: tally.losses,
        score: tally.score(),
        mean_discs: (tally.games() > 0).then(|| discs as f64 / tally.games() as f64),
        elo: elo.map(|e| e.0),
        elo_low: elo.map(|e| e.1),
        elo_high: elo.map(|e| e.2),
        sprt: sprt.map(|(a, b)| sprt_of(&tally, a, b, args.alpha, args.beta)),
        interrupted,
        played,
    };
    if json {
        super::common::outln!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
    } else {
        super::common::out!("{report}");
    }
    if interrupted {
        let sig = caught.load(Ordering::SeqCst);
        return Ok(ExitCode::from(if sig == 0 { 130 } else { 128 + sig as u8 }));
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_sprt() {
        let t = Tally { wins: 60, draws: 20, losses: 20 };
        let (e, lo, hi) = t.elo().unwrap();
        // A score of 70%: 147 Elo.
        assert!((e - 147.2).abs() < 0.5, "{e}");
        assert!(lo < e && e < hi);
        assert!(Tally { wins: 3, draws: 0, losses: 0 }.elo().is_none());
        let s = sprt_of(&t, 0.0, 20.0, 0.05, 0.05);
        assert_eq!(s.verdict, "H1");
        let even = Tally { wins: 40, draws: 20, losses: 40 };
        assert_eq!(sprt_of(&even, 0.0, 100.0, 0.05, 0.05).verdict, "H0");
    }

    #[test]
    fn engines_are_described() {
        let s = spec_of("gtp:/x/edax -gtp -l 4", None).unwrap();
        assert_eq!((s.protocol, s.name.as_str()), (Protocol::Gtp, "edax -gtp -l 4"));
        let s = spec_of("ours:level=4,threads=2", None).unwrap();
        assert!(s.command.ends_with(&["--threads".to_string(), "2".to_string()]), "{:?}", s.command);
        assert!(spec_of("ours:colour=red", None).is_err());
        // The selectivity goes to the engine's `gtp --selectivity`; a level that is none is refused.
        let s = spec_of("ours:selectivity=95,level=6", None).unwrap();
        let at = s.command.iter().position(|w| w == "--selectivity").expect("--selectivity passed on");
        assert_eq!(s.command[at + 1], "95");
        assert_eq!(s.name, "ours:selectivity=95,level=6");
        assert_eq!(spec_of("ours:selectivity=100%", None).unwrap().command[at + 1], "100");
        let s = spec_of("ours:eval=network", None).unwrap();
        assert!(s.command.windows(2).any(|w| w == ["--eval", "network"]), "{:?}", s.command);
        assert!(spec_of("ours:eval=tables", None).is_err());
        let e = spec_of("ours:selectivity=90", None).unwrap_err();
        assert!(e.contains("selectivity") && e.contains("73, 87, 95, 98, 99, 100"), "{e}");
        assert!(spec_of("uci:stockfish", None).is_err());
    }
}
