//! Evaluation of midgame positions: an estimate of the final disc difference when the game is
//! too deep to solve.
//!
//! [`evaluate`] is the one entry point the search calls. The value is in discs, from the side to
//! move (`p`), clamped to the board's range, and never claimed to be exact.

use crate::geometry::bit;
use crate::rules::legal_moves;

/// An estimate of the final disc difference from `p`'s side (side to move), in `-N*N..=N*N`.
///
/// ```
/// use othello_explorer::eval::evaluate;
/// // The 8x8 start is symmetric: an even game.
/// assert_eq!(evaluate::<8>(0x0000_0008_1000_0000, 0x0000_0010_0800_0000), 0);
/// ```
pub fn evaluate<const N: usize>(p: u64, o: u64) -> i32 {
    let corners = 1u64 << bit(N, 0, 0) | 1 << bit(N, N - 1, 0) | 1 << bit(N, 0, N - 1) | 1 << bit(N, N - 1, N - 1);
    let pm = legal_moves::<N>(p, o);
    let om = legal_moves::<N>(o, p);
    let mobility = pm.count_ones() as i32 - om.count_ones() as i32;
    let corner_discs = (p & corners).count_ones() as i32 - (o & corners).count_ones() as i32;
    let max = (N * N) as i32;
    (mobility + 4 * corner_discs).clamp(-max, max)
}
