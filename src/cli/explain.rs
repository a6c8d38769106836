//! `explain`: the bitboard techniques step by step on a position, as text for a handout or as
//! JSON. The steps come from [`othello_explorer::studies::trace`]; `search` runs the [`othello_explorer::studies::lab`]
//! (exact scores), `search --outcome` its [`othello_explorer::studies::lab::outcome`] half (win, loss or draw).

use super::args::Resolved;
use super::common::CliError;
use super::common::{outln, thousands};
use super::report::{Report, print_json};
use othello_explorer::notation::printable::count;
use othello_explorer::studies::lab::outcome::{self, Budget, OutcomeError};
use othello_explorer::studies::lab::{self, LabError, Method, Run};
use othello_explorer::studies::trace::{self, Step, Topic, Trace, Value};
use othello_explorer::{Bitboard, IllegalMove, Position, Scoring, Square};
use serde::Serialize;
use std::sync::atomic::AtomicBool;

/// The widest line the text aims for (notes wrap there, grids go side by side up to it).
const WIDTH: usize = 78;

/// What `explain` was asked about: a traced topic or the search lab.
enum Subject {
    Trace(Topic),
    Search,
}

fn subject(name: &str) -> Result<Subject, CliError> {
    if name.trim().eq_ignore_ascii_case("search") {
        return Ok(Subject::Search);
    }
    name.parse::<Topic>().map(Subject::Trace).map_err(|e| CliError::Usage(format!("{e}, search")))
}

pub fn run(topic: &str, resolved: &Resolved, mv: Option<&str>, outcome: bool, json: bool) -> Result<(), CliError> {
    let subject = subject(topic)?;
    if let (true, Subject::Trace(topic)) = (outcome, &subject) {
        return Err(CliError::Usage(format!("--outcome: only the search topic takes it, not {topic}")));
    }
    let position = resolved.position;
    let square = match mv {
        None => None,
        Some(text) => {
            let sq =
                Square::parse_for(position.size(), text).map_err(|e| CliError::Usage(format!("--move {text}: {e}")))?;
            if !sq.is_on(position.size()) {
                // Worded as playing it in a transcript is ("g1 is off the 6x6 board").
                let off = IllegalMove::OffBoard { square: sq, size: position.size() };
                return Err(CliError::Usage(format!("--move {sq}: {off}")));
            }
            Some(sq)
        }
    };
    match subject {
        Subject::Search => {
            if square.is_some() {
                return Err(CliError::Usage("--move: the search topic takes no move".into()));
            }
            if outcome {
                search_outcome(&position, json);
            } else {
                search(&position, json);
            }
        }
        Subject::Trace(topic) => {
            if square.is_some() && !topic.needs_move() {
                return Err(CliError::Usage(format!("--move: only flips and play take a move, not {topic}")));
            }
            let t = trace::trace(topic, &position, square).map_err(|e| CliError::Usage(format!("{topic}: {e}")))?;
            TraceReport::new(t).print(json);
        }
    }
    Ok(())
}

