//! The search's tunables in one place, as Edax keeps its own in `settings.h`: each with what it
//! sets and what was measured when its value was chosen, or that no measurement is recorded. The
//! code that uses each one is named with it. Constants the rules or the board fix (masks, the
//! table's layout, the largest score) stay with the code they describe.
//!
//! Node counts are the stable measure of a change here (`bench --no-store … --threads 1`: the
//! same positions searched the same way give the same count); times are indicative
//! (`docs/solver.md`, "What each technique bought").

// The exact search.

/// Empties at and below which the exact search leaves the shared table and its sorting behind:
/// the endgame path of `endgame.rs`, the frontier of the exact regime (`regime.rs`). Only the
/// path's top node, of `SHALLOW` empties, keeps its bounds, in the thread's small table
/// (`local_table.rs`; since 2026-12-02: 5% fewer nodes, `docs/solver.md`, "And the endgame
/// path's top node").
///
/// Why 7: below eight empties the shared table costs more than it saves. Up to 7 empties instead of 6,
/// FFO #40-#42 took 9.89 s of CPU instead of 10.55 s although the nodes rose from 230 M to 292 M;
/// up to 8 instead of 7, the every-child solve of #43 took 1.00 of the time (`docs/solver.md`,
/// "What each technique bought").
pub(super) const SHALLOW: u32 = 7;

/// Empties from which the endgame path sorts its moves, fewest replies first (corners counted
/// twice; a move into an odd region half a reply ahead), instead of trying them by parity and
/// square class (`endgame.rs`).
///
/// Why 7: sorting there took FFO #40-#49 from 911 M to 739 M nodes and a median 0.96 of the
/// time (4 pairs), and the slowest child of 6x6 `c2b2b3d2` from 198 M to 165 M nodes and 0.95 of
/// the time (4 pairs); sorting at 6 empties as well saved 5% more nodes and cost more time
/// than it saved (`docs/solver.md`, "The last empties").
pub(super) const SHALLOW_SORT: u32 = 7;

/// Empties from which a node of the last few (`endgame.rs`) finds its legal moves in one pass
/// before it computes any flips; below, each empty square is tried with the neighbour test and
/// its flips. The nodes of 5 to 7 empties always do, since the 2026-12-04 measure below.
///
/// Why 4 (2026-12-04, an Intel Xeon model 167, AVX-512; every child of the 6x6 child
/// `c2b4e5d2b2`, 383.5 M nodes either way, one thread pinned, 2 runs each): the legal moves
/// first at 5 and 6 empties took 13.80 s to 13.46 s; at 7 as well, 13.42 s to 13.35 s; at 4 as
/// well, 13.62 s and 13.38 s to 13.45 s and 13.33 s; at 3 as well, 13.56 s and 13.48 s, slower
/// than at 4 alone.
pub(super) const SMALL_LEGAL_FIRST: u32 = 4;

/// Empties up to which the exact search keeps its nodes' bounds in its thread's small table
/// instead of the shared one (`local_table.rs`, as Egaroucid does up to 12 empties); it must stay
/// below [`PROBCUT_END_MIN`], where no search prunes.
///
/// Why 10 first (2026-11-28): against the shared table at every node, FFO #40-#49 643.0 M nodes
/// against 624.0 M, FFO #53 1,218.8 M against 1,187.1 M, the 6x6 child `c2b2b3d2e4` 128.8 M
/// against 124.6 M (one thread): a few more nodes, and less time, since a probe of the shared
/// table nearly always misses the cache: FFO #40-#49 on one thread 0.95 of the time, every child
/// of 6x6 `c2b2b3d2` on two 0.97 (2 pairs each, with [`EVAL_SORT_DEEP`] at 20).
///
/// Why 12 (2026-11-29, a Zen 3 without AVX-512, the binaries run alternately with nothing else
/// running): the same trade again, one level further. FFO #50-#59 on two threads 463.9 s → 440.6 s
/// (0.95, one run each) with 13.39 G → 13.54 G nodes; FFO #40-#49 on one thread 0.95 and 0.98 of
/// the time (2 pairs) with 619.1 M → 628.6 M nodes; FFO #50 on one thread 0.96 and 0.94 (604.7 M
/// against 588.6 M); every child of 6x6 `c2b2b3d2` on two threads 1.10 and 0.96 (2 pairs, within
/// that solve's noise) with about 1% more nodes (`docs/solver.md`, "The transposition table").
pub(super) const LOCAL_TABLE_MAX: u32 = 12;

