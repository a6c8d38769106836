//! The parsers of numeric option values. Options that take numbers accept a leading `-` (clap
//! would otherwise read `--time -1` as an unknown option `-1`), so a negative value reaches these
//! parsers and is refused with a message clap prefixes with the option's name:
//! `invalid value '-1' for '--time <SECONDS>': must be a positive number of seconds`.

use std::time::Duration;

/// The most seconds `--time` accepts (about 31 years).
pub const MAX_SECONDS: f64 = 1e9;

/// A whole number from `lo` to `hi`.
fn whole(text: &str, lo: u64, hi: u64) -> Result<u64, String> {
    let bad = || format!("must be a whole number from {lo} to {hi}");
    let t = text.trim();
    if t.starts_with('-') {
        return Err(bad());
    }
    let n: u64 = t.parse().map_err(|_| bad())?;
    if n < lo || n > hi {
        return Err(bad());
    }
    Ok(n)
}

/// `perft DEPTH`: 1 to 20.
pub fn perft_depth(text: &str) -> Result<u32, String> {
    whole(text, 1, 20).map(|n| n as u32)
}

/// An estimate depth: 1 to 60.
pub fn depth(text: &str) -> Result<u32, String> {
    whole(text, 1, 60).map(|n| n as u32)
}

/// Plies from the start: 0 to 60.
pub fn plies(text: &str) -> Result<u32, String> {
    whole(text, 0, 60).map(|n| n as u32)
}

/// Empty squares: 0 to 64.
pub fn empties(text: &str) -> Result<u32, String> {
    whole(text, 0, 64).map(|n| n as u32)
}

/// Search threads: 1 to 256.
pub fn threads(text: &str) -> Result<u64, String> {
    whole(text, 1, 256)
}

/// The auto-play delay: 100 to 5000 ms.
pub fn delay_ms(text: &str) -> Result<u64, String> {
    whole(text, 100, 5000)
}

/// The engine's level in a game: 1 to 30 ([`MAX_LEVEL`](othello_explorer::analyst::play::MAX_LEVEL)).
pub fn level(text: &str) -> Result<u32, String> {
    whole(text, 1, u64::from(othello_explorer::analyst::play::MAX_LEVEL)).map(|n| n as u32)
}

/// The engine's time a move in a game: 0.05 to 600 seconds.
pub fn move_time(text: &str) -> Result<f64, String> {
    let t = text.trim();
    match t.parse::<f64>() {
        Ok(s) if (0.05..=600.0).contains(&s) => Ok(s),
        _ => Err("must be a number of seconds from 0.05 to 600".into()),
    }
}

/// A board size: 4, 6 or 8 (checked by the caller, which names the sizes).
pub fn size(text: &str) -> Result<u8, String> {
    whole(text, 0, 255).map(|n| n as u8).map_err(|_| "the board size must be 4, 6 or 8".into())
}

/// A count of at least 0.
pub fn count(text: &str) -> Result<usize, String> {
    whole(text, 0, u32::MAX as u64).map(|n| n as usize)
}

/// A node budget: 1 to 2^64 - 1.
pub fn nodes(text: &str) -> Result<u64, String> {
    whole(text, 1, u64::MAX)
}

/// The positions a search may hold, about 100 bytes each: at least 1, and no more than the memory
/// this machine has available (see [`hash_mb`]).
pub fn positions(text: &str) -> Result<usize, String> {
    let n = whole(text, 1, u32::MAX as u64 * 16)?;
    if let Some(available) = available_mb()
        && n.saturating_mul(100) / (1024 * 1024) > available
    {
        return Err(format!("{n} positions need more memory than this machine has available ({available} MiB)"));
    }
    Ok(n as usize)
}

/// A seed: any whole number from 0.
pub fn seed(text: &str) -> Result<u64, String> {
    whole(text, 0, u64::MAX)
}

/// `--hash-mb`: at least 1 MiB, and no more than the memory this machine has available (where
/// it says: `MemAvailable` of `/proc/meminfo`), so a table too large is refused before anything
/// starts instead of aborting the program when it is allocated.
pub fn hash_mb(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let mb: u64 = if t.starts_with('-') { None } else { t.parse().ok() }
        .filter(|&n| n >= 1)
        .ok_or_else(|| "must be a whole number of MiB, at least 1".to_string())?;
    if let Some(available) = available_mb()
        && mb > available
    {
        return Err(format!("{mb} MiB is more memory than this machine has available ({available} MiB)"));
    }
    Ok(mb)
}

