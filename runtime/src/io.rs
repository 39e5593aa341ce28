//! Element files: text (one element per line, decimal or 0x-hex, `#` comments)
//! and binary (little-endian digit vectors, k words per element); atomic writes.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

use anyhow::{anyhow, bail, Context as _, Result};
use num_bigint::BigUint;
use srgfn_gen::{Digits, Field};

/// Longest accepted text line (an 8192-bit element has under 2500 digits).
pub const MAX_LINE: usize = 1 << 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One element per line, decimal or 0x-hex; `#` starts a comment.
    Text,
    /// Little-endian 64-bit digits, k per element, least significant first.
    Bin,
}

/// Parses one value written in decimal or 0x-hex.
pub fn parse_value(s: &str) -> Option<BigUint> {
    let s = s.trim();
    let (digits, radix) = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => (h, 16),
        None => (s, 10),
    };
    if digits.is_empty() || !digits.bytes().all(|b| (b as char).is_digit(radix)) {
        return None;
    }
    BigUint::parse_bytes(digits.as_bytes(), radix)
}

/// Reads the elements of a text file; errors name the file and line.
pub fn read_text(path: &Path, field: &Field) -> Result<Vec<Digits>> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    read_text_from(BufReader::new(file), &path.display().to_string(), field)
}

pub fn read_text_from<R: BufRead>(mut reader: R, name: &str, field: &Field) -> Result<Vec<Digits>> {
    let mut out = Vec::new();
    let mut line = Vec::new();
    let mut lineno = 0usize;
    loop {
        line.clear();
        lineno += 1;
        // read at most MAX_LINE + 1 bytes of the line, so memory stays bounded
        let n = (&mut reader).take(MAX_LINE as u64 + 1).read_until(b'\n', &mut line)?;
        if n == 0 {
            break;
        }
        if line.len() > MAX_LINE && line.last() != Some(&b'\n') {
            bail!("{name}:{lineno}: line longer than {MAX_LINE} bytes");
        }
        let text = std::str::from_utf8(&line).map_err(|_| anyhow!("{name}:{lineno}: not UTF-8 text"))?;
        let text = text.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        let v = parse_value(text)
            .ok_or_else(|| anyhow!("{name}:{lineno}: cannot read '{}' as a decimal or 0x-hex integer", shorten(text)))?;
        let d = field
            .from_biguint(&v)
            .map_err(|_| anyhow!("{name}:{lineno}: value {} is not below p = {}", shorten(text), field.prime()))?;
        out.push(d);
    }
    if out.is_empty() {
        bail!("{name} contains no elements");
    }
    Ok(out)
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Reads a binary file of k little-endian words per element.
pub fn read_bin(path: &Path, field: &Field) -> Result<Vec<Digits>> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    parse_bin(&bytes, &path.display().to_string(), field)
}

/// Parses k little-endian words per element; every element is validated.
pub fn parse_bin(bytes: &[u8], name: &str, field: &Field) -> Result<Vec<Digits>> {
    let k = field.k();
    if bytes.is_empty() {
        bail!("{name} contains no elements");
    }
    if !bytes.len().is_multiple_of(8 * k) {
        bail!("{name}: {} bytes is not a whole number of elements ({} bytes each: k = {k} words)", bytes.len(), 8 * k);
    }
    bytes
        .chunks(8 * k)
        .enumerate()
        .map(|(i, c)| {
            let d: Digits = c.chunks(8).map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes"))).collect();
            field.validate(&d).map_err(|e| anyhow!("{name}: element {i}: {e}"))?;
            Ok(d)
        })
        .collect()
}

pub fn read_elements(path: &Path, field: &Field, format: Format) -> Result<Vec<Digits>> {
    match format {
        Format::Text => read_text(path, field),
        Format::Bin => read_bin(path, field),
    }
}

/// Serialises elements in a format.
pub fn encode(elems: &[Digits], field: &Field, format: Format) -> Result<Vec<u8>> {
    Ok(match format {
        Format::Text => {
            let mut s = String::with_capacity(elems.len() * 160);
            for e in elems {
                s.push_str(&field.to_biguint(e)?.to_string());
                s.push('\n');
            }
            s.into_bytes()
        }
        Format::Bin => elems.iter().flatten().flat_map(|w| w.to_le_bytes()).collect(),
    })
}

/// Writes `bytes` to `path` atomically (temporary file in the same folder, then rename),
/// so an interrupted run leaves no partial file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        bail!("cannot write {}: {e}", path.display());
    }
    Ok(())
}

/// Writes to a file atomically, or to standard output.
pub fn write_output(path: Option<&Path>, bytes: &[u8]) -> Result<()> {
    match path {
        Some(p) => write_atomic(p, bytes),
        None => {
            let mut out = std::io::stdout().lock();
            match out.write_all(bytes).and_then(|_| out.flush()) {
                // a closed pipe (`| head`) is the reader's choice, not an error
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                r => Ok(r?),
            }
        }
    }
}