/// A value as JSON: masks and words as hex strings of the board's width, numbers as numbers, a
/// position as its board string and hex bitboards, a key as its two hex bitboards and symmetry.
#[derive(Serialize)]
#[serde(untagged)]
enum ValueJson {
    Hex(String),
    Number(i64),
    Position { board: String, black: String, white: String, to_move: &'static str },
    Key { player: String, opponent: String, symmetry: &'static str },
}

impl From<&Value> for ValueJson {
    fn from(v: &Value) -> ValueJson {
        match v {
            Value::Mask(m) => ValueJson::Hex(m.hex()),
            Value::Word { bits, size, .. } => ValueJson::Hex(Bitboard::new(*size, *bits).hex()),
            Value::Number(n) => ValueJson::Number(*n),
            Value::Position(p) => ValueJson::Position {
                board: p.to_string(),
                black: p.black().hex(),
                white: p.white().hex(),
                to_move: p.to_move().name(),
            },
            Value::Key { player, opponent, symmetry } => {
                ValueJson::Key { player: player.hex(), opponent: opponent.hex(), symmetry: symmetry.name() }
            }
        }
    }
}

/// A trace explained: its text is [`trace_text`]; its JSON `{topic, board, move, steps: [{name,
/// expression, value}], result}`.
#[derive(Serialize)]
struct TraceReport {
    topic: &'static str,
    board: String,
    #[serde(rename = "move")]
    square: Option<String>,
    steps: Vec<StepJson>,
    result: ValueJson,
    #[serde(skip)]
    trace: Trace,
}

/// One step of a trace.
#[derive(Serialize)]
struct StepJson {
    name: String,
    expression: String,
    value: ValueJson,
}

impl TraceReport {
    fn new(t: Trace) -> TraceReport {
        TraceReport {
            topic: t.topic.name(),
            board: t.position.to_string(),
            square: t.square.map(|s| s.to_string()),
            steps: t
                .steps
                .iter()
                .map(|s| StepJson {
                    name: s.full_name(),
                    expression: s.expression.to_string(),
                    value: ValueJson::from(&s.value),
                })
                .collect(),
            result: ValueJson::from(&t.result),
            trace: t,
        }
    }
}

impl std::fmt::Display for TraceReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&trace_text(&self.trace))
    }
}

fn indent(text: &str, by: &str) -> String {
    text.lines().map(|l| if l.is_empty() { "\n".to_string() } else { format!("{by}{l}\n") }).collect()
}

/// The grids of `masks` side by side, as many per row as fit in [`WIDTH`]: each with its name,
/// its hex value and its N rows of bits, row numbers on the left.
fn grids(masks: &[(&str, Bitboard)]) -> String {
    let Some(first) = masks.first() else { return String::new() };
    let size = first.1.size();
    let names = masks.iter().map(|(name, _)| name.chars().count()).max().unwrap_or(0);
    let width = (size.hex_digits() + 2).max(size.n()).max(names) + 2;
    let per = ((WIDTH - 4) / width).max(1);
    let mut out = String::new();
    for (i, chunk) in masks.chunks(per).enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut lines = vec![String::from("    "), String::from("    ")];
        lines.extend((1..=size.n()).map(|r| format!("{r:>2}  ")));
        for (name, mask) in chunk {
            lines[0].push_str(&format!("{name:<width$}"));
            lines[1].push_str(&format!("{:<width$}", mask.hex()));
            for (r, row) in mask.binary_rows().iter().enumerate() {
                lines[2 + r].push_str(&format!("{row:<width$}"));
            }
        }
        for l in lines {
            out.push_str(l.trim_end());
            out.push('\n');
        }
    }
    out
}

fn heading(t: &Trace) -> String {
    let p = &t.position;
    let mut out = format!("explain {}: {}\n", t.topic.name(), t.topic.title());
    out.push_str(&format!("{} {}, {} to move", p.size(), p, p.to_move().name()));
    if let Some(sq) = t.square {
        out.push_str(&format!(", move {sq}"));
    }
    out.push_str("\n\n");
    out.push_str(&p.diagram());
    out
}

fn step_line(s: &Step, name_w: usize, expr_w: usize) -> String {
    let value = match &s.value {
        Value::Position(_) | Value::Key { .. } => String::new(),
        v => v.to_string(),
    };
    // An input named by its expression (`player`) is written once.
    let expression = if s.expression == s.name { "" } else { s.expression.as_str() };
    let line = format!("  {:<name_w$}  {:<expr_w$}  {value}", s.name, expression);
    format!("{}\n", line.trim_end())
}

