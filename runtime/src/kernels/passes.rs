//! The pass launchers: which blocks a launch runs ([`PassPart`]), one
//! Stockham pass, two passes in one launch and the table plans' first two
//! passes, each checked against its kernel's signature
//! (`emit::sig`) and its launch facts (`specs.rs`).

use ocl::Buffer;
use srgfn_gen::emit::digits::PassLayout;
use srgfn_gen::emit::{self, fused, TwiddleTable, Variant};
use srgfn_gen::plan::{Halves, Launch, Pass};

use super::specs::SpecKey;
use super::{Arg, FieldKernels};
use crate::error::{Error, Result};

/// Which blocks of a pass one launch runs (`srgfn_gen::plan::Halves`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassPart {
    /// Every block, on the session's queue.
    Whole,
    /// The blocks whose bit `shift` is `half`: half 0 on the session's
    /// queue, half 1 on its side queue.
    Half {
        /// The bit of the block index that tells the halves apart.
        shift: u32,
        /// 0 or 1.
        half: u32,
    },
    /// The blocks whose bit `shift` is `half` and bit `shift2` (> shift) is
    /// `index2`, on the queue of `index2` as for a half (the table variant's
    /// `_q` kernels, `emit::has_quarter_kernels`, `maps::quarter_block`;
    /// `srgfn_gen::plan::Chain::low`).
    Quarter {
        /// The lower bit.
        shift: u32,
        /// Its value, 0 or 1.
        half: u32,
        /// The higher bit.
        shift2: u32,
        /// Its value, 0 or 1: the chain half, whose queue runs the quarter.
        index2: u32,
    },
}

/// A part's kernel arguments and size ([`PassPart::launch`]).
struct PartLaunch {
    /// `half_shift` and `half_index`.
    half: [u32; 2],
    /// `quarter_shift` and `quarter_index` ([`Halves::WHOLE`] and 0 but for a quarter).
    quarter: [u32; 2],
    /// The blocks (or superblocks) launched.
    blocks: u64,
}

impl PassPart {
    /// The kernel arguments of this part of a launch of `count` blocks (or
    /// superblocks) whose kernel runs in halves from `min_p` on
    /// (`emit::half_min_p`); an internal error unless the runs of 2^shift
    /// blocks are that long and the parts are equal (min_p ≤ 2^(shift+1),
    /// count a multiple of 2^(shift+1), and of 2^(shift2+1) for a quarter).
    /// Which bits keep the parts apart from launch to launch is the plan's:
    /// below p (`PlanShape::halves`), above it (`PlanShape::chain`), or both
    /// (`Chain::in_quarters`).
    fn launch(self, min_p: Option<usize>, count: u64) -> Result<PartLaunch> {
        let least = min_p.map_or(u64::MAX, |m| m.max(2) as u64);
        let splits = |shift: u32, half: u32| {
            let bit = 1u64.checked_shl(shift).unwrap_or(0);
            half <= 1 && 2 * bit >= least && count.is_multiple_of(2 * bit)
        };
        match self {
            PassPart::Whole => Ok(PartLaunch { half: [Halves::WHOLE, 0], quarter: [Halves::WHOLE, 0], blocks: count }),
            PassPart::Half { shift, half } if splits(shift, half) => {
                Ok(PartLaunch { half: [shift, half], quarter: [Halves::WHOLE, 0], blocks: count / 2 })
            }
            PassPart::Quarter { shift, half, shift2, index2 } if shift2 > shift && splits(shift, half) && splits(shift2, index2) => {
                Ok(PartLaunch { half: [shift, half], quarter: [shift2, index2], blocks: count / 4 })
            }
            _ => Err(Error::internal(format!("no part {self:?} of {count} blocks"))),
        }
    }

    /// [`Self::launch`] for a kernel that runs halves but no quarters.
    fn halves_only(self, min_p: Option<usize>, count: u64) -> Result<([u32; 2], u64)> {
        match self.launch(min_p, count)? {
            PartLaunch { half, quarter: [Halves::WHOLE, 0], blocks } => Ok((half, blocks)),
            _ => Err(Error::internal(format!("a kernel of two levels runs no quarter ({self:?})"))),
        }
    }
}

/// The kernels map indices with shifts and masks: n, the radix and p are
/// powers of two and radix·p divides n (every plan's passes are).
fn pass_shape(n: u64, radix: u64, p: u64) -> Result<()> {
    if [n, radix, p].iter().all(|v| v.is_power_of_two()) && radix.checked_mul(p).is_some_and(|rp| rp <= n) {
        Ok(())
    } else {
        Err(Error::option(format!(
            "a Stockham pass needs n, the radix and p powers of two with radix·p ≤ n (got n = {n}, radix {radix}, p = {p})"
        )))
    }
}

