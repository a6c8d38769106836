//! `nboard`: the NBoard protocol, version 2 (the specification: `instructions/Protocol.htm` in
//! the public `weltyc/ntest` repository), as the NBoard GUI drives Edax and NTest.
//!
//! The GUI sends `nboard 2`, `set depth N`, `set game GGF`, `set contempt N`, `move F5/eval/time`,
//! `hint N`, `go`, `ping N`, `learn`, `analyze`, `quit`; the engine answers with `set myname`,
//! `status`, `search PV EVAL 0 DEPTH` (for `hint`: the best `N` moves, after each depth of the
//! search), `=== F5/EVAL/TIME` (for `go`; `=== PA` for a pass), `pong N`, `learned`, `analysis MOVES EVAL`, and
//! `nodestats NODES TIME`. Evaluations are discs from the side to move; the depth is the
//! estimate's (with its selectivity below 100% as Edax writes it, `22@95%`; `--selectivity` sets
//! it), `100%` for an exact score and `100%W` for a proven win, loss or draw (the sign of the
//! evaluation gives it). Values come from the same store-aware analysis as the explorer's and
//! `solve`: exact scores and outcomes the store knows are answered at once. A `ping`, `quit`,
//! `set game` or `move` that arrives while the engine thinks stops the search once its first
//! depth is done ([`protocol::after_first_depth`]: a GUI that sends `hint`, `go` and `ping`
//! together still gets the `search` lines and a move with its value), and is answered in turn;
//! no field of an answer is ever empty; a line the engine does not understand is ignored, as
//! the protocol says.

use super::common::CliError;
use super::protocol::{self, Line, StrengthArgs};
use clap::Args;
use othello_explorer::analyst::play::{MAX_LEVEL, Strength};
use othello_explorer::analyst::{Analyst, Ask, Event, LineRule};
use othello_explorer::notation::gamefile::ggf;
use othello_explorer::solver::{ChildValue, Kind, Limits, Report, SearchMode, SolverOptions};
use othello_explorer::store::Store;
use othello_explorer::{Size, Square};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The options of `nboard`.
#[derive(Args, Debug, Clone)]
pub struct NboardArgs {
    #[command(flatten)]
    pub strength: StrengthArgs,
}

struct Engine {
    analyst: Analyst,
    line: Line,
    strength: Strength,
}

/// Whether a line must stop the search in hand.
fn urgent(line: &str) -> bool {
    let t = line.trim_start();
    ["ping", "quit", "set game", "move", "set depth"].iter().any(|w| t.starts_with(w))
}

/// An evaluation as NBoard reads it: discs from the side to move, two decimals, signed.
fn eval_text(value: &ChildValue) -> String {
    format!("{:+.2}", value.score as f64)
}

/// The depth word of a value: `100%` exact, `100%W` a proven outcome, else the estimate's depth,
/// with its selectivity below 100% as Edax writes it (`22@95%`).
fn depth_text(kind: Kind) -> String {
    match kind {
        Kind::Exact => "100%".into(),
        Kind::Wld => "100%W".into(),
        Kind::Estimate { depth, selectivity } if selectivity.is_full() => depth.to_string(),
        Kind::Estimate { depth, selectivity } => format!("{depth}@{selectivity}"),
    }
}

/// The `search` line of a child: its move first, then `rest` of the expected line (no spaces).
fn search_line(value: &ChildValue, rest: &[Square]) -> String {
    let pv: String = std::iter::once(value.square).chain(rest.iter().copied()).map(protocol::vertex).collect();
    format!("search {pv} {} 0 {}", eval_text(value), depth_text(value.kind))
}

/// Reads `set game`'s GGF into a line of play: its start, then every move (passes as written or
/// implicit). A game whose last move is a pass (`B[PA]`) ends after it: the other side moves.
fn line_of_ggf(text: &str) -> Result<Line, String> {
    let game = ggf::read(text, 1).map_err(|e| e.to_string())?;
    let mut line = Line::new(game.start);
    for &m in &game.moves {
        if line.now().must_pass() {
            line.play(None)?;
        }
        line.play(Some(m))?;
    }
    if line.now().must_pass() && last_move_is_a_pass(text) {
        line.play(None)?;
    }
    Ok(line)
}

/// Whether the last move of a GGF record (`B[..]` or `W[..]`) is a pass.
fn last_move_is_a_pass(text: &str) -> bool {
    let at = text.rfind("B[").into_iter().chain(text.rfind("W[")).max();
    at.is_some_and(|i| {
        let value = text[i + 2..].split(']').next().unwrap_or("");
        let m = value.split('/').next().unwrap_or("").trim();
        m.eq_ignore_ascii_case("pa") || m.eq_ignore_ascii_case("pass")
    })
}

/// `F5`, `f5/+1.00/0.5` or `PA`: the move of a `move` command.
fn move_of(word: &str, size: Size) -> Option<Option<Square>> {
    let m = word.split('/').next()?;
    if m.eq_ignore_ascii_case("pa") || m.eq_ignore_ascii_case("pass") {
        return Some(None);
    }
    m.to_ascii_lowercase().parse::<Square>().ok().filter(|s| s.is_on(size)).map(Some)
}

