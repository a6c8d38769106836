//! How selective a search is (floor 0 of the search core, `mod.rs`): the [`Selectivity`] of the
//! probable cutoffs (`probcut.rs`), named as Edax names it by the share of a normal distribution
//! within `t` spreads: 73% (t = 1.1), 87% (1.5), 95% (2.0), 98% (2.6), 99% (3.3), and 100%, no
//! pruning at all. The table stores its level with every bound ([`FULL_WIDTH`]: 100%).

use super::table::FULL_WIDTH;

/// How selective a search is: the confidence of its probable cutoffs (module documentation).
/// Ordered from the most selective, 73%, to [`Selectivity::FULL`], 100%.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Selectivity(u8);

/// The levels: (t, percent), Edax's table.
const LEVELS: [(f32, u32); 6] = [(1.1, 73), (1.5, 87), (2.0, 95), (2.6, 98), (3.3, 99), (f32::INFINITY, 100)];

/// Why a selectivity could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectivityError(pub String);

impl std::fmt::Display for SelectivityError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "selectivity {:?}: expected one of 73, 87, 95, 98, 99, 100 (percent)", self.0)
    }
}

impl std::error::Error for SelectivityError {}

impl Selectivity {
    /// No pruning: every value is the plain search's.
    pub const FULL: Selectivity = Selectivity(FULL_WIDTH);
    /// The most selective level, 73%.
    pub(crate) const MOST: Selectivity = Selectivity(0);
    /// Every level, the most selective first.
    pub const ALL: [Selectivity; 6] =
        [Selectivity(0), Selectivity(1), Selectivity(2), Selectivity(3), Selectivity(4), Selectivity(5)];

    /// The level's percentage: 73, 87, 95, 98, 99 or 100.
    pub const fn percent(self) -> u32 {
        LEVELS[self.0 as usize].1
    }

    /// The level with this percentage.
    pub fn from_percent(percent: u32) -> Option<Selectivity> {
        LEVELS.iter().position(|l| l.1 == percent).map(|i| Selectivity(i as u8))
    }

    /// Reads `95`, `95%` or ` 95 % `.
    pub fn parse(text: &str) -> Result<Selectivity, SelectivityError> {
        let t = text.trim();
        let t = t.strip_suffix('%').unwrap_or(t).trim();
        t.parse().ok().and_then(Selectivity::from_percent).ok_or_else(|| SelectivityError(text.to_string()))
    }

    /// The level's index, 0 (73%) to 5 (100%): what the table stores.
    pub const fn level(self) -> u8 {
        self.0
    }

    /// The level of index `level` (at most 5).
    pub(crate) const fn from_level(level: u8) -> Selectivity {
        Selectivity(if level > FULL_WIDTH { FULL_WIDTH } else { level })
    }

    /// Whether the level prunes nothing.
    pub const fn is_full(self) -> bool {
        self.0 == FULL_WIDTH
    }

    /// The next level toward 100%, then back to the most selective (the explorer's key).
    pub const fn cycled(self) -> Selectivity {
        Selectivity(if self.0 >= FULL_WIDTH { 0 } else { self.0 + 1 })
    }

    /// The confidence multiplier `t`.
    pub(super) fn t(self) -> f32 {
        LEVELS[self.0 as usize].0
    }
}

impl std::fmt::Display for Selectivity {
    /// `95%`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}%", self.percent())
    }
}

impl std::str::FromStr for Selectivity {
    type Err = SelectivityError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Selectivity::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_read_and_print_as_edax_names_them() {
        let levels: Vec<String> = Selectivity::ALL.iter().map(|s| s.to_string()).collect();
        assert_eq!(levels, ["73%", "87%", "95%", "98%", "99%", "100%"]);
        assert_eq!(Selectivity::parse("95"), Ok(Selectivity(2)));
        assert_eq!(Selectivity::parse(" 95 % "), Ok(Selectivity(2)));
        assert_eq!(Selectivity::parse("100%"), Ok(Selectivity::FULL));
        assert!(Selectivity::parse("90").is_err());
        assert!(Selectivity::parse("x").is_err());
        assert_eq!(Selectivity::FULL.cycled(), Selectivity::MOST);
        assert!(Selectivity::MOST < Selectivity::FULL);
    }
}
