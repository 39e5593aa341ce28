//! Measured plan choices: every variant (and fusion) of a prime's forward
//! transform timed per size on the session's device, the fastest recorded
//! as [`crate::Wisdom`] (`srgfn tune`).  Every candidate computes the same
//! transform; only speed is compared.

use srgfn_gen::emit::{self, KernelOptions, Variant};
use srgfn_gen::rules::Radix;
use srgfn_gen::Prime;

use crate::error::{Error, Result};
use crate::fft::{Fft, FftOptions};
use crate::session::Session;
use crate::wisdom::{Choice, Wisdom, WisdomKey};

/// One way to run a plan: a variant, with or without two levels per launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The base-case variant.
    pub variant: Variant,
    /// Two levels per launch (the variant's fused kernel).
    pub fuse: bool,
}

impl Candidate {
    /// "local", "local fused", "table", …
    pub fn label(&self) -> String {
        format!("{}{}", self.variant.name(), if self.fuse { " fused" } else { "" })
    }
}

/// What one candidate took at one size.
#[derive(Clone, Debug)]
pub struct Timing {
    /// The candidate.
    pub candidate: Candidate,
    /// Its median time (ms), or why it did not run (it does not fit the device, …).
    pub ms: std::result::Result<f64, String>,
}

/// The candidates of one size, measured.
#[derive(Clone, Debug)]
pub struct SizeTimings {
    /// log2 N.
    pub log_n: u32,
    /// The candidates asked for, in [`candidates`] order (those not timed with the reason).
    pub timings: Vec<Timing>,
    /// The candidate a plan of this size runs without wisdom.
    pub default: Candidate,
    /// What the kernels were emitted for (radix, f_mul form, PTX): part of the wisdom's key.
    pub kernels: KernelOptions,
}

impl SizeTimings {
    /// The fastest candidate that ran, and its time.
    pub fn best(&self) -> Option<(Candidate, f64)> {
        self.timings.iter().filter_map(|t| t.ms.as_ref().ok().map(|&ms| (t.candidate, ms))).min_by(|a, b| a.1.total_cmp(&b.1))
    }
    /// The default candidate's time, if it ran.
    pub fn default_ms(&self) -> Option<f64> {
        self.timings.iter().find(|t| t.candidate == self.default).and_then(|t| t.ms.as_ref().ok().copied())
    }
    /// What [`record`] keeps: the fastest candidate where it beats the default
    /// by more than [`MIN_GAIN`], else the default, with its time and the
    /// default's; None where they did not both run.
    pub fn choice(&self) -> Option<(Candidate, f64, f64)> {
        let ((fastest, fastest_ms), default_ms) = (self.best()?, self.default_ms()?);
        Some(if fastest_ms < default_ms * (1.0 - MIN_GAIN) {
            (fastest, fastest_ms, default_ms)
        } else {
            (self.default, default_ms, default_ms)
        })
    }
}

/// Every way the prime's kernels of `radix` can run a plan: each variant the
/// prime has ([`emit::variants_for`]), and its fused form where it has one.
pub fn candidates(prime: &Prime, opts: &KernelOptions) -> Vec<Candidate> {
    let mut out = Vec::new();
    for variant in emit::variants_for(prime) {
        out.push(Candidate { variant, fuse: false });
        if emit::has_fused(prime, variant, opts) {
            out.push(Candidate { variant, fuse: true });
        }
    }
    out
}

/// Which candidates [`measure`] times besides the default (which it always times).
#[derive(Clone, Copy, Debug, Default)]
pub struct Selection<'a> {
    /// Only the candidates of these variants (empty: every variant's).
    pub only: &'a [Variant],
    /// The previous size's timings and a factor: a candidate that took more
    /// than factor × that size's fastest, or did not run there, is not timed
    /// (reported as pruned).  None, a factor of 0, or a previous size whose
    /// kernels had another radix ([`Fft::radix_for`]): every candidate is timed.
    pub after: Option<(&'a SizeTimings, f64)>,
}

/// The prefix of a [`Timing::ms`] error for a candidate [`Selection::after`] left out.
pub const PRUNED: &str = "pruned";

impl Selection<'_> {
    /// Why `c` (of kernels of `radix`) is not timed, if it is not; the default
    /// always is, and so is every candidate after a size of another radix.
    fn skip(&self, c: Candidate, default: Candidate, radix: Radix) -> Option<String> {
        if c == default {
            return None;
        }
        if !self.only.is_empty() && !self.only.contains(&c.variant) {
            return Some(String::new());
        }
        let (prev, factor) = self.after.filter(|&(p, f)| f > 0.0 && p.kernels.radix == radix)?;
        let (_, best) = prev.best()?;
        match &prev.timings.iter().find(|t| t.candidate == c)?.ms {
            Ok(ms) if *ms > factor * best => Some(format!("{PRUNED}: {:.1}× the fastest at 2^{}", ms / best, prev.log_n)),
            Ok(_) => None,
            Err(_) => Some(format!("{PRUNED}: not run at 2^{}", prev.log_n)),
        }
    }
}