/// Slots of the small table per number of empties: with six numbers (7 to 12 empties) of
/// 24-byte slots, 576 KiB a thread, within a newer core's second-level cache (1 MiB and more)
/// and a little beyond the Zen 3's 512 KiB (five numbers until 2026-12-02, 480 KiB). 16,384 and 65,536 slots (with three numbers) searched a few
/// nodes fewer and took more time (`docs/solver.md`). 8,192 slots on a core with a
/// 2 MiB second-level cache (2026-12-05, the 6x6 child `c2b4e5d2b2`): the same time, 5 pairs.
pub(super) const LOCAL_TABLE_SLOTS: usize = 4096;

/// Empties from which null-window nodes look up their children in the table first (enhanced
/// transposition cutoffs, `ordering.rs`).
///
/// Why 11: from 14 empties the cutoffs took FFO #40-#44 from 457 M to 433 M nodes, from 11 to
/// 418 M. Later, from 14 instead of 11, the every-child solve of #43 took 0.99 of the time with 5%
/// more nodes, and 11 stayed (`docs/solver.md`, "What each technique bought").
pub(super) const ETC_MIN: u32 = 11;

/// Empties from which the exact search orders its moves by a one-ply search of the rough
/// evaluation, the fastest-first key breaking ties, where the fitted evaluation cannot be read
/// (`ordering.rs`; with the weights, [`EVAL_SORT_MIN`] is lower still and the evaluation orders
/// from there).
///
/// Why 14: on FFO #41-#46, 14 empties beat 12, 16 and 20, and one ply beat two; it took #41-#44
/// and #46 from 801 M to 443 M nodes (`docs/solver.md`, "Move ordering: fastest-first"; measured
/// before the ordering by the evaluation).
pub(super) const SORT_SEARCH_MIN: u32 = 14;

/// Empties from which the exact search orders its moves by a search of the fitted evaluation
/// (`ordering.rs`), when the weights can be read: [`EVAL_SORT_NEAR_DEPTH`] plies below
/// [`EVAL_SORT_DEEP`] empties, [`EVAL_SORT_DEPTH`] from there.
///
/// Why 14 (2026-11-28, version 7 of the 8x8 weights): one ply of the evaluation at 14-17 empties
/// instead of the rough search took FFO #40-#49 (one thread) from 738.9 M to 624.0 M nodes in a
/// median 0.96 of the time (3 pairs), every child of 6x6 `c2b2b3d2` on two threads 0.91 of the
/// time (3 pairs), and FFO #53-#54 on two threads 0.87 (one pair). Starting at 12 instead, no
/// search at 12 and 13 empties (the children's evaluation alone): 593.8 M nodes but 1.03 and
/// 1.01 of the time; from 16: 692.1 M nodes. With the weights of the time (version 2) the one-ply
/// search ordered worse than the rough one, and the start was measured at 16-20 empties with
/// three plies: below 18 the search cost more than it saved (`docs/solver.md`, "Move ordering by
/// the evaluation").
pub(super) const EVAL_SORT_MIN: u32 = 14;

/// The plies of the ordering search from [`EVAL_SORT_MIN`] to [`EVAL_SORT_DEEP`] empties.
///
/// Why 1: on FFO #40-#49 / the 6x6 child `c2b2b3d2e4` (one thread, nodes), the children's
/// evaluation alone (0 plies) 676.1 M / 134.5 M, one ply 629.3 M / 125.6 M, two plies 621.5 M /
/// 110.3 M but 1.27 / 1.25 of the time (one run each, other work on the machine; the
/// mobility weight at 32, [`EVAL_SORT_NEAR_FASTEST`]).
pub(super) const EVAL_SORT_NEAR_DEPTH: u32 = 1;

