//! Shard files: what every generator of training data shares.
//!
//! A run is split into `N` shards; item `g` of the run (a game, a position) belongs to shard
//! `g mod N` and depends only on the run's seed and `g`, so the items do not depend on how the run
//! is split. A shard file is a header line naming the run and the shard, then one line per item,
//! in order, each starting with its item index and flushed as soon as it is made. A shard started
//! again keeps the complete lines of its file and goes on from the next item, so an interruption
//! costs at most the item in progress; a file of another run is refused.

use std::io::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Parses `I/N` (1-based `I`) into (index, count).
pub fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("--shard {text:?}: expected I/N with 1 <= I <= N, like 2/4");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n == 0 || i == 0 || i > n {
        return Err(bad());
    }
    Ok((i - 1, n))
}

/// The item index a data line starts with.
pub fn line_index(line: &str) -> Option<u64> {
    line.split_whitespace().next()?.parse().ok()
}

/// Fills the shard file `path` (shard `index` of `count`, first line `header`) up to `target`
/// items: `make(g)` makes item `g`'s line (without the index and the newline), or `None` to stop
/// (an interruption). `valid` checks a line read back from an existing file.
pub fn fill(
    path: &Path,
    header: &str,
    (index, count): (u64, u64),
    target: u64,
    stop: &AtomicBool,
    valid: impl Fn(&str) -> bool,
    make: impl FnMut(u64) -> Option<String>,
) -> Result<u64, String> {
    fill_items(path, header, target, |done| index + done * count, stop, valid, make)
}

/// [`fill`] over any items: the shard holds `items` lines, the `done`-th of them item
/// `item(done)`.
pub fn fill_items(
    path: &Path,
    header: &str,
    items: u64,
    item: impl Fn(u64) -> u64,
    stop: &AtomicBool,
    valid: impl Fn(&str) -> bool,
    mut make: impl FnMut(u64) -> Option<String>,
) -> Result<u64, String> {
    let shown = path.display();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut done = 0u64;
    let mut kept = format!("{header}\n");
    if path.exists() {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
        let mut lines = text.split_inclusive('\n');
        if let Some(first) = lines.next()
            && first.trim_end() != header
        {
            return Err(format!("{shown}: line 1: written by another run ({}); expected {header}", first.trim_end()));
        }
        let total = text.lines().count();
        for (k, line) in lines.enumerate() {
            let expected = (done < items).then(|| item(done));
            if line.ends_with('\n') && expected.is_some() && line_index(line) == expected && valid(line.trim_end()) {
                kept.push_str(line);
                done += 1;
            } else if k + 2 == total {
                // The last line, cut short by an interruption: made again.
                break;
            } else {
                let expected = expected.map_or("no item".to_string(), |g| format!("not item {g}"));
                return Err(format!("{shown}: line {}: {expected} of this shard", k + 2));
            }
        }
    }
    std::fs::write(path, &kept).map_err(|e| format!("{shown}: {e}"))?;
    let mut file = std::fs::OpenOptions::new().append(true).open(path).map_err(|e| format!("{shown}: {e}"))?;
    let (began, first) = (Instant::now(), done);
    eprintln!("{shown}: {done} items already, going on to {items}");
    while done < items && !stop.load(Ordering::Relaxed) {
        let g = item(done);
        let Some(body) = make(g) else { break };
        let line = format!("{g} {body}\n");
        file.write_all(line.as_bytes()).and_then(|()| file.flush()).map_err(|e| format!("{shown}: {e}"))?;
        done += 1;
        if done.is_multiple_of(100) {
            let rate = (done - first) as f64 / began.elapsed().as_secs_f64();
            eprintln!("{shown}: {done} items ({rate:.2} per second)");
        }
    }
    eprintln!("{shown}: {done} items in the file");
    Ok(done)
}
