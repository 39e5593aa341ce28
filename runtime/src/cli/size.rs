//! The one syntax of every count and size option: `1048576`, `2^20`, or
//! `1M` (binary suffixes: K = 2^10, M = 2^20, G = 2^30).

use std::fmt;
use std::str::FromStr;

use anyhow::{bail, Result};
use num_bigint::BigUint;
use num_traits::ToPrimitive;

/// A count or size as written on the command line: value = mantissa · 2^shift.
#[derive(Clone, Debug)]
pub struct Size {
    text: String,
    mantissa: BigUint,
    shift: u32,
}

impl FromStr for Size {
    type Err = String;

    fn from_str(s: &str) -> Result<Size, String> {
        let text = s.trim();
        let bad = || format!("'{text}' is not a size: write it as 1048576, 2^20 or 1M");
        let digits = |d: &str, max_len: usize| !d.is_empty() && d.len() <= max_len && d.bytes().all(|b| b.is_ascii_digit());
        if let Some(e) = text.strip_prefix("2^") {
            // six digits bound the exponent far above any real size but keep it a u32
            if !digits(e, 6) {
                return Err(bad());
            }
            return Ok(Size { text: text.into(), mantissa: BigUint::from(1u32), shift: e.parse().map_err(|_| bad())? });
        }
        let (num, shift) = match text.char_indices().last() {
            Some((i, 'K' | 'k')) => (&text[..i], 10),
            Some((i, 'M' | 'm')) => (&text[..i], 20),
            Some((i, 'G' | 'g')) => (&text[..i], 30),
            _ => (text, 0),
        };
        // 2000 decimal digits is far beyond any size; the bound keeps parsing cheap
        if !digits(num, 2000) {
            return Err(bad());
        }
        Ok(Size { text: text.into(), mantissa: num.parse().map_err(|_| bad())?, shift })
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// `2^e (n)` for powers of two, else `n`: how limits are printed.
pub fn show(n: u64) -> String {
    if n.is_power_of_two() && n >= 1024 {
        format!("2^{} = {n}", n.trailing_zeros())
    } else {
        n.to_string()
    }
}

impl Size {
    /// The exponent e when the size is 2^e.
    pub fn log2(&self) -> Option<u32> {
        let tz = self.mantissa.trailing_zeros()?;
        (self.mantissa.bits() == tz + 1).then(|| tz as u32 + self.shift)
    }

    /// The exponent of a size that must be a power of two (`what` names it in errors).
    pub fn pow2(&self, what: &str) -> Result<u32> {
        match self.log2() {
            Some(e) => Ok(e),
            None => bail!("{what} = {self} is not a power of two"),
        }
    }

    /// The value as a count in `min ..= max` (`what` names the option in errors).
    pub fn count(&self, what: &str, min: u64, max: u64) -> Result<u64> {
        let value = if self.shift >= 64 { None } else { (&self.mantissa << self.shift).to_u64() };
        match value {
            Some(v) if v < min => bail!("{what} {self} is too small: at least {}", show(min)),
            Some(v) if v <= max => Ok(v),
            _ => bail!("{what} {self} is too large: at most {}", show(max)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(s: &str) -> Size {
        s.parse().unwrap()
    }

    #[test]
    fn every_form_gives_the_same_value() {
        for s in ["1048576", "2^20", "1M", "1m", "1024K", " 2^20 "] {
            assert_eq!(size(s).count("--count", 1, 1 << 30).unwrap(), 1 << 20, "{s}");
            assert_eq!(size(s).log2(), Some(20), "{s}");
        }
        assert_eq!(size("3K").count("--count", 1, 1 << 30).unwrap(), 3072);
        assert_eq!(size("3K").log2(), None);
        assert_eq!(size("1").log2(), Some(0));
        assert_eq!(size("0").log2(), None);
        assert_eq!(size("2^273").log2(), Some(273));
    }

    #[test]
    fn bad_sizes_are_refused_with_the_forms_or_the_limit() {
        for s in ["", "abc", "2^", "2^x", "-5", "1.5M", "1T", "2^1234567", "0x10"] {
            let err = s.parse::<Size>().unwrap_err();
            assert!(err.contains("2^20"), "{s}: {err}");
        }
        let err = size("2^40").count("--count", 1, 1 << 30).unwrap_err().to_string();
        assert_eq!(err, "--count 2^40 is too large: at most 2^30 = 1073741824");
        let err = size("2^100").count("--count", 1, 1 << 30).unwrap_err().to_string();
        assert!(err.contains("at most 2^30"), "{err}");
        let err = size("0").count("--count", 1, 1 << 30).unwrap_err().to_string();
        assert_eq!(err, "--count 0 is too small: at least 1");
        assert_eq!(size("24").pow2("N").unwrap_err().to_string(), "N = 24 is not a power of two");
    }
}