/// Empties from which the ordering search looks [`EVAL_SORT_DEPTH`] plies deep.
///
/// The schedule from here (this and the three below) was chosen on FFO #40-#49, one thread, with
/// the weights of the time (`docs/solver.md`, "Move ordering by the evaluation"), and is worth
/// measuring again whenever the weights are refitted. Why 20 (2026-11-28, with the one-ply sort
/// below it): from 18 / 19 / 20 / 22, FFO #40-#49 624.0 M / 631.8 M / 637.7 M / 680.9 M nodes
/// and the 6x6 child `c2b2b3d2e4` 124.6 M / 133.3 M / 134.2 M / 153.9 M (one thread), FFO #53
/// 1,187.1 M from 18 and 1,242.0 M from 20; but from 20 instead of 18 (the small table of
/// [`LOCAL_TABLE_MAX`] in both) FFO #40-#49 took 0.93 of the time on one thread and every
/// child of 6x6 `c2b2b3d2` 0.95 on two (2 pairs each): three plies cost more than they save
/// below 20 empties. (Before the one-ply sort, the rough search below: from 16 or 17 empties
/// 113.0 s and 104.7 s against 85.9 s from 18, from 19 70.5 s against 69.5 s.)
pub(super) const EVAL_SORT_DEEP: u32 = 20;

/// The plies of the ordering search from [`EVAL_SORT_DEEP`] empties: 3, one more from
/// [`EVAL_SORT_DEEPER`] empties and another from [`EVAL_SORT_DEEPEST`].
///
/// Why 3: 2 plies (3 from 22, 4 from 25) searched 1.79 G nodes in 77.9 s against 1.44 G in
/// 69.5 s, and 4 plies (5 from 22) 1.43 G nodes in 115.1 s. Later, 2 plies from 18 to 21 empties
/// took 0.91 of the time on FFO #40-#49 but 1.03 on the every-child solves of #40-#44, the
/// explorer's work, and 3 stayed (`docs/solver.md`, "Side by side with the peers").
pub(super) const EVAL_SORT_DEPTH: u32 = 3;

/// Empties from which the ordering search looks one ply deeper.
///
/// Why 22: with the fifth ply from 25, from 23 instead searched 1.40 G nodes but took 70.7 s
/// against 69.5 s. (From 21 was measured only without the fifth ply: 1.58 G nodes and 85.1 s
/// against 1.61 G and 85.9 s from 22.)
pub(super) const EVAL_SORT_DEEPER: u32 = 22;

/// Empties from which the ordering search looks one ply deeper again.
///
/// Why 25: from 24 instead 1.52 G nodes and 90.3 s, from 26 1.61 G and 79.7 s, against 1.44 G
/// and 69.5 s. A sixth ply from 27 empties, where Edax sorts deeper still, saves nothing on the
/// deep solves (one thread, nodes): FFO #53 (28 empties) 1,660 M → 1,815 M, #56 (29) 760 M →
/// 772 M.
pub(super) const EVAL_SORT_DEEPEST: u32 = 25;

