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

use super::common::CliError;
use super::protocol::vertex;
use super::values;
use clap::Args;
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

/// How an engine is spoken to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Protocol {
    Gtp,
    Nboard,
}

/// An engine as the command line named it: its name, its command and protocol.
#[derive(Clone, Debug)]
struct Spec {
    name: String,
    command: Vec<String>,
    shell: bool,
    protocol: Protocol,
    ours: bool,
}

/// Reads an engine's description.
fn spec_of(text: &str, move_time: Option<Duration>) -> Result<Spec, String> {
    if let Some(rest) = text.strip_prefix("gtp:") {
        return Ok(Spec {
            name: short(rest),
            command: vec![rest.to_string()],
            shell: true,
            protocol: Protocol::Gtp,
            ours: false,
        });
    }
    if let Some(rest) = text.strip_prefix("nboard:") {
        return Ok(Spec {
            name: short(rest),
            command: vec![rest.to_string()],
            shell: true,
            protocol: Protocol::Nboard,
            ours: false,
        });
    }
    let options = match text.split_once(':') {
        Some(("ours", opts)) => opts,
        None if text == "ours" => "",
        _ => {
            return Err(format!(
                "'{}': an engine is ours[:options], gtp:COMMAND or nboard:COMMAND",
                one_line(text, 80)
            ));
        }
    };
    let exe = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
    let mut command = vec![exe.display().to_string(), "--no-store".into(), "gtp".into()];
    let mut threads = "1".to_string();
    let mut timed = move_time.map(|t| format!("{}", t.as_secs_f64()));
    // Each value is checked by the parser of the `gtp` flag it becomes, so a value the engine
    // would refuse is refused here, before any engine starts.
    let mut given: Vec<&str> = Vec::new();
    for option in opts_of(options) {
        let (key, value) = option.split_once('=').ok_or_else(|| format!("ours: '{option}' is not KEY=VALUE"))?;
        if given.contains(&key) {
            return Err(format!("ours: '{key}' is given twice"));
        }
        given.push(key);
        let bad = |e: String| format!("ours: {key}={}: {e}", one_line(value, 40));
        match key {
            "level" => {
                values::level(value).map_err(bad)?;
                command.extend(["--level".to_string(), value.to_string()]);
            }
            "time" => {
                values::seconds(value).map_err(bad)?;
                timed = Some(value.to_string());
            }
            "threads" => {
                values::threads(value).map_err(bad)?;
                threads = value.to_string();
            }
            "hash" => {
                values::hash_mb(value).map_err(bad)?;
                command.extend(["--hash-mb".to_string(), value.to_string()]);
            }
            "selectivity" => {
                let level = values::selectivity(value).map_err(bad)?;
                command.extend(["--selectivity".to_string(), level.percent().to_string()]);
            }
            "weights" => command.extend(["--weights".to_string(), value.to_string()]),
            "eval" => {
                values::evaluator(value).map_err(bad)?;
                command.extend(["--eval".to_string(), value.to_string()]);
            }
            _ => {
                return Err(format!(
                    "ours: unknown option '{key}' (level, time, threads, hash, selectivity, weights, eval)"
                ));
            }
        }
    }
    // `gtp` takes a level or a move time, not both (it would refuse to start).
    if given.contains(&"level") && timed.is_some() {
        return Err("ours: level= and a move time (time= or --move-time) exclude each other: the engine plays at one or the other".into());
    }
    if let Some(t) = &timed {
        command.extend(["--move-time".to_string(), t.clone()]);
    }
    command.extend(["--threads".to_string(), threads]);
    let name = if options.is_empty() { "ours".to_string() } else { format!("ours:{options}") };
    Ok(Spec { name, command, shell: false, protocol: Protocol::Gtp, ours: true })
}

fn opts_of(text: &str) -> impl Iterator<Item = &str> {
    text.split(',').map(str::trim).filter(|s| !s.is_empty())
}

/// An engine's name from its command: the program's file name and its first arguments.
fn short(command: &str) -> String {
    let mut words = command.split_whitespace();
    let program = words.next().map_or("engine", |p| p.rsplit('/').next().unwrap_or(p));
    let rest: Vec<&str> = words.take(3).collect();
    one_line(format!("{program} {}", rest.join(" ")).trim(), 60)
}

