//! The fourth floor, above the solver: what the project studies with it. The search lab (plain
//! negamax, alpha-beta, proof-number search side by side), reachability of a board from the
//! start, the shortest games, the finished drawn boards, judging the moves of a game (`review`),
//! and the teaching traces of the bitboard techniques.

pub mod finals;
pub mod lab;
pub mod reach;
pub mod review;
pub mod shortest;
pub mod trace;