/// What the fastest-first terms weigh in the key of a node sorted by the evaluation, in
/// 1/[`SCALE`](crate::eval::SCALE) of a disc, by board size (4x4, 6x6, 8x8): each reply left to
/// the opponent (corners counted twice) costs this much, and each of our discs anchored by a
/// corner (the corner and its two edge neighbours) gains as much. As Edax's `movelist_evaluate`
/// weighs mobility with its shallow search; before, these terms only broke ties.
///
/// From [`EVAL_SORT_DEEP`] empties; below it [`EVAL_SORT_NEAR_FASTEST`].
///
/// Why 32 on 6x6 until 2026-11-29 (and 16 on 8x8 until 2026-11-28; one thread, no store,
/// nodes): every child of `c2b2b3d2` solved one by one, 955.3 M with neither term, 896.8 M /
/// 843.7 M / 973.0 M with the replies alone at 16 / 32 / 64, **813.4 M** with both at 32 (both
/// at 64: 857.7 M; the potential mobility at 8 or 16 on top: worse); FFO #40-#49, 934.5 M with
/// neither, 909.0 M / 921.8 M / 917.8 M with the replies alone at 16 / 32 / 48, **905.4 M** with
/// both at 16 (both at 32: 926.9 M). The 6x6 evaluation is the rougher (fitted on 11,000 games),
/// so mobility is worth more beside it.
///
/// Why 48 on 8x8 (2026-11-28, version 7 of the weights, the one-ply sort below 20 empties): the
/// deep solves, whose nodes of 20 and more empties are many, gain more than FFO #40-#49 loses
/// (one thread, nodes, at 16 / 32 / 48): FFO #50 636.7 M / 615.9 M / 591.2 M, FFO #53 1,909.9 M /
/// 1,866.4 M / 1,819.5 M, FFO #40-#49 615.9 M / 640.9 M / 638.2 M (`docs/solver.md`, "Move
/// ordering by the evaluation").
///
/// Why 64 on 8x8 (2026-11-29, with the ordering search's sorted top plies and corners first,
/// one thread, nodes, at 48 / 56 / 64 / 80): FFO #50-#58 13,065 M / 12,864 M / **12,615 M** /
/// 13,252 M, FFO #40-#49 628.6 M / 618.2 M / **618.1 M** / 609.9 M. On two threads FFO #50-#59
/// took 403.6 s and 13.06 G nodes at 64 against 428.2 s and 13.54 G at 48 (one run each).
///
/// Why 40 on 6x6 (2026-11-29, every child of a dozen positions four plies in solved one by one,
/// `c2b4c5` + b2/d2/b6/d6, `c2b2b3` + d2/b4, `c2b4a5d2`, `c2b4b5d2`, `c2b4d5e4`, `c2b4e5d2`,
/// `c2b2a2c5` and `--------O-----OXX---OX---XO--------- X`; one thread, nodes, in sum at 24 / 32
/// / 40 / 48 / 56 / 64): 4,767 M / 4,631 M / **4,494 M** / 4,580 M / 4,558 M / 4,640 M; at 40
/// nine of the twelve took fewer nodes than at 32, two about as many, one 3% more.
pub(super) const EVAL_SORT_FASTEST: [i32; 3] = [0, 40, 64];

/// The same weight where the ordering search is [`EVAL_SORT_NEAR_DEPTH`] plies deep, below
/// [`EVAL_SORT_DEEP`] empties, on every board: near the end mobility decides more.
///
/// Why 48 (one thread, no store, nodes; FFO #40-#49 / the 6x6 child `c2b2b3d2e4`): 16 on 8x8 and
/// 32 on 6x6 (as higher up) 640.2 M / 125.6 M; 32 on both 629.3 M / 125.6 M; 48 624.0 M /
/// 124.6 M; 64 619.3 M / 123.7 M, the same time within the noise. At 48 from 18 empties as well
/// on 8x8: 634.5 M; 32 there: 640.3 M.
///
/// Why 64 since 2026-11-29 (with [`EVAL_SORT_FASTEST`] at 64 on 8x8; one thread, nodes, 48
/// against 64): FFO #40-#49 618.1 M / 612.5 M (56: 613.1 M, 80: 613.3 M), FFO #50-#58 12,614.7 M /
/// 12,373.5 M (fewer on each of the nine), every child of the 6x6 positions `c2b2b3d2`,
/// `c2b4c5d2` and `--------O-----OXX---OX---XO--------- X` 1,430.6 M / 1,402.3 M (fewer on each).
/// On two threads FFO #50-#59 took 396.3 s at 64 against 403.2 s at 48 (one run each).
pub(super) const EVAL_SORT_NEAR_FASTEST: i32 = 64;