/// The memory available for new allocations, in MiB, where the system says
/// (`MemAvailable` in `/proc/meminfo` on Linux); elsewhere `None`, and only the fallible
/// allocation of the table guards.
pub fn available_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// `--time`: a positive number of seconds, fractions allowed, at most [`MAX_SECONDS`].
pub fn seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 =
        text.trim().parse().map_err(|_| "must be a positive number of seconds (like 2 or 0.5)".to_string())?;
    if seconds.is_nan() || seconds <= 0.0 {
        return Err("must be a positive number of seconds".into());
    }
    if seconds > MAX_SECONDS {
        return Err(format!("too large: at most {MAX_SECONDS:.0} seconds"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// `--selectivity`: 73, 87, 95, 98, 99 or 100 (percent, a `%` allowed).
pub fn selectivity(text: &str) -> Result<othello_explorer::solver::Selectivity, String> {
    othello_explorer::solver::Selectivity::parse(text)
        .map_err(|_| "must be one of 73, 87, 95, 98, 99, 100 (percent)".to_string())
}

/// `--eval`: `patterns` or `network`.
pub fn evaluator(text: &str) -> Result<othello_explorer::solver::Evaluator, String> {
    othello_explorer::solver::Evaluator::from_name(text).ok_or_else(|| "must be patterns or network".to_string())
}

/// A value parser that keeps `parse`'s own one-line message and offers `values` to the shell's
/// completion and the help (`[possible values: 4, 6, 8]`), where a plain function would leave the
/// shell completing file names.
#[derive(Clone)]
pub struct Choices<T: Clone + Send + Sync + 'static> {
    parse: fn(&str) -> Result<T, String>,
    values: &'static [&'static str],
}

impl<T: Clone + Send + Sync + 'static> Choices<T> {
    /// `parse`, completed with `values`.
    pub const fn new(parse: fn(&str) -> Result<T, String>, values: &'static [&'static str]) -> Choices<T> {
        Choices { parse, values }
    }
}

impl<T: Clone + Send + Sync + 'static> clap::builder::TypedValueParser for Choices<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        self.parse.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(self.values.iter().map(|v| clap::builder::PossibleValue::new(*v))))
    }
}

/// The board sizes, for [`Choices`].
pub const SIZES: &[&str] = &["8", "6", "4"];
/// The selectivity levels, for [`Choices`].
pub const SELECTIVITIES: &[&str] = &["73", "87", "95", "98", "99", "100"];
/// The evaluations, for [`Choices`].
pub const EVALUATORS: &[&str] = &["patterns", "network"];

/// `explain`'s topics, for [`Choices`] (the topic is checked by `explain` itself, with its own
/// message): every traced topic in the tutorial's order, then `search`.
pub const TOPICS: &[&str] = &{
    use othello_explorer::studies::trace::Topic;
    let mut out = [""; Topic::ALL.len() + 1];
    let mut i = 0;
    while i < Topic::ALL.len() {
        out[i] = Topic::ALL[i].name();
        i += 1;
    }
    out[Topic::ALL.len()] = "search";
    out
};

/// Any text, as it is.
fn text(text: &str) -> Result<String, String> {
    Ok(text.to_string())
}

/// `explain TOPIC` with its topics completed.
pub const TOPIC: Choices<String> = Choices::new(text, TOPICS);

/// `--size` with its values completed.
pub const SIZE: Choices<u8> = Choices::new(size, SIZES);
/// `--selectivity` with its values completed.
pub const SELECTIVITY: Choices<othello_explorer::solver::Selectivity> = Choices::new(selectivity, SELECTIVITIES);
/// `--eval` with its values completed.
pub const EVALUATOR: Choices<othello_explorer::solver::Evaluator> = Choices::new(evaluator, EVALUATORS);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_checked_with_a_reason() {
        assert_eq!(perft_depth("5"), Ok(5));
        assert_eq!(perft_depth("-1"), Err("must be a whole number from 1 to 20".into()));
        assert_eq!(perft_depth("21"), Err("must be a whole number from 1 to 20".into()));
        assert_eq!(seconds("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(seconds("-1"), Err("must be a positive number of seconds".into()));
        assert_eq!(seconds("1e308"), Err("too large: at most 1000000000 seconds".into()));
        assert_eq!(seconds("inf"), Err("too large: at most 1000000000 seconds".into()));
        assert_eq!(hash_mb("-5"), Err("must be a whole number of MiB, at least 1".into()));
        assert_eq!(hash_mb("16"), Ok(16));
        assert_eq!(selectivity("95").map(|s| s.percent()), Ok(95));
        assert_eq!(selectivity("100%").map(|s| s.percent()), Ok(100));
        assert_eq!(selectivity("90"), Err("must be one of 73, 87, 95, 98, 99, 100 (percent)".into()));
    }
}