/// The arguments of a Stockham kernel in the order of `emit::sig`'s
/// `stockham`: X, Y, W, (plane, n, p), log_t, the twiddle shifts, count.
fn stockham_args<'a>(
    x: &'a [Buffer<u64>],
    y: &'a [Buffer<u64>],
    w: &'a Buffer<u64>,
    [plane, n, p]: [u64; 3],
    log_t: u32,
    shifts: &[u32],
    count: u64,
) -> Vec<Arg<'a>> {
    let mut args = vec![Arg::Vec(x), Arg::Vec(y), Arg::Buf(w), Arg::U64(plane), Arg::U64(n), Arg::U64(p), Arg::U32(log_t)];
    args.extend(shifts.iter().map(|&s| Arg::U32(s)));
    args.push(Arg::U64(count));
    args
}

#[cfg_attr(not(feature = "internals"), allow(dead_code))]
impl FieldKernels {
    /// File and kernel name of DFT_n of a variant built for `table`,
    /// emitting the file the first time it is asked for when n < K (launch
    /// tables: n = K only, `emit::launch_tables`).
    pub(super) fn dft_file(&self, variant: Variant, n: usize, table: TwiddleTable) -> Result<(String, String)> {
        let name = emit::dft_kernel_name(n, self.opts.radix, variant);
        let file = emit::dft_file_name(n, self.opts.radix, variant, table);
        if table == TwiddleTable::Launch && (n != self.base_size() || !emit::has_launch_table_passes(self.prime.k(), variant)) {
            return Err(Error::internal(format!("no pass kernel of DFT_{n} of the {} variant for launch tables", variant.name())));
        }
        if n != self.base_size() {
            let mut small = self.small.lock().expect("kernel map");
            if !small.contains_key(&file) {
                small.insert(file.clone(), emit::emit_dft(&self.prime, n, variant, &self.opts)?);
            }
        }
        Ok((file, name))
    }

    /// One Stockham pass of radix `radix` (| K) over vectors of length n after
    /// sub-transforms of length p (see `srgfn_gen::plan::Pass`): X → Y, Y ≠ X;
    /// `count` = total elements / radix.  W is the twiddle table of 2^log_t
    /// entries: the plan's, of ω_n, with tw_shift = log2(n / (radix·p))
    /// ([`PlanShape::twiddle_shift`]), or (`table` [`TwiddleTable::Launch`])
    /// one that holds every twiddle of the pass
    /// ([`PlanShape::launch_table_log`], `launch_twiddle_shift`).  The workgroup
    /// variant overwrites X.  `part` says which blocks: all of them, or a
    /// half, the blocks whose bit `shift` is `half` (`srgfn_gen::plan::Halves`
    /// says where that is sound; half 1 runs on the session's side queue,
    /// between [`Self::fork`] and [`Self::join`]), or a quarter, through the
    /// twiddled pass's `_q` kernel (`srgfn_gen::plan::Chain::low`).
    #[allow(clippy::too_many_arguments)]
    pub fn pass(
        &self,
        variant: Variant,
        radix: usize,
        x: &[Buffer<u64>],
        y: &[Buffer<u64>],
        (w, table): (&Buffer<u64>, TwiddleTable),
        [plane, n, p]: [u64; 3],
        log_t: u32,
        tw_shift: u32,
        count: u64,
        part: PassPart,
        layout: PassLayout,
    ) -> Result<()> {
        pass_shape(n, radix as u64, p)?;
        if table == TwiddleTable::Launch {
            if p < 2 {
                return Err(Error::internal("the first pass (p = 1) has no twiddles to read from a launch table"));
            }
            launch_table_holds(log_t, (radix as u64 * p) << tw_shift, || format!("the pass ({radix}, {p})"))?;
        }
        if !variant.takes_layout() && layout != PassLayout::DIGIT_MAJOR {
            return Err(Error::option(format!(
                "only the digits variant reads or writes element-major vectors (emit::digits::PassLayout), not the {} variant",
                variant.name()
            )));
        }
        // twiddled passes read 2^log_t entries laid out for the variant; the suffix sums sit right
        // after exactly 2^log_t entries, so such a table must have that length
        let words = self.table_words(variant, 1u64.checked_shl(log_t).unwrap_or(u64::MAX));
        let fits = |words: usize| if variant.reads_suffix_sums() { w.len() == words } else { w.len() >= words };
        if p > 1 && !words.is_some_and(fits) {
            return Err(Error::option(format!(
                "the twiddle table holds {} words; the {} variant reads {} for 2^{log_t} entries (Variant::table_words)",
                w.len(),
                variant.name(),
                words.map_or("more than the device can hold".to_string(), |w| format!(
                    "{}{w}",
                    if variant.reads_suffix_sums() { "exactly " } else { "" }
                ))
            )));
        }
        let quarters = matches!(part, PassPart::Quarter { .. });
        let spec = self.spec(SpecKey::Pass { variant, radix, first: p == 1, table, quarters }, p)?;
        let launch = Launch::Single(Pass { radix, p: p as usize });
        let part_args = part.launch(emit::half_min_p(&self.prime, variant, self.opts.radix, &launch), count)?;
        let (gws, lws) = emit::pass_work_size(&self.prime, &spec.program, variant, part_args.blocks as usize);
        let mut extra = vec![tw_shift];
        if variant.runs_in_halves() {
            extra.extend(part_args.half);
        }
        if quarters {
            extra.extend(part_args.quarter);
        }
        if variant.takes_layout() {
            extra.push(layout.bits());
        }
        self.launch_on(
            self.queue_of(part),
            &spec.file,
            &spec.sig,
            gws,
            Some(lws.into()),
            &stockham_args(x, y, w, [plane, n, p], log_t, &extra, count),
        )
    }