/// How far below the node's alpha, in discs, the ordering search still tells children apart
/// (`ordering.rs`): each child is searched with the window (-inf, alpha - this) from the node's
/// side, so a child worse than that is cut early and ranked by its bound, as Edax's
/// `SORT_ALPHA_DELTA` (8) does.
///
/// Why 8 (one thread, no store; the machine's noise is a few percent): FFO #40-#49, 905.0 M
/// nodes with the full window against 911.3 M, in a median 0.95 of the time over three pairs run
/// alternately (0.93-1.01); every child of the 6x6 position `c2b2b3d2`, 814.5 M nodes and 77.2 s
/// with the full window, 818.1 M and 70.0 s at 8 (4: 818.8 M, 73.8 s; 12: 816.5 M, 72.0 s).
pub(super) const EVAL_SORT_WINDOW: i32 = 8;
/// Plies left from which a node of the ordering search (`ordering.rs`,
/// `Searcher::eval_search`) sorts its moves by the evaluation of each child, best for it first;
/// below, it tries them corners first ([`corner_groups`](super::masks::corner_groups)). The
/// ordering searches of three plies and more (from [`EVAL_SORT_DEEP`] empties) reach it at their
/// top.
///
/// Why 3 (2026-11-28): on FFO #58 (30 empties, one thread), where the ordering searches took 46%
/// of the time (a profile), they evaluated 344.7 M leaves unsorted, 259.7 M from 3 plies left
/// (the sort's own evaluations counted), 279.2 M from 4 and 318.1 M from 2; the time 49.8 s →
/// 42.2 s from 3 (two pairs, whole process). Sorting by the replies alone at 2 plies left
/// under it cut the leaves to 234.8 M but not the time. FFO #50-#59 on two threads 364.3 s →
/// 334.1 s (one run each, with the 6x6 passes of [`SELECTIVE_PASSES`]); FFO #40-#49 on one thread,
/// whose sorts are mostly three plies, 619.1 M nodes against 614.8 M and a median 1.02 of the
/// time (3 pairs). A small table of the ordering search's own (Edax's shallow table), tried at 2
/// and 3 plies left: the same time on #58.
pub(super) const EVAL_SORT_INNER_DEPTH: u32 = 3;

// The estimate search.

/// Plies left from which an estimate node sorts its moves by the evaluation of each child
/// (`ordering.rs`). Below it the fewest replies alone order them: evaluating every child of a
/// node two, three or four plies above the leaves cost more time than the nodes it saved
/// (`docs/eval.md`, "Speed").
pub(super) const SORT_BY_EVAL_DEPTH: u32 = 5;

/// How many more empties than plies left a node of the estimate search may have and still be
/// solved exactly instead (`midgame.rs`). A position with `n` empties is solved by its estimate of
/// depth `n - EXACT_MARGIN` and deeper.
///
/// Why 6: an 8x8 leaf with 6 empties is solved in about a hundred nodes, a few microseconds, and
/// the evaluation is off by about 5 discs there (`docs/eval.md`). On the 200 positions of
/// `tests/data/estimates-14-20.obf` at depth 10, a margin of 6 solves the 69 with 14-16 empties
/// and roughly doubles the nodes; the 131 with 17-20 empties are searched as before
/// (`docs/eval.md`, "Measures").
pub const EXACT_MARGIN: u32 = 6;

/// How many more empties than the depth of the estimate a principal-variation node of it may have
/// and be solved exactly (`midgame.rs` and [`pv_solved`](super::pv_solved)).
///
/// Why 2: measured at depths 9 to 14 on the three estimate sets of `tests/data`
/// (`docs/eval.md`, "The principal variation solved to the end"), 2 finds more best moves in less
/// time than the plain search one ply deeper, where 1 gains less and 3 costs more than it gains.
pub const PV_EXTENSION: u32 = 2;

/// The most empties a principal-variation node solved by the extension may have: 16, reached at
/// depth 14, the deepest the rule was measured at (its cost there was still 1.4 times the plain
/// search's), and Edax's cap too. The rule is not extrapolated beyond.
pub const PV_EXTENSION_MAX: u32 = 16;

/// Half the width of the aspiration window around a child's previous estimate at the root, in
/// discs (`root.rs`).
///
/// Why 4: for the estimates it barely matters (depth 12: 17,338,755 nodes, against 17,315,337
/// with the full window and 17,771,641 with 2); for a child the margin hands to the exact search,
/// a window around its last estimate searched 4.7% and 2.4% fewer nodes than the full window on
/// the positions with 14-16 empties of `estimates-14-20` and its held-out set at depth 10
/// (`docs/solver.md`, "The estimate search" and "Iterative deepening at the root").
pub(super) const ASPIRATION: i32 = 4;

// The selective search (`probcut.rs`).

/// The selectivity the front ends estimate with unless told otherwise (the command line's
/// `--selectivity`, the explorer's start): see `docs/probcut.md` for the measures behind it.
pub const DEFAULT_SELECTIVITY: super::Selectivity = super::Selectivity::from_level(2);

