//! The high part of the lazy digits a pass keeps in local memory (`SH`
//! beside the low words `SL`), and the f_mul_lazy whose outputs fit it.
//!
//! One byte (|d| < 2^71) is every kernel's, with `f_mul_lazy`, whose quotient
//! series leaves a tail below 1/4.  A twiddled single pass of the table
//! variant takes two bytes (|d| < 2^79) where that lets the series drop a
//! term (`MulSplit::wide`): it calls `f_mul_lazy_wide`.  H200, v43, against
//! the byte and two terms for k = 8's 2^63 + 2^34: those passes' kernels
//! −0.4% and −1.2% with one term in two calls, the transform at 2^20 −0.6%;
//! two bytes alone (two terms) left them level, and cost `first2` 3–4% and
//! k = 4's local passes 5–10%, which keep a byte.

use super::lazy::{MulSplit, STORED_DIGIT_BITS, WIDE_STORED_DIGIT_BITS};

/// Bytes of a lazy digit's high part in local memory, and the product that
/// fills it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HighPart {
    /// A signed byte: `f_mul_lazy`.
    Byte,
    /// Two bytes: `f_mul_lazy_wide` (its series has fewer terms).
    Short,
}

impl HighPart {
    /// The high part of a table-variant kernel's digits: two bytes for a
    /// twiddled single pass (`twiddled`) of a prime with a wide split, else
    /// one.  `mul_lazy`: whether the field has f_mul_lazy at all.
    pub fn of_table_pass(k: usize, r: u64, twiddled: bool, mul_lazy: bool) -> HighPart {
        if twiddled && mul_lazy && MulSplit::wide(k, r).is_some() {
            HighPart::Short
        } else {
            HighPart::Byte
        }
    }

    /// The OpenCL type of `SH`.
    pub fn c_type(self) -> &'static str {
        match self {
            HighPart::Byte => "char",
            HighPart::Short => "short",
        }
    }

    /// Bytes of local memory a lazy digit takes: its low word and high part.
    pub fn digit_bytes(self) -> usize {
        match self {
            HighPart::Byte => 9,
            HighPart::Short => 10,
        }
    }

    /// |d| < 2^bits for the digits it holds.
    pub fn digit_bits(self) -> i32 {
        match self {
            HighPart::Byte => STORED_DIGIT_BITS,
            HighPart::Short => WIDE_STORED_DIGIT_BITS,
        }
    }

    /// The lazy product whose digits, grown over a pass, fit it.
    pub fn mul_lazy(self) -> &'static str {
        match self {
            HighPart::Byte => "f_mul_lazy",
            HighPart::Short => "f_mul_lazy_wide",
        }
    }

    /// The PTX macro of that product's split of one coefficient (series.rs).
    pub fn split_macro(self) -> &'static str {
        match self {
            HighPart::Byte => "SRGFN_SERIES_SPLIT",
            HighPart::Short => "SRGFN_SERIES_SPLIT_WIDE",
        }
    }

    /// That product's split for k digits in radix r: [`MulSplit::of`], or
    /// [`MulSplit::wide`] (None where no series takes fewer terms).
    pub fn split(self, k: usize, r: u64) -> Option<MulSplit> {
        match self {
            HighPart::Byte => MulSplit::of(k, r),
            HighPart::Short => MulSplit::wide(k, r),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::lazy::SplitForm;

    /// Only k = 8's catalog prime among the catalog's takes two bytes (k = 2
    /// and 4 would need more than one term fewer, k ≥ 16 split by rounds),
    /// and only in twiddled passes; each split's digits fit its high part.
    #[test]
    fn two_bytes_where_the_series_drops_a_term() {
        for prime in crate::prime::catalog() {
            let (k, r) = (prime.k(), prime.r());
            let short = HighPart::of_table_pass(k, r, true, true);
            assert_eq!(short == HighPart::Short, k == 8, "{prime}");
            assert_eq!(HighPart::of_table_pass(k, r, false, true), HighPart::Byte, "{prime}");
            assert_eq!(HighPart::of_table_pass(k, r, true, false), HighPart::Byte, "{prime}");
            // the series' digits (k ≤ 8) go through local memory as they are
            for hp in [HighPart::Byte, HighPart::Short] {
                let Some(sp) = hp.split(k, r).filter(|sp| matches!(sp.form, SplitForm::Series { .. })) else { continue };
                let grown = (2 * k) as f64 * sp.digit_bound(r);
                assert!(grown < (2f64).powi(hp.digit_bits()), "{prime} {hp:?}: 2^{:.2}", grown.log2());
                assert_eq!(hp.digit_bits(), 8 * hp.digit_bytes() as i32 - 1, "{hp:?}");
            }
            // the series, and so the wide split, stop at k = 8
            assert!(k <= MulSplit::SERIES_MAX_K || MulSplit::wide(k, r).is_none(), "{prime}");
            if short == HighPart::Short {
                let terms = |sp: Option<MulSplit>| match sp.map(|s| s.form) {
                    Some(SplitForm::Series { terms, .. }) => terms,
                    other => panic!("{prime}: {other:?}"),
                };
                assert!(terms(MulSplit::wide(k, r)) < terms(MulSplit::of(k, r)), "{prime}");
            }
        }
    }

    /// Where two-byte high parts can arise (k ≤ 8, the series), the table
    /// variant's blocks of DFT_2k fit local memory with them, in the
    /// template's rows and in the warp stages' layout, so that neither
    /// `table::context` nor `table::kernel_context` runs out of it.
    #[test]
    fn two_byte_blocks_fit_local_memory() {
        use crate::emit::LOCAL_MAX_BYTES;
        for k in (1..=MulSplit::SERIES_MAX_K).filter(|k| k.is_power_of_two()) {
            let n = 2 * k;
            let (groups, _) = crate::emit::table_shape(k, n);
            let bytes = HighPart::Short.digit_bytes();
            assert!(groups * n * super::super::table::slot_stride(k) * bytes <= LOCAL_MAX_BYTES, "k = {k}");
            for twiddled in [false, true] {
                assert!(super::super::warp_stages::WarpLayout::of(k, n, groups, LOCAL_MAX_BYTES / bytes, twiddled).is_some(), "k = {k}");
            }
        }
    }
}