/// The process groups of the engines running, which the signal thread kills on a second signal.
#[derive(Clone, Default)]
struct Groups(Arc<Mutex<Vec<i32>>>);

impl Groups {
    fn add(&self, group: i32) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push(group);
    }

    /// Kills the process group `group` (SIGKILL to every process in it) and forgets it. The caller
    /// has not reaped the group's leader, so its id cannot have been reused.
    fn kill(&self, group: i32) {
        let mut groups = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: killpg only sends a signal; a group with no process left is an error, ignored.
        unsafe { libc::killpg(group, libc::SIGKILL) };
        groups.retain(|&g| g != group);
    }

    fn kill_all(&self) {
        let groups = self.0.lock().unwrap_or_else(|e| e.into_inner());
        for &group in groups.iter() {
            // SAFETY: as in `kill`.
            unsafe { libc::killpg(group, libc::SIGKILL) };
        }
    }
}

/// SIGINT, SIGTERM and SIGHUP: the first raises `stop` (the game in hand ends within moments and
/// the match is reported), a second kills the engines' groups and ends the program at once. The
/// signal that came, 0 before one does.
fn catch_signals(stop: &Arc<AtomicBool>, groups: &Groups) -> Arc<AtomicUsize> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let caught = Arc::new(AtomicUsize::new(0));
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else { return caught };
    let (stop, groups, seen) = (stop.clone(), groups.clone(), caught.clone());
    // Waits on the signals alone: it never keeps the program from ending.
    std::thread::spawn(move || {
        for signal in signals.forever() {
            if seen.swap(signal as usize, Ordering::SeqCst) != 0 {
                groups.kill_all();
                std::process::exit(128 + signal);
            }
            stop.store(true, Ordering::SeqCst);
        }
    });
    caught
}

/// A running engine.
struct Engine {
    spec: Spec,
    child: Child,
    /// The engine's process group (its first process's id).
    group: i32,
    groups: Groups,
    input: ChildStdin,
    output: Receiver<String>,
    timeout: Duration,
    /// Raised by Ctrl-C: a wait for the engine's answer ends at once.
    stop: Arc<AtomicBool>,
}

/// How often a wait for an engine looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(50);