/// Plies left from which a null-window node of the estimate search tries a probable cutoff
/// (shallow depth 1). No measurement of another value is recorded.
pub(super) const PROBCUT_MIN_DEPTH: u32 = 3;

/// Empties from which a null-window node of the exact search tries a probable cutoff at a
/// selectivity below 100% (the passes of iterative selectivity, and the exact nodes of a
/// selective estimate). Below 14 the shallow search would be handed to the exact search itself
/// (`probcut.rs`). On FFO #40-#49 (one thread, passes at 95%), from 20 empties the passes and
/// the proof took 2.18 G nodes, from 16 1.09 G, from 14 1.01 G.
pub(super) const PROBCUT_END_MIN: u32 = 14;

/// Empties from which the exact solver reaches its proof by iterative selectivity, per board
/// (4x4, 6x6, 8x8; `probcut.rs`, [`Searcher::solve_window`](super::searcher::Searcher)). On FFO
/// #40-#49, from 18 instead of 22 empties: 1.02 G nodes against 1.01 G.
pub(super) const ITERATE_FROM: [u32; 3] = [u32::MAX, 20, 22];

/// The selective passes before the full-width one, as levels of
/// [`Selectivity`](super::selectivity::Selectivity) (0: 73% … 4: 99%). On FFO #40-#49 (one thread):
/// no passes 1.22 G nodes; every level 73% to 99% 1.16 G; 73%, 95% and 99% 1.09 G; 95% alone
/// 1.01 G; 87% and 98% 0.94 G; 73% and 95% 0.91 G. On the deep solves the same two stay best
/// (one thread, FFO #50 / #53, 26 / 28 empties, other passes from 26 empties): 1,001 M / 1,660 M
/// nodes; 73-87-95-98% 1,027 M / 2,065 M; 73-95-98% 1,032 M / 1,933 M; 73-87-95% 1,002 M /
/// 1,856 M; 95% alone 1,012 M / 2,775 M.
///
/// Per board (4x4, 6x6, 8x8). On 8x8, 73% and 87% since 2026-11-28 (version 7 of the weights,
/// the proven bounds kept): one thread, 73%-95% against 73%-87%, FFO #40-#49 638.2 M → 618.4 M
/// nodes, FFO #50, #53, #57, #58 3,953 M → 3,827 M, FFO #55 6,468 M → 6,040 M (73% alone
/// 7,424 M). On 6x6 73%-87% cost more (the child `c2b2b3d2e4` 131.3 M → 150.9 M), and 6x6 kept
/// 73% and 95% until 73% alone was measured by time (below).
///
/// On 6x6, once the ordering searches had become cheaper (corners first, then sorted high up;
/// [`EVAL_SORT_INNER_DEPTH`]), the passes were measured again by time (one thread, no store,
/// other work on the machine): every child of six positions four plies in (`c2b4c5` +
/// b2/d2/b6/d6, `c2b2b3` + d2/b4) 2,289.4 M nodes and 115.1 s with 73% and 95%, 2,217.3 M and
/// 107.4 s with 73% alone (each of the six faster); the nine children of `c2b2b3d2` one by one
/// 26.2 s with 73% and 95%, 24.1 s with 73%, 29.5 s with 87%, 27.3 s with no pass. On two
/// threads, every child of `c2b2b3d2` with both changes: 15.4-16.8 s → 14.0-14.4 s (3 pairs).
pub(super) const SELECTIVE_PASSES: [&[u8]; 3] = [&[0, 2], &[0], &[0, 1]];

/// How near the end of the game the analysis's estimates go before they search to the end
/// instead, selectively (`analysis.rs`, `Solver::climb`): at the depth whose estimate would leave
/// at most this many empties below its last ply, the children are searched by the exact search at
/// 73%, then at each selectivity up to the options', then proven. Edax switches at the same
/// point (its `ITERATIVE_MIN_EMPTIES`, 10).
pub(super) const END_ESTIMATE_MARGIN: u32 = 10;

/// The share of the predicted cost of an exact solve of every child
/// ([`predicted_exact_nodes`](super::prediction::predicted_exact_nodes)) that the first pass of the
/// estimates to the end (every child searched to the end at 73%) is assumed to take, to decide
/// whether it fits a time or node limit. Measured on one thread: 0.02-0.04 of it on FFO #43 and
/// #44 (23 empties), 0.12 on FFO #45 and 0.43 on a self-play position of 24 empties: the
/// largest share seen, rounded down.
pub(super) const END_PASS_SHARE: f64 = 0.4;