/// The text of a trace: a heading and the position, then group by group each step's name,
/// expression and value, its note, and the grids of the group's masks side by side.
pub fn trace_text(t: &Trace) -> String {
    let mut out = heading(t);
    let name_w = t.steps.iter().map(|s| s.name.chars().count()).max().unwrap_or(0);
    let expr_w = t.steps.iter().map(|s| s.expression.chars().count()).max().unwrap_or(0).min(56);
    let mut i = 0;
    while i < t.steps.len() {
        let group = &t.steps[i].group;
        let end = t.steps[i..].iter().position(|s| &s.group != group).map_or(t.steps.len(), |k| i + k);
        let steps = &t.steps[i..end];
        out.push('\n');
        if !group.is_empty() {
            out.push_str(&format!("{group}\n"));
        }
        for s in steps {
            out.push_str(&step_line(s, name_w, expr_w));
            if let Value::Word { .. } = s.value {
                out.push_str(&format!("  {:<name_w$}  {}\n", "", s.value.binary_rows().join("")));
            }
            for l in othello_explorer::studies::trace::wrap(&s.note, WIDTH - 6) {
                out.push_str(&format!("      {l}\n"));
            }
        }
        let masks: Vec<(&str, Bitboard)> = steps
            .iter()
            .filter_map(|s| if let Value::Mask(m) = s.value { Some((s.name.as_str(), m)) } else { None })
            .collect();
        if !masks.is_empty() {
            out.push('\n');
            out.push_str(&grids(&masks));
        }
        for s in steps {
            match s.value {
                Value::Position(p) => {
                    out.push('\n');
                    out.push_str(&format!("  {p}\n\n"));
                    out.push_str(&indent(&p.diagram(), "  "));
                }
                Value::Key { player, opponent, symmetry } => {
                    out.push('\n');
                    out.push_str(&format!("  by {}\n", symmetry.name()));
                    out.push_str(&grids(&[("player", player), ("opponent", opponent)]));
                }
                _ => {}
            }
        }
        i = end;
    }
    out.push_str(&format!("\nresult: {}\n", result_text(t)));
    out
}

fn result_text(t: &Trace) -> String {
    match (&t.result, t.topic) {
        (Value::Mask(m), Topic::Empties) => {
            format!("{m} ({} visited)", count(i64::from(m.count()), "empty square", "empty squares"))
        }
        (Value::Mask(m), _) => format!("{m} ({})", names(*m)),
        (Value::Number(n), Topic::Popcount) => count(*n, "black disc", "black discs"),
        (Value::Position(p), _) => format!("{p}"),
        (Value::Key { player, opponent, symmetry }, _) => {
            format!("({player}, {opponent}), the {} image", symmetry.name())
        }
        (v, _) => v.to_string(),
    }
}

fn names(m: Bitboard) -> String {
    let v: Vec<String> = m.reading_order().iter().map(|s| s.to_string()).collect();
    if v.is_empty() { "none".into() } else { v.join(" ") }
}

/// The lab's second line: the board, who moves, how deep; then a blank line.
fn position_line(position: &Position) -> String {
    format!(
        "{} {}, {} to move, {}\n",
        position.size(),
        position,
        position.to_move().name(),
        count(i64::from(position.empty_count()), "empty square", "empty squares")
    )
}

/// Runs the lab and prints one line per method as it finishes (or one JSON object at the end).
fn search(position: &Position, json: bool) {
    let stop = AtomicBool::new(false);
    let scoring = Scoring::Standard;
    let mut results: Vec<Result<Run, LabError>> = Vec::new();
    if !json {
        outln!("explain search: one position solved four ways (scores from the side to move, empties to the winner)");
        outln!("{}", position_line(position));
        outln!("  {:<14} {:<34} {:>6} {:>14} {:>10}", "method", "what", "score", "nodes", "time");
    }
    lab::compare(position, scoring, &stop, &mut |r| {
        if !json {
            outln!("{}", lab_line(&r));
        }
        results.push(r);
    });
    let scores: Vec<i32> = results.iter().filter_map(|r| r.as_ref().ok().map(|r| r.score)).collect();
    let agreed = scores.first().copied().filter(|s| scores.iter().all(|x| x == s));
    if json {
        let steps = results
            .iter()
            .zip(Method::ALL)
            .map(|(r, m)| LabStep {
                name: m.name(),
                expression: format!("lab::run(Method::{m:?}, &position, Scoring::Standard, &stop)"),
                value: r.as_ref().ok().map(|run| run.score),
                nodes: r.as_ref().ok().map(|run| run.nodes),
                seconds: r.as_ref().ok().map(|run| run.elapsed.as_secs_f64()),
                error: r.as_ref().err().map(|e| e.to_string()),
            })
            .collect();
        print_json(&LabReport { topic: "search", board: position.to_string(), steps, result: agreed });
    } else if let Some(score) = agreed {
        outln!("\nresult: {score:+} for {}; every method that ran agrees", position.to_move().name());
    }
}

