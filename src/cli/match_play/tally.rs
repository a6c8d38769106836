//! A match's score: wins, draws and losses, the Elo difference with its 95% interval, and the
//! sequential probability ratio test that can stop a match early.

use super::*;

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
    pub(super) fn variance(&self) -> Option<f64> {
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
pub(super) struct Sprt {
    pub(super) elo0: f64,
    pub(super) elo1: f64,
    pub(super) alpha: f64,
    pub(super) beta: f64,
    pub(super) llr: Option<f64>,
    pub(super) lower: f64,
    pub(super) upper: f64,
    /// `H1` (engine 1 is better by elo1), `H0` (not better than elo0), or `continue`.
    pub(super) verdict: &'static str,
}

pub(super) fn sprt_of(t: &Tally, elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Sprt {
    let (lower, upper) = ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln());
    let llr = t.llr(elo0, elo1);
    let verdict = match llr {
        Some(l) if l >= upper => "H1",
        Some(l) if l <= lower => "H0",
        _ => "continue",
    };
    Sprt { elo0, elo1, alpha, beta, llr, lower, upper, verdict }
}