    /// Two Stockham passes of radix `radix` (= K), (R, p) then (R, pR), in
    /// one launch: the local variant's fused kernel (`emit::fused`) or the
    /// table variant's pair kernel (`emit::first2`, `TwoLevel::Pair`, X and
    /// Y digit- or element-major as `layout` says; the local variant's are
    /// digit-major).  X → Y, Y ≠ X; `count` = total elements / R²; `tw_shift`
    /// = the two passes' [`PlanShape::twiddle_shift`], in units of the root
    /// of W, which is the plan's table or (`table` [`TwiddleTable::Launch`])
    /// one that holds every twiddle of the launch
    /// ([`PlanShape::launch_table_log`]); `part` as for [`Self::pass`].
    #[allow(clippy::too_many_arguments)]
    pub fn fused_pass(
        &self,
        variant: Variant,
        radix: usize,
        x: &[Buffer<u64>],
        y: &[Buffer<u64>],
        (w, table): (&Buffer<u64>, TwiddleTable),
        [plane, n, p]: [u64; 3],
        log_t: u32,
        tw_shift: [u32; 2],
        count: u64,
        part: PassPart,
        layout: PassLayout,
    ) -> Result<()> {
        pass_shape(n, (radix * radix) as u64, p)?;
        let k = self.prime.k();
        let launch = Launch::Fused(Pass { radix, p: p as usize }, Pass { radix, p: p as usize * radix });
        if table == TwiddleTable::Launch {
            let passes = || format!("the passes ({radix}, {p}), ({radix}, {})", p * radix as u64);
            launch_table_holds(log_t, ((radix * radix) as u64 * p) << tw_shift[1], passes)?;
        }
        let (half, superblocks) = part.halves_only(emit::half_min_p(&self.prime, variant, self.opts.radix, &launch), count)?;
        let mut extra = vec![tw_shift[0], tw_shift[1], half[0], half[1]];
        let base = self.base_size();
        let (spec, (gws, lws)) = match variant {
            Variant::Local if layout == PassLayout::DIGIT_MAJOR => {
                let none = || Error::internal(format!("no fused kernel of radix {radix} for k = {k}"));
                let spec = if radix == base { self.spec(SpecKey::Fused { table }, p)? } else { return Err(none()) };
                let shape = spec.fused.ok_or_else(none)?;
                (spec, fused::work_size(&shape, superblocks as usize))
            }
            Variant::Table if radix == base && emit::first2::applies(k, radix, &self.opts) => {
                let size = emit::first2::work_size(k, radix, superblocks as usize)
                    .ok_or_else(|| Error::internal("the pair kernel's work-group holds no whole superblock"))?;
                extra.push(layout.bits());
                (self.spec(SpecKey::Pair { table }, p)?, size)
            }
            _ => {
                return Err(Error::internal(format!(
                    "no fused kernel of radix {radix} for k = {k} of the {} variant with layout {layout:?}",
                    variant.name()
                )))
            }
        };
        let args = stockham_args(x, y, w, [plane, n, p], log_t, &extra, count);
        self.launch_on(self.queue_of(part), &spec.file, &spec.sig, gws, Some(lws.into()), &args)
    }