impl Engine {
    /// `hint n`: the best `n` moves, sent after each depth and at the end.
    fn hint(&mut self, n: usize, stop: &Arc<AtomicBool>) {
        let p = self.line.now();
        // Nothing to weigh: the game is over, or the side to move passes (the search's end is
        // said all the same).
        if p.is_game_over() || p.must_pass() {
            protocol::send("status\n");
            return;
        }
        protocol::send("status thinking\n");
        let start = Instant::now();
        let max_depth = match self.strength {
            Strength::Level(l) => Some(l.max(1)),
            Strength::MoveTime(_) => None,
        };
        let analyst = &mut self.analyst;
        let verdict = protocol::after_first_depth(stop, |stop, ready| {
            let limits = Limits { stop: Some(stop.clone()), ..Limits::default() };
            let ask = Ask { mode: SearchMode::Auto, max_depth, limits, line: LineRule::Best };
            let mut known: Vec<ChildValue> = Vec::new();
            analyst.analyse(&p, &ask, &mut |e| match e {
                Event::Report(Report::Child(c)) => match known.iter_mut().find(|k| k.square == c.square) {
                    Some(k) => *k = c,
                    None => known.push(c),
                },
                Event::Report(Report::DepthDone { .. }) => {
                    send_top(&known, n);
                    ready.store(true, Ordering::SeqCst);
                }
                _ => {}
            })
        });
        let rest: Vec<Square> =
            verdict.line.as_ref().map(|l| l.moves.iter().skip(1).copied().collect()).unwrap_or_default();
        for (i, c) in verdict.children.iter().take(n).enumerate() {
            protocol::send(&format!("{}\n", search_line(c, if i == 0 { &rest } else { &[] })));
        }
        protocol::send(&format!("nodestats {} {:.2}\nstatus\n", verdict.nodes, start.elapsed().as_secs_f64()));
    }

    /// `go`: the move the engine would play, `=== F5/eval/time`.
    fn go(&mut self, stop: &Arc<AtomicBool>) {
        let p = self.line.now();
        protocol::send("status thinking\n");
        // A side with no move passes: `=== PA`.
        let choice = if p.is_game_over() || p.must_pass() {
            None
        } else {
            let (analyst, strength) = (&mut self.analyst, self.strength);
            Some(protocol::after_first_depth(stop, |stop, ready| {
                analyst.choose(&p, strength, None, Some(stop.clone()), &mut |e| {
                    if matches!(e, Event::Report(Report::DepthDone { .. })) {
                        ready.store(true, Ordering::SeqCst);
                    }
                })
            }))
        };
        let (nodes, time) = choice.as_ref().map_or((0, 0.0), |c| (c.nodes, c.elapsed.as_secs_f64()));
        // Every field written has a value: a move without one (none is known) is sent alone.
        let answer = match &choice {
            Some(c) => match (c.square, c.value()) {
                (Some(_), Some(v)) => {
                    protocol::send(&format!("{}\n", search_line(&v, c.line.get(1..).unwrap_or(&[]))));
                    format!("{}/{}/{time:.2}", protocol::vertex(v.square), eval_text(&v))
                }
                (Some(sq), None) => protocol::vertex(sq),
                (None, _) => "PA".into(),
            },
            None => "PA".into(),
        };
        protocol::send(&format!("nodestats {nodes} {time:.2}\n=== {answer}\nstatus\n"));
    }

    /// `analyze`: every position of the game from the end back, `analysis MOVES EVAL` (the value
    /// for the side to move at each, from the store-aware choice at the engine's strength).
    fn analyze(&mut self, stop: &Arc<AtomicBool>) {
        let mut line = self.line.clone();
        protocol::send("status analyzing\n");
        loop {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let p = line.now();
            let made = line.moves.len();
            let value = if p.is_game_over() {
                Some(p.score(othello_explorer::Scoring::Standard))
            } else if p.must_pass() {
                None
            } else {
                let c = self.analyst.choose(&p, self.strength, None, Some(stop.clone()), &mut |_| {});
                c.value().filter(|_| !stop.load(Ordering::SeqCst)).map(|v| v.score)
            };
            if let Some(v) = value {
                protocol::send(&format!("analysis {made} {v:+.2}\n"));
            }
            if !line.undo() {
                break;
            }
        }
        protocol::send("status\n");
    }

    /// `learn`: the game's positions within reach of the exact solver (at most 20 empties) are
    /// solved into the store, so the next game finds them there.
    fn learn(&mut self, stop: &Arc<AtomicBool>) {
        if self.analyst.store().is_some() {
            protocol::send("status learning\n");
            let mut line = self.line.clone();
            loop {
                let p = line.now().after_forced_pass().0;
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                if !p.is_game_over() && p.empty_count() <= 20 {
                    let limits = Limits { stop: Some(stop.clone()), ..Limits::default() };
                    self.analyst.analyse(&p, &Ask::new(SearchMode::Exact, limits), &mut |_| {});
                }
                if !line.undo() {
                    break;
                }
            }
        }
        protocol::send("learned\n");
    }

