//! `gtp`: the Go Text Protocol as Othello engines speak it (neural-reversi's and Egaroucid's GTP
//! modes, GoGui, Quarry, neural-reversi's `match-runner`).
//!
//! A command is a line, `[id] name [arguments]`; the answer is `=[id] result` or `?[id] error`
//! followed by an empty line. Colours are `black`/`b`/`white`/`w`, vertices `F5` (either case) or
//! `pass`. `boardsize` takes 8, 6 or 4. A `play` for the side not to move is accepted when the
//! side to move must pass (the pass is played first), so clients that leave passes out are
//! served as well as those that send them. `genmove COLOR` answers a move for the colour asked
//! with passes as the rules make them, as Edax's GTP mode does: when the other side is to move and
//! must pass, its pass is played first (`undo` takes it back with the move); when the other side
//! has a legal move it is not the colour's turn, and the answer is `? wrong color` (a pass the
//! rules do not force would be an illegal move); the colour asked passes only when it has no
//! legal move.
//! `final_score` answers the score of a finished game, and before the end the score the analysis
//! expects at the engine's strength (`B+12`, `W+3`, `0`): GTP 2 asks for the engine's estimate
//! of the score, not only the score of a finished game. The move comes from the same store-aware analysis
//! as the explorer's and `solve` ([`Analyst::choose`]) at `--level`, `--move-time`, or the
//! client's clock (`time_settings`, `time_left`). Nothing but answers goes to stdout; a `quit`
//! that arrives while a move is being chosen stops the search.

use super::common::CliError;
use super::protocol::{self, Line, StrengthArgs};
use clap::Args;
use othello_explorer::analyst::play::{Choice, Clock, MAX_LEVEL, Strength};
use othello_explorer::analyst::{Analyst, Event};
use othello_explorer::solver::{Report, SolverOptions};
use othello_explorer::store::Store;
use othello_explorer::{Color, Position, Scoring, Size, Square};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The options of `gtp`.
#[derive(Args, Debug, Clone)]
pub struct GtpArgs {
    #[command(flatten)]
    pub strength: StrengthArgs,
}

/// Every command answered, for `list_commands` and `known_command`.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "set_level",
];

/// The answer to a malformed `time_left`.
const TIME_LEFT_USAGE: &str = "syntax error: time_left COLOR TIME STONES";

/// The engine's state between commands.
struct Engine {
    analyst: Analyst,
    line: Line,
    strength: Strength,
    /// The clock of `time_settings`, if one is kept.
    settings: Option<TimeSettings>,
    /// What each side has left (`time_left`): black's, white's, the time and the stones of the
    /// byo-yomi period (0 in main time).
    left: [Option<(Duration, u32)>; 2],
}

/// What one command does: an answer (`Ok` is `=`, `Err` is `?`), and whether to quit after it.
type Answer = (Result<String, String>, bool);

fn color_of(word: &str) -> Result<Color, String> {
    match word.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(format!("invalid color '{}'", printable(word))),
    }
}

/// A client's word, made safe to echo in an error (control characters escaped, cut short).
fn printable(word: &str) -> String {
    othello_explorer::notation::printable::excerpt(word)
}

/// `pass`, or a square on the board of `size`.
fn vertex_of(word: &str, size: Size) -> Result<Option<Square>, String> {
    if word.eq_ignore_ascii_case("pass") {
        return Ok(None);
    }
    match word.to_ascii_lowercase().parse::<Square>() {
        Ok(sq) if sq.is_on(size) => Ok(Some(sq)),
        _ => Err(format!("invalid vertex '{}'", printable(word))),
    }
}

/// GTP's `time_settings`: main time, then `byo_yomi` for every `stones` moves (Canadian
/// byo-yomi). No byo-yomi time is absolute time; byo-yomi time with no stones, no limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TimeSettings {
    main: Duration,
    byo_yomi: Duration,
    stones: u32,
}