/// Times the forward transforms of size 2^log_n (`reps` timed runs each
/// after 3 warm-up runs, data resident on the device) of the candidates
/// of [`candidates`] that `sel` keeps, the default in any case, with the
/// kernels of `radix`, else of the size's radix ([`Fft::radix_for`]).  A candidate
/// that cannot run (memory, …) or that `sel` prunes is reported with the
/// reason, not measured; other errors end the measurement.
pub fn measure(session: &Session, prime: &Prime, radix: Option<Radix>, log_n: u32, reps: usize, sel: Selection) -> Result<SizeTimings> {
    let plain = session.clone().with_wisdom(Wisdom::empty());
    let default_fft = Fft::with_options(&plain, prime, FftOptions { radix, ..FftOptions::default() })?;
    let variant = default_fft.variant_for(log_n);
    // the size's radix where none was given (Fft::radix_for): the kernels its wisdom applies to
    let kopts = default_fft.kernel_options_for(log_n);
    let radix = kopts.radix;
    let default = Candidate { variant, fuse: emit::plan_fuses(prime, variant, &kopts, None, log_n) };
    let mut timings = Vec::new();
    for candidate in candidates(prime, &kopts) {
        match sel.skip(candidate, default, radix) {
            Some(why) if why.is_empty() => continue,
            Some(why) => {
                timings.push(Timing { candidate, ms: Err(why) });
                continue;
            }
            None => {}
        }
        let opts = FftOptions { radix: Some(radix), variant: Some(candidate.variant), fuse: Some(candidate.fuse), ..FftOptions::default() };
        let fft = Fft::with_options(&plain, prime, opts)?;
        let ms = match crate::bench::forward_median_ms(&fft, 1usize << log_n, reps) {
            Ok(ms) => Ok(ms),
            Err(e @ (Error::OutOfMemory(_) | Error::UnsupportedSize { .. })) => Err(e.to_string()),
            Err(e) => return Err(e),
        };
        timings.push(Timing { candidate, ms });
    }
    Ok(SizeTimings { log_n, timings, default, kernels: kopts })
}

/// A candidate replaces the default only where it is faster by more than
/// this fraction: closer than that, the medians of two runs of the same
/// kernels differ as much (between calls on the H200, up to 1%).
pub const MIN_GAIN: f64 = 0.01;

/// Records the choice for `t` in `wisdom` for the session's device, the prime
/// and the kernels `t` ran: the fastest candidate where it beats the default
/// by more than [`MIN_GAIN`], else the default; nothing where they did not both run.
pub fn record(wisdom: &mut Wisdom, session: &Session, prime: &Prime, t: &SizeTimings) {
    let Some((best, ms, default_ms)) = t.choice() else { return };
    let key = WisdomKey::new(session.device(), prime, &t.kernels, t.log_n);
    wisdom.insert(key, Choice { variant: best.variant, fuse: best.fuse, ms, default_ms });
}

#[cfg(test)]
mod tests {
    use super::*;
    use srgfn_gen::emit::MulForm;

    /// A size's timings prune the next size's candidates only where both
    /// sizes' plans take kernels of the same radix (`Fft::radix_for`).
    #[test]
    fn timings_of_another_radix_prune_nothing() {
        let (fast, slow, default) = (
            Candidate { variant: Variant::Table, fuse: false },
            Candidate { variant: Variant::Local, fuse: false },
            Candidate { variant: Variant::Digits, fuse: false },
        );
        let prev = SizeTimings {
            log_n: 16,
            timings: vec![Timing { candidate: fast, ms: Ok(1.0) }, Timing { candidate: slow, ms: Ok(10.0) }],
            default: fast,
            kernels: KernelOptions::new(Radix::R4, MulForm::Wide64),
        };
        let sel = Selection { only: &[], after: Some((&prev, 3.0)) };
        assert!(sel.skip(slow, default, Radix::R4).is_some_and(|why| why.starts_with(PRUNED)));
        assert_eq!(sel.skip(fast, default, Radix::R4), None);
        assert_eq!(sel.skip(slow, default, Radix::R2), None);
        assert_eq!(sel.skip(default, default, Radix::R4), None);
    }
}
