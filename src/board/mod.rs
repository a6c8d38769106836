//! The first floor: the board and its rules. Board sizes and their masks, squares, the set of
//! squares (`Bitboard`), directions and rays, legal moves and flips on raw bitboards (the plain
//! kernels and the vector ones), the instruction-set levels they run at, the checked `Position`,
//! symmetries and the canonical key, perft, stable discs, and the concepts players reason with
//! (frontier, regions, corners) as masks. Everything above builds on this and nothing here
//! knows of search, files or terminals.

pub mod bitboard;
pub mod concepts;
pub mod geometry;
pub mod isa;
pub mod perft;
pub mod position;
pub mod rules;
pub mod size;
pub mod square;
pub mod stability;
pub mod symmetry;
