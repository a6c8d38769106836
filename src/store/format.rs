//! The two numbers the store's file and its errors share: the format version and how long a
//! write waits for another program's. The bottom floor of `store/`: it imports nothing of it.

use std::time::Duration;

/// The version of the file layout this program writes and reads: 2, SQLite (1 was redb, converted
/// on first use).
pub const FORMAT_VERSION: u32 = 2;

/// How long a write waits for another program's write to end. A write transaction holds the lock
/// for milliseconds (at most `IMPORT_CHUNK` (`db.rs`) entries), so only a program stopped in the middle of
/// one (`kill -STOP`, a debugger) makes another wait this long.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(10);