impl Engine {
    fn start(
        spec: &Spec,
        dir: Option<&PathBuf>,
        timeout: Duration,
        stop: &Arc<AtomicBool>,
        groups: &Groups,
    ) -> Result<Engine, String> {
        let mut cmd = if spec.shell {
            let mut c = Command::new("sh");
            c.arg("-c").arg(&spec.command[0]);
            c
        } else {
            let mut c = Command::new(&spec.command[0]);
            c.args(&spec.command[1..]);
            c
        };
        if let Some(d) = dir {
            cmd.current_dir(d);
        }
        // A group of its own: the engine and every process it starts are killed together, and the
        // terminal's Ctrl-C reaches the match alone, which ends its engines itself.
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .map_err(|e| format!("{}: cannot start: {e}", spec.name))?;
        let group = child.id() as i32;
        groups.add(group);
        let input = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        // The engine's lines as the protocols read their clients': each cut at LONGEST_LINE, at
        // most QUEUED_LINES read ahead, so an engine that writes without end cannot fill memory.
        let (tx, output) = sync_channel(super::protocol::QUEUED_LINES);
        std::thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                if !matches!(super::protocol::read_line(&mut stdout, &mut buf), Ok(true)) {
                    return;
                }
                let line = String::from_utf8_lossy(&buf).trim_end_matches(['\r', '\n']).to_string();
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let mut e = Engine {
            spec: spec.clone(),
            child,
            group,
            groups: groups.clone(),
            input,
            output,
            timeout,
            stop: stop.clone(),
        };
        if e.spec.protocol == Protocol::Nboard {
            e.send("nboard 2")?;
        }
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}").and_then(|()| self.input.flush()).map_err(|e| format!("{}: {e}", self.spec.name))
    }

    /// The next line the engine writes, within the timeout; an error at once when the stop flag
    /// rises.
    fn line(&mut self, deadline: Instant) -> Result<String, String> {
        loop {
            if self.stop.load(Ordering::SeqCst) {
                return Err("interrupted".into());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left.min(STOP_POLL)) {
                Ok(l) => return Ok(l),
                Err(RecvTimeoutError::Timeout) if left > STOP_POLL => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("{} said nothing for {:.0}s", self.spec.name, self.timeout.as_secs_f64()));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(format!("{} has ended", self.spec.name)),
            }
        }
    }

    /// A GTP command's answer (`=`'s text), or why not.
    fn gtp(&mut self, command: &str) -> Result<String, String> {
        self.send(command)?;
        let deadline = Instant::now() + self.timeout;
        loop {
            let line = self.line(deadline)?;
            let t = line.trim();
            if let Some(rest) = t.strip_prefix('=') {
                let answer = rest.trim_start_matches(|c: char| c.is_ascii_digit()).trim().to_string();
                // The empty line that ends an answer.
                let _ = self.line(deadline);
                return Ok(answer);
            }
            if let Some(rest) = t.strip_prefix('?') {
                let _ = self.line(deadline);
                return Err(format!("{}: {command}: {}", self.spec.name, one_line(rest.trim(), 120)));
            }
        }
    }

    /// Sets up a game of `size` from `start` with the opening's moves (`None` a pass).
    fn new_game(
        &mut self,
        start: &Position,
        moves: &[Option<Square>],
        move_time: Option<Duration>,
    ) -> Result<(), String> {
        match self.spec.protocol {
            Protocol::Gtp => {
                self.gtp(&format!("boardsize {}", start.size().n()))?;
                self.gtp("clear_board")?;
                if let Some(t) = move_time.filter(|_| !self.spec.ours) {
                    // Byo-yomi: each move gets the time; engines without a clock ignore it.
                    let _ = self.gtp(&format!("time_settings 0 {} 1", t.as_secs().max(1)));
                }
                let mut p = *start;
                for m in moves {
                    self.tell(&p, *m)?;
                    p = next(&p, *m);
                }
                Ok(())
            }
            Protocol::Nboard => Ok(()),
        }
    }

    /// Tells the engine the move `m` (`None` a pass) played at `p`.
    fn tell(&mut self, p: &Position, m: Option<Square>) -> Result<(), String> {
        if self.spec.protocol == Protocol::Nboard {
            return Ok(());
        }
        let color = color_word(p.to_move());
        let v = m.map_or("pass".to_string(), vertex);
        self.gtp(&format!("play {color} {v}")).map(|_| ())
    }

    /// The engine's move at `p`, reached from `start` by `moves`.
    fn genmove(
        &mut self,
        start: &Position,
        moves: &[Option<Square>],
        p: &Position,
        move_time: Option<Duration>,
    ) -> Result<Option<Square>, String> {
        let answer = match self.spec.protocol {
            Protocol::Gtp => {
                if let Some(t) = move_time.filter(|_| !self.spec.ours) {
                    let _ = self.gtp(&format!("time_left {} {} 1", color_word(p.to_move()), t.as_secs().max(1)));
                }
                self.gtp(&format!("genmove {}", color_word(p.to_move())))?
            }
            Protocol::Nboard => {
                self.send(&format!("set game {}", nboard_game(start, moves)))?;
                self.send("ping 1")?;
                let deadline = Instant::now() + self.timeout;
                while self.line(deadline)?.trim() != "pong 1" {}
                self.send("go")?;
                loop {
                    let line = self.line(deadline)?;
                    if let Some(rest) = line.trim().strip_prefix("===") {
                        break rest.trim().split(['/', ' ']).next().unwrap_or("").to_string();
                    }
                }
            }
        };
        let word = answer.trim().to_ascii_lowercase();
        if word == "pass" || word == "pa" {
            return Ok(None);
        }
        word.parse::<Square>()
            .map(Some)
            .map_err(|_| format!("{} answered '{}', not a move", self.spec.name, one_line(&answer, 40)))
    }

    /// Asks the engine to quit and gives it two seconds; then its group is killed (as every
    /// engine's is when dropped): what it started and left behind goes too.
    fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline && !self.ended() && !self.stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Whether the engine's first process has ended, without reaping it: until it is reaped its
    /// id, which is the group's, cannot be reused, so the group is still safe to kill.
    fn ended(&self) -> bool {
        // SAFETY: a zeroed siginfo_t is a valid value for waitid to fill.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
        // SAFETY: waitid writes into `info` only; WNOWAIT leaves the process unreaped.
        let r = unsafe { libc::waitid(libc::P_PID, self.group as libc::id_t, &mut info, flags) };
        // SAFETY: si_pid is the field waitid sets (0 while the process runs).
        r != 0 || unsafe { info.si_pid() } != 0
    }
}