    /// One line from the GUI; whether to quit.
    fn command(&mut self, line: &str, stop: &Arc<AtomicBool>) -> bool {
        let t = line.trim();
        let mut words = t.split_whitespace();
        let Some(name) = words.next() else { return false };
        let size = self.line.now().size();
        match name {
            "quit" => return true,
            "nboard" => protocol::send("set myname othello-explorer\n"),
            "ping" => {
                if let Some(n) = words.next().and_then(|w| w.parse::<i64>().ok()) {
                    protocol::send(&format!("pong {n}\n"));
                }
            }
            "set" => match words.next() {
                Some("depth") => {
                    if let Some(d) = words.next().and_then(|w| w.parse::<u32>().ok()) {
                        self.strength = Strength::Level(d.clamp(1, MAX_LEVEL));
                    }
                }
                // Accepted; a draw is valued 0 whatever the contempt: the values are exact disc
                // differences, and a contempt would make them something else.
                Some("contempt") => {}
                Some("game") => {
                    let text = t.split_once("game").map_or("", |x| x.1).trim();
                    match line_of_ggf(text) {
                        Ok(l) => self.line = l,
                        Err(e) => protocol::send(&format!("status set game refused: {}\n", one_line(&e))),
                    }
                }
                _ => {}
            },
            "move" => {
                if let Some(m) = words.next().and_then(|w| move_of(w, size)) {
                    let mut next = self.line.clone();
                    if m.is_some() && next.now().must_pass() {
                        let _ = next.play(None);
                    }
                    match next.play(m) {
                        Ok(()) => self.line = next,
                        Err(e) => protocol::send(&format!("status move refused: {}\n", one_line(&e))),
                    }
                }
            }
            "hint" => {
                if let Some(n) = words.next().and_then(|w| w.parse::<usize>().ok()) {
                    self.hint(n.clamp(1, 64), stop);
                }
            }
            "go" => self.go(stop),
            "learn" => self.learn(stop),
            "analyze" => self.analyze(stop),
            _ => {}
        }
        false
    }
}

fn one_line(text: &str) -> String {
    othello_explorer::notation::printable::one_line(text, 200)
}

/// Runs the protocol on stdin and stdout until `quit`, the end of the input, or a signal.
/// Serves NBoard on stdin and stdout; `signalled` is [`protocol::catch_signals`]'s flag, caught
/// before the store and the options were set up.
pub fn run(
    args: &NboardArgs,
    options: SolverOptions,
    store: Option<Store>,
    signalled: &AtomicBool,
) -> Result<(), CliError> {
    let mut engine = Engine {
        analyst: protocol::analyst(options, store)?,
        line: Line::start(Size::Eight),
        strength: args.strength.strength(),
    };
    protocol::serve(signalled, urgent, protocol::Interrupt::Waiting, |line, stop| engine.command(line, stop));
    Ok(())
}

/// Sends the `search` lines of the best `n` of `known` (an intermediate report during `hint`).
fn send_top(known: &[ChildValue], n: usize) {
    let mut best: Vec<&ChildValue> = known.iter().collect();
    best.sort_by_key(|c| std::cmp::Reverse(othello_explorer::solver::rank(c.score, c.kind, None)));
    let text: String = best.iter().take(n).map(|c| format!("{}\n", search_line(c, &[]))).collect();
    protocol::send(&text);
}

/// The position a GUI's game reaches (for the tests of `set game`).
#[cfg(test)]
fn end_of(text: &str) -> Option<othello_explorer::Position> {
    line_of_ggf(text).ok().map(|l| l.now())
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_explorer::solver::Selectivity;

    #[test]
    fn games_moves_and_values_as_nboard_writes_them() {
        let ggf = "(;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3];)";
        let p = end_of(ggf).unwrap();
        assert_eq!(p.empty_count(), 57);
        assert_eq!(move_of("F5", Size::Eight), Some(Some("f5".parse().unwrap())));
        assert_eq!(move_of("c4/-1.00/0.5", Size::Eight), Some(Some("c4".parse().unwrap())));
        assert_eq!(move_of("PA", Size::Eight), Some(None));
        assert_eq!(move_of("z9", Size::Eight), None);
        let v = ChildValue { square: "f5".parse().unwrap(), score: -3, kind: Kind::Exact };
        assert_eq!(search_line(&v, &["d6".parse().unwrap()]), "search F5D6 -3.00 0 100%");
        let w = ChildValue { kind: Kind::Wld, score: 1, ..v };
        assert_eq!(search_line(&w, &[]), "search F5 +1.00 0 100%W");
        let e = ChildValue { kind: Kind::estimate(12), score: 2, ..v };
        assert_eq!(search_line(&e, &[]), "search F5 +2.00 0 12");
        let selective = Selectivity::parse("95").unwrap();
        let e = ChildValue { kind: Kind::Estimate { depth: 22, selectivity: selective }, score: 2, ..v };
        assert_eq!(search_line(&e, &[]), "search F5 +2.00 0 22@95%");
        assert!(urgent("ping 3") && urgent("set game (;...") && !urgent("hint 3"));
    }
}
