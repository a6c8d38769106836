//! A reader that goes away (`othello-explorer perft 10 | head -1`) ends the program quietly: no
//! panic, no message, success.

use std::io::Read;
use std::process::{Command, Stdio};

#[test]
fn a_closed_pipe_is_not_a_panic() {
    for args in [&["perft", "10"][..], &["show", "--size", "6"], &["explain", "legal"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_othello-explorer"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        // Read one byte, then close our end of the pipe while the program still writes.
        let mut stdout = child.stdout.take().expect("piped");
        let mut byte = [0u8; 1];
        stdout.read_exact(&mut byte).expect("some output");
        drop(stdout);
        let output = child.wait_with_output().expect("the binary ends");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(output.status.success() || output.status.code().is_none(), "{args:?}: {:?} {stderr}", output.status);
    }
}
