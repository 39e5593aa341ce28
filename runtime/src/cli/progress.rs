//! Progress of the long steps: a bar (or a spinner when the amount of work is
//! unknown) on a terminal, else one line on stderr when the step starts.
//!
//! Only steps that can take more than about two seconds announce themselves
//! off a terminal; the caller decides that from the sizes involved (`long`).

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// What a step counts.
#[derive(Clone, Copy)]
pub enum Unit {
    /// Nothing countable: a spinner with the elapsed time.
    None,
    Bytes,
    Items,
}

/// A running step; cleared from the terminal when finished or dropped.
pub struct Step {
    bar: ProgressBar,
}

impl Step {
    /// Starts a step of `len` units described by `msg` ("reading a.txt").
    pub fn start(msg: impl Into<String>, len: u64, unit: Unit, long: bool) -> Step {
        let msg = msg.into();
        if !std::io::stderr().is_terminal() {
            if long {
                eprintln!("srgfn: {msg} …");
            }
            return Step { bar: ProgressBar::hidden() };
        }
        let template = match unit {
            Unit::None => "{spinner} {msg} {elapsed}",
            Unit::Bytes => "{msg} {bar:30} {bytes}/{total_bytes} {elapsed} (eta {eta})",
            Unit::Items => "{msg} {bar:30} {pos}/{len} {elapsed} (eta {eta})",
        };
        let bar = if matches!(unit, Unit::None) { ProgressBar::new_spinner() } else { ProgressBar::new(len) };
        bar.set_style(ProgressStyle::with_template(template).expect("valid template"));
        bar.set_message(msg);
        bar.enable_steady_tick(Duration::from_millis(120));
        Step { bar }
    }

    /// A spinner for a step of unknown length.
    pub fn spinner(msg: impl Into<String>, long: bool) -> Step {
        Self::start(msg, 0, Unit::None, long)
    }

    /// Counts `n` more units done (safe from any thread).
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
    }

    /// Replaces the message shown beside the bar.
    pub fn set_message(&self, msg: impl Into<String>) {
        self.bar.set_message(msg.into());
    }

    /// Prints a line on stderr above the bar (or plainly off a terminal).
    pub fn println(&self, line: impl AsRef<str>) {
        if self.bar.is_hidden() {
            eprintln!("{}", line.as_ref());
        } else {
            self.bar.println(line);
        }
    }

    /// A callback for library functions that report their progress.
    pub fn counter(&self) -> impl Fn(u64) + Sync + '_ {
        move |n| self.bar.inc(n)
    }
}

impl Drop for Step {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}
