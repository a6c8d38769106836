//! Driving the real binary in a detached tmux server of its own (a socket per test), for the
//! end-to-end tests: send keys, capture the pane, wait for text by polling (never a fixed sleep).

#![allow(dead_code)]

use std::process::{Command, Output};
use std::time::{Duration, Instant};

pub struct Tmux {
    pub socket: String,
}

impl Tmux {
    /// Starts `command` in a 120x40 window `t` of this server.
    pub fn start(&self, command: &str) {
        self.start_sized(command, 120, 40);
    }

    /// Starts `command` in a window `t` of `width` x `height`.
    pub fn start_sized(&self, command: &str, width: u16, height: u16) {
        let (w, h) = (width.to_string(), height.to_string());
        let started = self.run(&["-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", &w, "-y", &h, command]);
        assert!(started.status.success(), "{}", String::from_utf8_lossy(&started.stderr));
    }

    /// Waits until the pane has exited (the program was `exec`ed as its command).
    pub fn wait_gone(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.run(&["has-session", "-t", "t"]).status.success() {
            assert!(Instant::now() < deadline, "the program did not quit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux").arg("-L").arg(&self.socket).args(args).output().expect("tmux runs")
    }

    pub fn capture(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "t"]).stdout).into_owned()
    }

    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        assert!(self.run(&args).status.success());
    }

    pub fn display(&self, format: &str) -> String {
        String::from_utf8_lossy(&self.run(&["display-message", "-p", "-t", "t", format]).stdout).trim().to_string()
    }

    /// Polls the pane until `pred` holds, failing with the screen after `timeout`.
    pub fn wait_for(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let screen = self.capture();
            if pred(&screen) {
                return screen;
            }
            if Instant::now() > deadline {
                panic!("timed out waiting for {what}; the screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn wait_text(&self, text: &str) -> String {
        self.wait_for(text, |s| s.contains(text))
    }

    /// Polls until every one of `texts` is on the screen at once. A test that asserts on more
    /// than the text it waited for waits for all of it: a capture can fall between two writes
    /// of one frame (the header drawn, the status line not yet).
    pub fn wait_all(&self, texts: &[&str]) -> String {
        self.wait_for(&texts.join(" and "), |s| texts.iter().all(|t| s.contains(t)))
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

/// The digits right after the last `key` on the screen, as a shell's `echo KEY=$x` prints them.
/// Not only at a line's start: when keys arrive before the shell has drawn its prompt, the
/// prompt lands in front of the output (`# RPID=23914`). The typed command's own `KEY=$x` has
/// no digit after the key, so it never matches.
pub fn number_after(screen: &str, key: &str) -> Option<String> {
    screen.rmatch_indices(key).find_map(|(at, _)| {
        let digits: String = screen[at + key.len()..].chars().take_while(char::is_ascii_digit).collect();
        (!digits.is_empty()).then_some(digits)
    })
}

pub fn tmux_available() -> bool {
    Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success())
}