    /// The first two Stockham passes of radix K, (K, 1) then (K, K), in one
    /// launch of the table variant's `…_first2` kernel (`emit::first2`): X,
    /// in the superblock order, digit-major, → Y in the natural order, Y ≠ X,
    /// element-major where `layout` says; `count` = total elements / K²;
    /// `tw_shift2` = the second pass's [`PlanShape::twiddle_shift`] in the
    /// plan's table W (a pass of p = K has no launch table,
    /// [`PlanShape::launch_table_log`]); `part`: every superblock, or the
    /// half of them whose bit `shift` is `half` (`PlanShape::chain`).
    #[allow(clippy::too_many_arguments)]
    pub fn first2_pass(
        &self,
        x: &[Buffer<u64>],
        y: &[Buffer<u64>],
        w: &Buffer<u64>,
        [plane, n]: [u64; 2],
        log_t: u32,
        tw_shift2: u32,
        count: u64,
        layout: PassLayout,
        part: PassPart,
    ) -> Result<()> {
        if layout.input_element_major {
            return Err(Error::internal("the first-two-passes kernel reads a digit-major vector in the superblock order"));
        }
        let kk = self.base_size();
        pass_shape(n, (kk * kk) as u64, 1)?;
        if !emit::first2::applies(self.prime.k(), kk, &self.opts) {
            return Err(Error::internal(format!("no first-two-passes kernel for k = {} with these options", self.prime.k())));
        }
        let spec = self.spec(SpecKey::First2, 1)?;
        // its superblocks in halves by a bit above p (PlanShape::chain)
        let ([shift, half], superblocks) = part.halves_only(emit::first2::half_min_superblocks(&self.prime, self.opts.radix), count)?;
        let (gws, lws) = emit::first2::work_size(self.prime.k(), kk, superblocks as usize)
            .ok_or_else(|| Error::internal("the first-two-passes kernel's work-group holds no whole superblock"))?;
        let args = stockham_args(x, y, w, [plane, n, 1], log_t, &[tw_shift2, shift, half, layout.bits()], count);
        self.launch_on(self.queue_of(part), &spec.file, &spec.sig, gws, Some(lws.into()), &args)
    }

    /// Words of a twiddle table of `entries` entries laid out for `variant`
    /// (`Variant::table_words`), or None beyond the host's addresses.
    pub(super) fn table_words(&self, variant: Variant, entries: u64) -> Option<usize> {
        usize::try_from(entries).ok()?.checked_mul(variant.table_words(self.prime.k(), 1))
    }

    /// The unrolled program of DFT_n (n | K) with this set's radix.
    pub(super) fn dft_program(&self, n: usize) -> Result<srgfn_gen::unroll::Program> {
        if n == self.base_size() {
            return Ok(self.set.program.clone());
        }
        srgfn_gen::unroll::Program::unroll_size(self.prime.k(), n, self.opts.radix).map_err(|e| emit::EmitError::Unsupported(e).into())
    }
}

/// A launch table of 2^`log_t` entries must hold every exponent of the
/// passes it serves, all below `end` in its units (R·p, shifted).
fn launch_table_holds(log_t: u32, end: u64, passes: impl FnOnce() -> String) -> Result<()> {
    if end > 1u64.checked_shl(log_t).unwrap_or(0) {
        return Err(Error::internal(format!("a launch table of 2^{log_t} entries does not hold the twiddles of {}", passes())));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A part's kernel arguments: the whole launch, a half and a quarter
    /// (count / 4 blocks, both bits), and a clear error for a split the
    /// kernel's runs or the count do not allow, or a quarter whose bits are
    /// out of order.
    #[test]
    fn parts_give_their_kernel_arguments_or_refuse() {
        let whole = PassPart::Whole.launch(Some(16), 1 << 16).unwrap();
        assert_eq!((whole.half, whole.quarter, whole.blocks), ([Halves::WHOLE, 0], [Halves::WHOLE, 0], 1 << 16));
        let half = PassPart::Half { shift: 7, half: 1 }.launch(Some(16), 1 << 16).unwrap();
        assert_eq!((half.half, half.quarter, half.blocks), ([7, 1], [Halves::WHOLE, 0], 1 << 15));
        let quarter = PassPart::Quarter { shift: 7, half: 0, shift2: 11, index2: 1 }.launch(Some(16), 1 << 16).unwrap();
        assert_eq!((quarter.half, quarter.quarter, quarter.blocks), ([7, 0], [11, 1], 1 << 14));
        for bad in [
            PassPart::Half { shift: 2, half: 0 },                           // runs of 4 blocks, the kernel needs 8
            PassPart::Half { shift: 7, half: 2 },                           // no half 2
            PassPart::Quarter { shift: 11, half: 0, shift2: 7, index2: 0 }, // bits out of order
            PassPart::Quarter { shift: 7, half: 0, shift2: 16, index2: 0 }, // bit 16 of 2^16 blocks
            PassPart::Quarter { shift: 7, half: 0, shift2: 11, index2: 2 },
        ] {
            assert!(bad.launch(Some(16), 1 << 16).is_err(), "{bad:?}");
        }
        // a kernel of two levels runs halves only
        assert!(PassPart::Quarter { shift: 7, half: 0, shift2: 11, index2: 0 }.halves_only(Some(16), 1 << 16).is_err());
        assert_eq!(PassPart::Half { shift: 7, half: 1 }.halves_only(Some(16), 1 << 16).unwrap(), ([7, 1], 1 << 15));
    }
}
