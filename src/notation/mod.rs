//! The second floor: positions and games as text and files. Board strings and OBF problem lines,
//! transcripts (`f5d6c3`), the rules for reading a file a user names (regular files of bounded
//! size) and for writing one (a regular file or nothing, never a device), game files (GGF, WTHOR, transcript files), the named 8x8 openings and the files' checksum.

pub mod checksum;
pub mod gamefile;
pub mod obf;
pub mod opening;
pub mod printable;
pub mod textfile;
pub mod transcript;
pub mod writefile;