/// The clock a move is chosen under, from the settings and the side's last `time_left` (GTP
/// 2, section 4.2: `time_left` with 0 stones is main time, else the time for that many stones).
fn clock_of(settings: Option<TimeSettings>, left: Option<(Duration, u32)>) -> Option<Clock> {
    if let Some(s) = settings
        && s.stones == 0
        && !s.byo_yomi.is_zero()
    {
        return None;
    }
    let overtime = settings.filter(|s| !s.byo_yomi.is_zero());
    match (left, overtime) {
        (Some((left, 0)), None) => Some(Clock::Game { left }),
        (Some((left, 0)), Some(s)) => Some(Clock::MainThenPeriod { left, period: s.byo_yomi, moves: s.stones }),
        (Some((left, moves)), _) => Some(Clock::Period { left, moves }),
        (None, Some(s)) if s.main.is_zero() => Some(Clock::Period { left: s.byo_yomi, moves: s.stones }),
        (None, Some(s)) => Some(Clock::MainThenPeriod { left: s.main, period: s.byo_yomi, moves: s.stones }),
        (None, None) => settings.filter(|s| !s.main.is_zero()).map(|s| Clock::Game { left: s.main }),
    }
}

fn number<T: std::str::FromStr>(word: Option<&&str>, what: &str) -> Result<T, String> {
    word.and_then(|w| w.parse().ok()).ok_or_else(|| format!("syntax error: {what} expected"))
}

impl Engine {
    /// Brings the line to `color`'s turn: a pass of the other side first when it has no move.
    fn turn_of(&mut self, color: Color) -> Result<(), String> {
        let p = self.line.now();
        if p.to_move() == color {
            return Ok(());
        }
        if p.must_pass() {
            return self.line.play(None);
        }
        Err(format!("it is {}'s turn", p.to_move()))
    }

    fn play(&mut self, color: Color, square: Option<Square>) -> Result<String, String> {
        let saved = self.line.clone();
        let result = self.turn_of(color).and_then(|()| self.line.play(square));
        if let Err(e) = result {
            self.line = saved;
            return Err(format!("illegal move: {e}"));
        }
        Ok(String::new())
    }

    /// The analysis's choice at the engine's strength; a `quit` or a signal stops it, but only
    /// after its first depth ([`protocol::after_first_depth`]): never an unsearched move.
    fn choose(&mut self, p: &Position, clock: Option<Clock>, stop: &Arc<AtomicBool>) -> Choice {
        let (analyst, strength) = (&mut self.analyst, self.strength);
        protocol::after_first_depth(stop, |stop, ready| {
            analyst.choose(p, strength, clock, Some(stop.clone()), &mut |e| {
                if matches!(e, Event::Report(Report::DepthDone { .. })) {
                    ready.store(true, Ordering::SeqCst);
                }
            })
        })
    }

    fn genmove(&mut self, color: Color, stop: &Arc<AtomicBool>) -> Result<String, String> {
        let p = self.line.now();
        if p.is_game_over() {
            return Ok("pass".into());
        }
        if p.to_move() != color {
            // The colour asked moves after the other side's pass, when the rules force it.
            if !p.must_pass() {
                return Err(format!("wrong color: {} is to move and has a legal move", p.to_move()));
            }
            self.line.play(None)?;
        }
        let p = self.line.now();
        if p.must_pass() {
            self.line.play(None)?;
            return Ok("pass".into());
        }
        // The time left, as the client said; a clock set but never updated: the settings'.
        let clock = clock_of(self.settings, self.left[usize::from(color == Color::White)]);
        let choice = self.choose(&p, clock, stop);
        match choice.square {
            Some(sq) => {
                self.line.play(Some(sq))?;
                Ok(protocol::vertex(sq))
            }
            None => {
                self.line.play(None)?;
                Ok("pass".into())
            }
        }
    }

    /// The final score from black's side: the board's when the game is over, else the value the
    /// analysis at the engine's strength expects (the best move's, from the side to move after
    /// any forced pass).
    fn final_score(&mut self, stop: &Arc<AtomicBool>) -> i32 {
        let now = self.line.now();
        if now.is_game_over() {
            return now.black_score(Scoring::Standard);
        }
        let p = now.after_forced_pass().0;
        let choice = self.choose(&p, None, stop);
        let mover = choice.value().map_or(0, |v| v.score);
        if p.to_move() == Color::Black { mover } else { -mover }
    }

