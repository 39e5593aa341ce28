//! What `fft` and `polymul` report: wall-clock phases, the one-line summary
//! on stderr, and the `--json FILE` object.

use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Result};
use serde_json::{json, Value};
use srgfn::io::write_atomic;

/// Consecutive wall-clock phases of a command, in order.
pub struct Phases {
    start: Instant,
    last: Instant,
    list: Vec<(&'static str, f64)>,
}

impl Phases {
    pub fn start() -> Phases {
        let now = Instant::now();
        Phases { start: now, last: now, list: Vec::new() }
    }

    /// Records the time since the previous mark as phase `name`; returns it in ms.
    pub fn mark(&mut self, name: &'static str) -> f64 {
        let now = Instant::now();
        let ms = (now - self.last).as_secs_f64() * 1e3;
        self.last = now;
        self.list.push((name, ms));
        ms
    }

    pub fn total_ms(&self) -> f64 {
        self.start.elapsed().as_secs_f64() * 1e3
    }

    /// `[{"phase": name, "ms": t}, …]` in order.
    pub fn json(&self) -> Value {
        self.list.iter().map(|(name, ms)| json!({ "phase": name, "ms": round3(*ms) })).collect()
    }

    /// "read 12.0 ms, device 80.1 ms, …" in order.
    pub fn summary(&self) -> String {
        self.list.iter().map(|(name, ms)| format!("{name} {}", fmt_ms(*ms))).collect::<Vec<_>>().join(", ")
    }
}

/// Milliseconds with three decimals (JSON keeps what is measured, not float noise).
pub fn round3(ms: f64) -> f64 {
    (ms * 1e3).round() / 1e3
}

/// "0.412 ms", "12.3 ms", "1234 ms": three significant digits or more.
pub fn fmt_ms(ms: f64) -> String {
    match ms {
        m if m < 1.0 => format!("{m:.3} ms"),
        m if m < 100.0 => format!("{m:.1} ms"),
        m => format!("{m:.0} ms"),
    }
}

/// Where `--json` goes: a file, or standard output for `-` (only when the
/// result itself goes to a file).
pub fn check_json_target(json: Option<&Path>, output: Option<&Path>) -> Result<()> {
    if json == Some(Path::new("-")) && output.is_none() {
        bail!("--json - prints to standard output, which carries the result: give --output FILE as well, or --json FILE");
    }
    Ok(())
}

/// Ends `fft` or `polymul`: adds the phases, the total and the `--verify`
/// result to the command's own `fields`, writes them to `--json` when given,
/// and fails with `failure` when the verification failed.
pub fn conclude(json: Option<&Path>, mut fields: Value, phases: &Phases, open_ms: f64, verified: Option<bool>, failure: &str) -> Result<()> {
    if let Some(path) = json {
        let object = fields.as_object_mut().expect("fields are a JSON object");
        object.insert("device_open_ms".into(), json!(round3(open_ms)));
        object.insert("phases".into(), phases.json());
        object.insert("total_ms".into(), json!(round3(phases.total_ms())));
        object.insert("verified".into(), json!(verified));
        write_json(path, &fields)?;
    }
    if verified == Some(false) {
        bail!("verification failed: {failure}; the result is wrong");
    }
    Ok(())
}

fn write_json(path: &Path, value: &Value) -> Result<()> {
    let text = serde_json::to_string_pretty(value)? + "\n";
    if path == Path::new("-") {
        print!("{text}");
        Ok(())
    } else {
        write_atomic(path, text.as_bytes())
    }
}
