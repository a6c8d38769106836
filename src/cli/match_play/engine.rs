//! A running engine of a match: its process (in a group of its own, killed whole when dropped),
//! its protocol spoken line by line with bounded reads and the timeout, and the game told to it.

use super::*;

/// How an engine is spoken to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Protocol {
    Gtp,
    Nboard,
}

/// An engine as the command line named it: its name, its command and protocol.
#[derive(Clone, Debug)]
pub(super) struct Spec {
    pub(super) name: String,
    pub(super) command: Vec<String>,
    pub(super) shell: bool,
    pub(super) protocol: Protocol,
    pub(super) ours: bool,
}

/// Reads an engine's description.
pub(super) fn spec_of(text: &str, move_time: Option<Duration>) -> Result<Spec, String> {
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

pub(super) fn opts_of(text: &str) -> impl Iterator<Item = &str> {
    text.split(',').map(str::trim).filter(|s| !s.is_empty())
}

/// An engine's name from its command: the program's file name and its first arguments.
pub(super) fn short(command: &str) -> String {
    let mut words = command.split_whitespace();
    let program = words.next().map_or("engine", |p| p.rsplit('/').next().unwrap_or(p));
    let rest: Vec<&str> = words.take(3).collect();
    one_line(format!("{program} {}", rest.join(" ")).trim(), 60)
}

/// The process groups of the engines running, which the signal thread kills on a second signal.
#[derive(Clone, Default)]
pub(super) struct Groups(Arc<Mutex<Vec<i32>>>);

impl Groups {
    pub(super) fn add(&self, group: i32) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push(group);
    }

    /// Kills the process group `group` (SIGKILL to every process in it) and forgets it. The caller
    /// has not reaped the group's leader, so its id cannot have been reused.
    pub(super) fn kill(&self, group: i32) {
        let mut groups = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: killpg only sends a signal; a group with no process left is an error, ignored.
        unsafe { libc::killpg(group, libc::SIGKILL) };
        groups.retain(|&g| g != group);
    }

    pub(super) fn kill_all(&self) {
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
pub(super) fn catch_signals(stop: &Arc<AtomicBool>, groups: &Groups) -> Arc<AtomicUsize> {
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
pub(super) struct Engine {
    pub(super) spec: Spec,
    pub(super) child: Child,
    /// The engine's process group (its first process's id).
    pub(super) group: i32,
    pub(super) groups: Groups,
    pub(super) input: ChildStdin,
    pub(super) output: Receiver<String>,
    pub(super) timeout: Duration,
    /// Raised by Ctrl-C: a wait for the engine's answer ends at once.
    pub(super) stop: Arc<AtomicBool>,
}

/// How often a wait for an engine looks at the stop flag.
pub(super) const STOP_POLL: Duration = Duration::from_millis(50);

impl Engine {
    pub(super) fn start(
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
        let (tx, output) = sync_channel(crate::cli::protocol::QUEUED_LINES);
        std::thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                if !matches!(crate::cli::protocol::read_line(&mut stdout, &mut buf), Ok(true)) {
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

    pub(super) fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}").and_then(|()| self.input.flush()).map_err(|e| format!("{}: {e}", self.spec.name))
    }

    /// The next line the engine writes, within the timeout; an error at once when the stop flag
    /// rises.
    pub(super) fn line(&mut self, deadline: Instant) -> Result<String, String> {
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
    pub(super) fn gtp(&mut self, command: &str) -> Result<String, String> {
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
    pub(super) fn new_game(
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
    pub(super) fn tell(&mut self, p: &Position, m: Option<Square>) -> Result<(), String> {
        if self.spec.protocol == Protocol::Nboard {
            return Ok(());
        }
        let color = color_word(p.to_move());
        let v = m.map_or("pass".to_string(), vertex);
        self.gtp(&format!("play {color} {v}")).map(|_| ())
    }

    /// The engine's move at `p`, reached from `start` by `moves`.
    pub(super) fn genmove(
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
    pub(super) fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline && !self.ended() && !self.stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Whether the engine's first process has ended, without reaping it: until it is reaped its
    /// id, which is the group's, cannot be reused, so the group is still safe to kill.
    pub(super) fn ended(&self) -> bool {
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

pub(super) fn color_word(c: Color) -> &'static str {
    if c == Color::Black { "black" } else { "white" }
}

pub(super) fn next(p: &Position, m: Option<Square>) -> Position {
    match m {
        Some(sq) => p.play(sq).unwrap_or(*p),
        None => p.pass(),
    }
}

/// The game so far as NBoard's `set game` takes it: GGF, moves in capitals, passes as `PA`.
pub(super) fn nboard_game(start: &Position, moves: &[Option<Square>]) -> String {
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