    /// The board as `showboard` writes it: the diagram, then who is to move and the discs.
    fn showboard(&self) -> String {
        let p = self.line.now();
        let mut text = String::from("\n");
        text.push_str(p.diagram().trim_end());
        text.push_str(&format!(
            "\n{} to move · black {} white {} · {} empty",
            p.to_move(),
            p.black().count(),
            p.white().count(),
            p.empty_count()
        ));
        text
    }

    fn command(&mut self, name: &str, args: &[&str], stop: &Arc<AtomicBool>) -> Answer {
        let size = self.line.now().size();
        let answer = match name {
            "protocol_version" => Ok("2".to_string()),
            "name" => Ok("othello-explorer".to_string()),
            "version" => Ok(env!("CARGO_PKG_VERSION").to_string()),
            "known_command" => match args {
                [c] => Ok(COMMANDS.contains(c).to_string()),
                _ => Err("syntax error: known_command NAME".into()),
            },
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => return (Ok(String::new()), true),
            "boardsize" => match args.first().map(|a| a.parse::<usize>()) {
                Some(Ok(n)) => match Size::from_n(n) {
                    Some(s) => {
                        self.line = Line::start(s);
                        Ok(String::new())
                    }
                    None => Err("unacceptable size".into()),
                },
                _ => Err("syntax error: boardsize 8, 6 or 4".into()),
            },
            "clear_board" => {
                self.line = Line::start(size);
                self.left = [None; 2];
                Ok(String::new())
            }
            "komi" => match args.first().map(|a| a.parse::<f64>()) {
                Some(Ok(_)) => Ok(String::new()),
                _ => Err("syntax error: komi VALUE".into()),
            },
            "play" => match args {
                [c, v] => color_of(c).and_then(|c| vertex_of(v, size).and_then(|v| self.play(c, v))),
                _ => Err("syntax error: play COLOR VERTEX".into()),
            },
            "genmove" | "reg_genmove" => match args {
                [c] => color_of(c).and_then(|c| {
                    if name == "genmove" {
                        self.genmove(c, stop)
                    } else {
                        // The move it would play, the board left as it was.
                        let saved = self.line.clone();
                        let answer = self.genmove(c, stop);
                        self.line = saved;
                        answer
                    }
                }),
                _ => Err("syntax error: genmove COLOR".into()),
            },
            "undo" => {
                if self.line.undo() {
                    Ok(String::new())
                } else {
                    Err("cannot undo".into())
                }
            }
            "showboard" => Ok(self.showboard()),
            "final_score" => {
                let black = self.final_score(stop);
                Ok(match black.signum() {
                    1 => format!("B+{black}"),
                    -1 => format!("W+{}", -black),
                    _ => "0".into(),
                })
            }
            "time_settings" => match args {
                [main, byo_yomi, stones] => (|| {
                    let main = number::<u64>(Some(main), "main time")?;
                    let byo_yomi = number::<u64>(Some(byo_yomi), "byo-yomi time")?;
                    let stones = number::<u32>(Some(stones), "byo-yomi stones")?;
                    let secs = |s: u64| Duration::from_secs(s.min(10_000_000));
                    Ok(TimeSettings { main: secs(main), byo_yomi: secs(byo_yomi), stones })
                })()
                .map(|settings| {
                    self.settings = Some(settings);
                    self.left = [None; 2];
                    String::new()
                }),
                _ => Err("syntax error: time_settings MAIN BYOYOMI STONES".into()),
            },
            "time_left" => match args {
                [c, t, stones] => color_of(c).and_then(|c| {
                    let secs: f64 = t.parse().map_err(|_| TIME_LEFT_USAGE.to_string())?;
                    let secs = if secs.is_finite() { secs.clamp(0.0, 1e7) } else { 0.0 };
                    let stones: u32 = stones.parse().map_err(|_| TIME_LEFT_USAGE.to_string())?;
                    self.left[usize::from(c == Color::White)] = Some((Duration::from_secs_f64(secs), stones));
                    Ok(String::new())
                }),
                _ => Err(TIME_LEFT_USAGE.into()),
            },
            "set_level" | "level" => match args.first().map(|a| a.parse::<u32>()) {
                Some(Ok(n)) if (1..=MAX_LEVEL).contains(&n) => {
                    self.strength = Strength::Level(n);
                    Ok(String::new())
                }
                _ => Err(format!("syntax error: set_level 1-{MAX_LEVEL}")),
            },
            _ => Err("unknown command".into()),
        };
        (answer, false)
    }
}

