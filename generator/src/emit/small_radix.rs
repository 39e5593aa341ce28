//! The base-case files of the radices below the plans' largest.  A plan of
//! N = R^e · s (R = `digits::max_radix`, K = 2k up to k = 32) runs one pass
//! of radix s < R, and the runtime emits DFT_s's file of the plan's variant
//! when it first needs it ([`super::emit_dft`]).  `srgfn emit` writes the same
//! files with [`add_small_radices`], so that every kernel a plan can launch is
//! in the emitted folder and its manifest.

use super::{dft_file_of_size, digits, field_header, variants_for, EmitError, KernelOptions, KernelSet, TwiddleTable};
use crate::prime::Prime;

/// The sizes of the base-case files a plan of `prime` can build beyond the
/// set of [`super::emit_with`]: every power of two from 2 to the plans'
/// largest radix except K, whose files the set holds (where the largest
/// radix is below K, k = 64 and 128, that radix too).
pub fn sizes(prime: &Prime) -> Vec<usize> {
    let largest = digits::max_radix(prime.k());
    (1..=largest.trailing_zeros()).map(|b| 1usize << b).filter(|&n| n != 2 * prime.k()).collect()
}

/// Adds to `set` (emitted by [`super::emit_with`] with the same `opts`) the
/// file of DFT_n of every variant of the prime for every n of [`sizes`] that
/// it does not hold yet, with its kernels' manifest entries; each file is the
/// one the runtime builds ([`super::emit_dft`]).  Returns the files added.
pub fn add_small_radices(prime: &Prime, opts: &KernelOptions, set: &mut KernelSet) -> Result<usize, EmitError> {
    let header = field_header(prime, opts)?;
    let mut added = 0;
    for variant in variants_for(prime) {
        for n in sizes(prime) {
            if set.file(&super::dft_file_name(n, opts.radix, variant, TwiddleTable::Plan)).is_some() {
                continue;
            }
            let (file, entries) = dft_file_of_size(prime, n, variant, &header, opts)?;
            set.files.push(file);
            set.manifest.kernels.extend(entries);
            added += 1;
        }
    }
    Ok(added)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::{emit_dft, emit_with, plan_shape, MulForm};
    use crate::rules::Radix;

    /// Every pass of every variant's plans, at every size up to 2^14 · R,
    /// reads a file of the set with the small radices added; each added file
    /// is the runtime's (`emit_dft`) and holds kernels the manifest names.
    #[test]
    fn the_small_radices_are_every_file_a_plan_builds() {
        for k in [2, 4, 8, 16, 32, 64, 128] {
            let prime = crate::catalog_prime(k).unwrap();
            for (radix, ptx) in [(Radix::R2, false), (Radix::R4, true)] {
                let opts = KernelOptions { ptx, ..KernelOptions::new(radix, MulForm::Wide64) };
                let mut set = emit_with(prime, &opts).unwrap();
                let before = set.files.len();
                let added = add_small_radices(prime, &opts, &mut set).unwrap();
                assert_eq!(set.files.len(), before + added);
                assert!(added >= sizes(prime).len(), "k = {k}: {added} files");
                for variant in variants_for(prime) {
                    for n in sizes(prime) {
                        let name = crate::emit::dft_file_name(n, radix, variant, TwiddleTable::Plan);
                        let file = set.file(&name).unwrap_or_else(|| panic!("k = {k}: {name} not emitted"));
                        assert_eq!(file.source, emit_dft(prime, n, variant, &opts).unwrap().source, "{name}");
                        assert!(set.manifest.kernels.iter().any(|e| e.file == name), "k = {k}: {name} has no manifest entry");
                    }
                }
                let largest = digits::max_radix(k).trailing_zeros();
                for variant in variants_for(prime) {
                    for log_n in 1..=largest + 14 {
                        let Ok(shape) = plan_shape(prime, variant, &opts, None, log_n, 1) else { continue };
                        for pass in &shape.passes {
                            let name = crate::emit::dft_file_name(pass.radix, radix, variant, TwiddleTable::Plan);
                            assert!(set.file(&name).is_some(), "k = {k}, 2^{log_n}: {name} not emitted");
                        }
                    }
                }
            }
        }
    }

    /// K itself is never a small radix; k = 64's and 128's plans take radices
    /// up to their largest block, below K.
    #[test]
    fn sizes_stop_at_the_largest_radix() {
        assert_eq!(sizes(crate::catalog_prime(8).unwrap()), vec![2, 4, 8]);
        assert_eq!(sizes(crate::catalog_prime(2).unwrap()), vec![2]);
        let k128 = crate::catalog_prime(128).unwrap();
        let largest = digits::max_radix(128);
        assert!(largest < 256);
        assert_eq!(sizes(k128).last(), Some(&largest));
        assert!(!sizes(k128).contains(&256));
    }
}