/// The share of what is left of a time or node limit that a limited analysis may spend trying
/// the first pass to the end (73%) on its best child alone, where the pass over every child is not
/// predicted to fit ([`END_PASS_SHARE`]) but the estimates have come within
/// [`END_ESTIMATE_MARGIN`] of the end (`analysis.rs`, `Solver::try_end`); once it runs out, the
/// deepening goes on. Measured at one second a position, one thread (`docs/solver.md`, "A
/// bounded try of the pass to the end"): FFO #40-#59 mean error 1.70-1.80 → 1.35-1.60, the
/// held-out `estimates-24-30` 1.64 → 1.33-1.43, the best moves as many or more.
pub(super) const TRY_END_SHARE: f64 = 0.5;

/// The depth of the 73% estimate whose value gives the first selective pass its window. Without
/// it, FFO #59 (a wipe-out) took 58.7 M nodes; with depth 10, 31.4 M.
pub(super) const SOLVE_GUESS_DEPTH: u32 = 10;

/// The first step of the windows of a pass or proof that failed (`probcut.rs`,
/// `Searcher::stepped`): after failing low with the bound `v`, the next window is (`v - step`,
/// `v + 1`), after failing high (`v - 1`, `v + step`), the step doubling each time.
///
/// Why 2 (2026-11-30, one thread, nodes; before, a failed window opened to the edge of the
/// board's range at once): every child of the 6x6 position `c2b4e5d2` solved one by one, 706.5 M
/// with the window opened to the edge, 685.1 M / **670.2 M** / 698.2 M / 702.0 M with a first
/// step of 1 / 2 / 4 / 8 (with the odd guesses' wider first window, `Searcher::proof_near`).
pub(super) const PROOF_STEP: i32 = 2;

/// The searches a selective pass makes at most before its value is taken as it is (`probcut.rs`,
/// `Searcher::stepped`): its bounds are not proofs, so the steps need not end.
///
/// Why 3 (the same measure as [`PROOF_STEP`]): 673.1 M nodes with 2, 670.2 M with 3 or 5; no
/// pass searches again at all after failing (the proof alone steps): 813.9 M.
pub(super) const SELECTIVE_TRIES: u32 = 3;

/// The first depth of the full-width estimates that try to prove a won-by-everything guess
/// before the selective passes (`probcut.rs`, `Searcher::extreme_proof`), and the step between
/// depths, up to half the empties. FFO #59 (34 empties, +64 by a wipe-out), one thread: the
/// passes alone took 68.0 M nodes; estimates of depths 10, 12, 14, 16 then 9.5 M (depth 16
/// proves it); 16 alone 6.75 M; 12 and 16 7.06 M; 8, 12 and 16 6.87 M.
pub(super) const EXTREME_FIRST_DEPTH: u32 = 8;

/// See [`EXTREME_FIRST_DEPTH`].
pub(super) const EXTREME_DEPTH_STEP: u32 = 4;

// Threads and stopping.

/// Empties from which null-window nodes are split between threads (`parallel.rs`). Chosen with
/// the split points (FFO #40-#49 on two threads 1.81 times as fast as one, `docs/solver.md`,
/// "Side by side with the peers"). From 8, 12 or 14 instead (2026-11-29, every child of 6x6
/// `c2b2b3d2` on two threads, two rounds): within the machine's noise (`docs/solver.md`, "Where a
/// deep proof's work goes, and four more tries, one kept"); and again once a node splits only
/// when the last offer was taken (FFO #50-#52 on two threads, two rounds; `docs/solver.md`,
/// "Threads").
pub(super) const SPLIT_NWS: u32 = 10;

/// Plies left from which null-window nodes of the estimate search are split between threads, as
/// the exact search's are from [`SPLIT_NWS`] empties. Before, estimates did not split: a position
/// whose children are all twins (the starts) was estimated on one thread. The 8x8 start to depth
/// 26 at 95%, two threads, one run each: not split 5.79 s, from 6 plies 2.77 s, from 10 3.22 s;
/// the 101 positions of `estimates-24-30` to depth 12 (many children each, both threads busy
/// anyway): 15.4 s, 14.0 s, 13.9 s.
pub(super) const SPLIT_ESTIMATE: u32 = 6;