/// Whether a line must stop the search in hand: `quit`.
fn urgent(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let first = words.next();
    let name = if first.is_some_and(|w| w.chars().all(|c| c.is_ascii_digit())) { words.next() } else { first };
    name == Some("quit")
}

/// Runs the protocol on stdin and stdout until `quit`, the end of the input, or a signal.
/// Serves GTP on stdin and stdout; `signalled` is [`protocol::catch_signals`]'s flag, caught
/// before the store and the options were set up.
pub fn run(
    args: &GtpArgs,
    options: SolverOptions,
    store: Option<Store>,
    signalled: &AtomicBool,
) -> Result<(), CliError> {
    let mut engine = Engine {
        analyst: protocol::analyst(options, store)?,
        line: Line::start(Size::Eight),
        strength: args.strength.strength(),
        settings: None,
        left: [None; 2],
    };
    protocol::serve(signalled, urgent, protocol::Interrupt::Arriving, |line, stop| {
        // Comments and empty lines are skipped; control characters other than tabs are removed.
        let clean: String =
            line.split('#').next().unwrap_or("").chars().filter(|c| !c.is_control() || *c == '\t').collect();
        let words: Vec<&str> = clean.split_whitespace().collect();
        let Some(&first) = words.first() else { return false };
        let (id, rest) =
            if first.chars().all(|c| c.is_ascii_digit()) { (first, &words[1..]) } else { ("", &words[..]) };
        let Some((&name, args)) = rest.split_first() else {
            protocol::send(&format!("?{id} syntax error: no command\n\n"));
            return false;
        };
        let (answer, quit) = engine.command(&name.to_ascii_lowercase(), args, stop);
        let text = match answer {
            Ok(result) if result.is_empty() => format!("={id}\n\n"),
            Ok(result) => format!("={id} {result}\n\n"),
            Err(e) => format!("?{id} {e}\n\n"),
        };
        protocol::send(&text);
        quit
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_as_gtp_2_defines_them() {
        let s = |main: u64, byo_yomi: u64, stones: u32| {
            Some(TimeSettings { main: Duration::from_secs(main), byo_yomi: Duration::from_secs(byo_yomi), stones })
        };
        let secs = Duration::from_secs;
        // No settings and no time left: no clock.
        assert_eq!(clock_of(None, None), None);
        // Absolute time: the main time until the client says what is left.
        assert_eq!(clock_of(s(300, 0, 0), None), Some(Clock::Game { left: secs(300) }));
        assert_eq!(clock_of(s(300, 0, 0), Some((secs(120), 0))), Some(Clock::Game { left: secs(120) }));
        // Byo-yomi time without stones: no limit, whatever is left.
        assert_eq!(clock_of(s(0, 5, 0), Some((secs(5), 0))), None);
        // A time a move (match's `time_settings 0 S 1`): the period, not a share of the game.
        assert_eq!(clock_of(s(0, 2, 1), None), Some(Clock::Period { left: secs(2), moves: 1 }));
        assert_eq!(clock_of(s(0, 2, 1), Some((secs(2), 1))), Some(Clock::Period { left: secs(2), moves: 1 }));
        // Canadian byo-yomi: main time first, then 25 stones in 60 s.
        let main = Clock::MainThenPeriod { left: secs(600), period: secs(60), moves: 25 };
        assert_eq!(clock_of(s(600, 60, 25), None), Some(main));
        assert_eq!(
            clock_of(s(600, 60, 25), Some((secs(10), 0))),
            Some(Clock::MainThenPeriod { left: secs(10), period: secs(60), moves: 25 })
        );
        assert_eq!(clock_of(s(600, 60, 25), Some((secs(40), 7))), Some(Clock::Period { left: secs(40), moves: 7 }));
        // Time left without settings: as the client says.
        assert_eq!(clock_of(None, Some((secs(30), 0))), Some(Clock::Game { left: secs(30) }));
    }
}