/// `explain search`'s JSON: the text prints each method's row as it finishes.
#[derive(Serialize)]
struct LabReport {
    topic: &'static str,
    board: String,
    steps: Vec<LabStep>,
    /// The score every method that ran agrees on.
    result: Option<i32>,
}

/// One method of the lab: its score, nodes and time, or why it did not run.
#[derive(Serialize)]
struct LabStep {
    name: &'static str,
    expression: String,
    value: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// One row of the lab's table.
pub fn lab_line(r: &Result<Run, LabError>) -> String {
    match r {
        Ok(run) => format!(
            "  {:<14} {:<34} {:>+6} {:>14} {:>8.3} s",
            run.method.name(),
            run.method.description(),
            run.score,
            thousands(run.nodes),
            run.elapsed.as_secs_f64()
        ),
        Err(e) => {
            let method = match e {
                LabError::TooDeep { method, .. } | LabError::Cancelled { method, .. } => *method,
            };
            format!("  {:<14} {e}", method.name())
        }
    }
}

/// Runs the outcome lab and prints one line per method as it finishes (or one JSON object at the
/// end: `{topic, board, empties, methods: [{method, outcome, nodes, seconds, refused,
/// selection_share, selection_seconds, iterations}], result}`).
fn search_outcome(position: &Position, json: bool) {
    let stop = AtomicBool::new(false);
    let mut results: Vec<Result<outcome::Run, OutcomeError>> = Vec::new();
    if !json {
        outln!("explain search --outcome: win, loss or draw proven five ways (from the side to move)");
        outln!("{}", position_line(position));
        outln!("  {:<19} {:<26} {:>7} {:>14} {:>10}", "method", "what", "outcome", "nodes", "time");
    }
    outcome::compare(position, Budget::UNLIMITED, &stop, &mut |r| {
        if !json {
            outln!("{}", outcome_line(&r));
        }
        results.push(r);
    });
    let outcomes: Vec<outcome::Outcome> = results.iter().filter_map(|r| r.as_ref().ok().map(|r| r.outcome)).collect();
    let agreed = outcomes.first().copied().filter(|o| outcomes.iter().all(|x| x == o));
    if json {
        print_json(&OutcomeReport {
            topic: "search",
            board: position.to_string(),
            empties: position.empty_count(),
            methods: results.iter().map(super::outcome_rows::MethodRow::of).collect(),
            result: agreed.map(|o| o.name()),
        });
    } else if let Some(o) = agreed {
        outln!("\nresult: a {o} for {}; every method that ran agrees", position.to_move().name());
    } else if !outcomes.is_empty() {
        outln!("\nresult: the methods disagree");
    }
}

/// `explain search --outcome`'s JSON: the text prints each method's row as it finishes.
#[derive(Serialize)]
struct OutcomeReport {
    topic: &'static str,
    board: String,
    empties: u32,
    methods: Vec<super::outcome_rows::MethodRow>,
    result: Option<&'static str>,
}

/// One row of the outcome lab's table.
pub fn outcome_line(r: &Result<outcome::Run, OutcomeError>) -> String {
    match r {
        Ok(run) => {
            let note = match (run.selection_share(), run.iterations) {
                (Some(share), _) => format!("  ({:.0}% of the time choosing nodes)", 100.0 * share),
                (_, Some(1)) => "  (1 iteration)".to_string(),
                (_, Some(n)) => format!("  ({n} iterations)"),
                _ => String::new(),
            };
            format!(
                "  {:<19} {:<26} {:>7} {:>14} {:>8.3} s{note}",
                run.method.name(),
                run.method.description(),
                run.outcome.name(),
                thousands(run.nodes),
                run.elapsed.as_secs_f64()
            )
        }
        Err(e) => format!("  {:<19} {e}", e.method().name()),
    }
}