/// The stack of each search thread: a search 60 plies deep, with split points and the work a
/// waiting thread takes from others on top of each other (`mod.rs`). No measurement is recorded.
pub(super) const THREAD_STACK: usize = 32 << 20;

/// Nodes between two looks at the stop flag and the limits (`search.rs`): a stop is seen a
/// fraction of a millisecond after it is asked for at the exact search's 10 to 40 M nodes per
/// second. No measurement of another value is recorded.
pub(super) const CHECK_EVERY: u64 = 4096;

// The table.

/// The default size of the transposition table, in MiB ([`SolverOptions`](super::SolverOptions)).
///
/// Why 256: the size the peers are given when they are compared. A smaller table was faster on
/// the every-child solve of FFO #43 (16 MiB 12.7 s, 64 MiB 12.8 s, 256 MiB 13.6 s, one run each;
/// `docs/solver.md`, "What each technique bought"). The process holds the table and a few MB
/// more (265 MB at 256 MiB, solving `fforum-1-19` on two threads).
pub const DEFAULT_HASH_MB: usize = 256;

/// The table's size, in MiB, for a search of one position or one game of a board: 256
/// ([`DEFAULT_HASH_MB`]) on 8x8, 64 on 6x6 and 16 on 4x4. The commands that search one position
/// or game (`solve`, `review`, `bench`) use it unless `--hash-mb` is given; the explorer, the
/// protocols and `book`, which go from position to position and may change board, keep 256.
///
/// Why less on the small boards: their trees fit. Every child of the dozen 6x6 positions four
/// plies in and the whole 6x6 game took the same nodes with 64 MiB as with 256 (within 0.3%), and
/// a table the search fills at random touches all of its memory, which the system must supply
/// first: on a virtual machine that hands freed memory back to its host, 0.7 s of system time a
/// process for 256 MiB, against 0.04 s for 64 (`docs/solver.md`, "The table sized to the board").
pub const fn hash_mb_for(size: crate::board::size::Size) -> usize {
    match size {
        crate::board::size::Size::Four => 16,
        crate::board::size::Size::Six => 64,
        crate::board::size::Size::Eight => DEFAULT_HASH_MB,
    }
}

// The auto policy (`analysis.rs`).

/// The depth to which [`SearchMode::Auto`](super::SearchMode::Auto) estimates before it considers
/// proofs: a few milliseconds on any 8x8 position.
pub const QUICK_DEPTH: u32 = 6;

/// The predicted nodes up to which [`SearchMode::Auto`](super::SearchMode::Auto) proves the
/// children when it has no time or node limit: about 15 seconds on one thread for a typical
/// position.
pub const UNLIMITED_PROOF_NODES: f64 = 3.0e8;

/// A win/loss/draw proof is about this many times cheaper than the exact score (the median ratio
/// of nodes on FFO #40-#49; 1.5 for the draw, #41, up to 146).
pub const WLD_SPEEDUP: f64 = 5.0;

/// Empties from which a win/loss/draw proof is worth running before the exact one. Below it the
/// exact proof is cheap itself (solving every child of an 8x8 position with 14 empties took a
/// median of 0.27 M nodes, `docs/solver.md`, "The auto policy"); no measurement of another value
/// is recorded.
pub const WLD_MIN_EMPTIES: u32 = 14;

/// Nodes per second assumed per thread when a time limit is weighed against a proof: the lower
/// end of what the every-child solves ran at when the cost model was refitted (8x8 FFO #40-#44:
/// 25.5 M; 6x6 at 26 empties: 24 M; two solves at once on the two cores: 18 M; `docs/solver.md`,
/// "The auto policy").
pub(super) const NODES_PER_SECOND: f64 = 20.0e6;

/// A proof is attempted when its predicted cost is at most this share of what is left: the
/// prediction is a median, and hard positions take several times more
/// ([`predicted_exact_nodes`](super::predicted_exact_nodes)). No measurement of another value is
/// recorded.
pub(super) const BUDGET_SHARE: f64 = 0.25;