/// An engine dropped, however the match ends (its end, a forfeit, Ctrl-C, an error), has its whole
/// process group killed and its first process reaped.
impl Drop for Engine {
    fn drop(&mut self) {
        self.groups.kill(self.group);
        let _ = self.child.wait();
    }
}

fn color_word(c: Color) -> &'static str {
    if c == Color::Black { "black" } else { "white" }
}

fn next(p: &Position, m: Option<Square>) -> Position {
    match m {
        Some(sq) => p.play(sq).unwrap_or(*p),
        None => p.pass(),
    }
}

/// The game so far as NBoard's `set game` takes it: GGF, moves in capitals, passes as `PA`.
fn nboard_game(start: &Position, moves: &[Option<Square>]) -> String {
    let size = start.size();
    let board: String = Square::all(size)
        .map(|sq| {
            if start.black().contains(sq) {
                '*'
            } else if start.white().contains(sq) {
                'O'
            } else {
                '-'
            }
        })
        .collect();
    let side = if start.to_move() == Color::Black { '*' } else { 'O' };
    let mut out = format!("(;GM[Othello]PC[othello-explorer]TY[{}]BO[{} {board} {side}]", size.n(), size.n());
    let mut p = *start;
    for &m in moves {
        let tag = if p.to_move() == Color::Black { 'B' } else { 'W' };
        out.push_str(&format!("{tag}[{}]", m.map_or("PA".to_string(), vertex)));
        p = next(&p, m);
    }
    out.push_str(";)");
    out
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

/// Wins, draws and losses, and what follows from them.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Tally {
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
}

impl Tally {
    pub fn games(&self) -> usize {
        self.wins + self.draws + self.losses
    }

    /// The score, from 0 to 1.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / n as f64)
    }

    /// The variance of one game's points.
    fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = self.games() as f64;
        Some(
            (self.wins as f64 * (1.0 - s).powi(2) + self.draws as f64 * (0.5 - s).powi(2) + self.losses as f64 * s * s)
                / n,
        )
    }

    /// The Elo difference and its 95% interval (`None` at a score of 0 or 1: unbounded).
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        let s = self.score()?;
        let se = (self.variance()? / self.games() as f64).sqrt();
        let elo = |p: f64| (p > 0.0 && p < 1.0).then(|| -400.0 * (1.0 / p - 1.0).log10());
        Some((elo(s)?, elo((s - 1.96 * se).max(1e-9))?, elo((s + 1.96 * se).min(1.0 - 1e-9))?))
    }

    /// The log-likelihood ratio of Elo `elo1` against `elo0` (the normal approximation of the
    /// trinomial test), `None` before the games vary.
    pub fn llr(&self, elo0: f64, elo1: f64) -> Option<f64> {
        let s = self.score()?;
        let var = self.variance()?;
        if var <= 0.0 {
            return None;
        }
        let p = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
        let (s0, s1) = (p(elo0), p(elo1));
        Some(self.games() as f64 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var))
    }
}

/// The SPRT's verdict.
#[derive(Clone, Debug, Serialize)]
struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    llr: Option<f64>,
    lower: f64,
    upper: f64,
    /// `H1` (engine 1 is better by elo1), `H0` (not better than elo0), or `continue`.
    verdict: &'static str,
}

fn sprt_of(t: &Tally, elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Sprt {
    let (lower, upper) = ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln());
    let llr = t.llr(elo0, elo1);
    let verdict = match llr {
        Some(l) if l >= upper => "H1",
        Some(l) if l <= lower => "H0",
        _ => "continue",
    };
    Sprt { elo0, elo1, alpha, beta, llr, lower, upper, verdict }
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
