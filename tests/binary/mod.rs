//! The binary under test, as every command-line test starts it: one place for its name and for
//! the `--no-store` that keeps a test off the user's store.

#![allow(dead_code)]

use assert_cmd::Command;

/// The `othello-explorer` binary that `cargo test` built.
pub fn bin() -> Command {
    Command::cargo_bin("othello-explorer").expect("the binary is built")
}

/// [`bin`] with `--no-store`: for the tests that must neither read nor write a store.
pub fn bin_no_store() -> Command {
    let mut command = bin();
    command.arg("--no-store");
    command
}
