//! What a command prints: a report value that is written as text (`Display`) or as JSON (serde),
//! so the two cannot disagree, and the one table printer the text forms use.

use super::common::outln;
use serde::Serialize;
use std::fmt::{self, Display, Write as _};

/// A command's result: its text form and its JSON form are two views of one value.
pub trait Report: Display + Serialize {
    /// Prints the report to standard output: JSON on one line, or the text.
    fn print(&self, json: bool) {
        if json {
            print_json(self);
        } else {
            super::common::out!("{self}");
        }
    }
}

/// Prints `value` as JSON on one line (a report whose text streams out as it is made, such as
/// `bench`'s rows, prints its JSON form this way at the end).
pub fn print_json<T: Serialize + ?Sized>(value: &T) {
    match serde_json::to_string(value) {
        Ok(text) => outln!("{text}"),
        Err(e) => eprintln!("othello-explorer: the report could not be written as JSON: {e}"),
    }
}

impl<T: Display + Serialize> Report for T {}

/// A column's alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A column: the text before it, its width (a wider cell is not cut) and its alignment.
pub type Column = (&'static str, usize, Align);

/// A table of text: lines as they are (a header) and rows of cells laid out by the columns.
pub struct Table {
    columns: Vec<Column>,
    lines: Vec<String>,
}

impl Table {
    /// A table with these columns.
    pub fn new(columns: &[Column]) -> Table {
        Table { columns: columns.to_vec(), lines: Vec::new() }
    }

    /// Adds a line of cells, one per column (missing cells are empty); a row ends with its last
    /// character, never with the padding of empty cells.
    pub fn row<S: AsRef<str>>(&mut self, cells: &[S]) {
        let mut line = String::new();
        for (i, &(before, width, align)) in self.columns.iter().enumerate() {
            let cell = cells.get(i).map_or("", |c| c.as_ref());
            line.push_str(before);
            let _ = match align {
                Align::Left => write!(line, "{cell:<width$}"),
                Align::Right => write!(line, "{cell:>width$}"),
            };
        }
        line.truncate(line.trim_end().len());
        self.lines.push(line);
    }

    /// Adds a line as it is (a header, a rule).
    pub fn line(&mut self, text: impl Into<String>) {
        self.lines.push(text.into());
    }
}

impl Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for line in &self.lines {
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}
