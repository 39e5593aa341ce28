//! The auxiliary kernels' launchers: baselines, twiddles, transposes, the
//! element-wise operations, conversions and twiddle tables, each in the file
//! `emit::aux_file` names and checked against its signature in `emit::sig`.

use ocl::{Buffer, SpatialDims};
use srgfn_gen::emit::{self, Variant, TILE};

use super::{round_up, Arg, FieldKernels, WG};
use crate::error::{Error, Result};

#[cfg_attr(not(feature = "internals"), allow(dead_code))]
impl FieldKernels {
    /// An auxiliary kernel by name, in its file (`emit::aux_file`), with its
    /// signature's argument checks.
    fn aux(&self, name: &str, gws: impl Into<SpatialDims>, lws: Option<SpatialDims>, args: &[Arg]) -> Result<()> {
        let sig = emit::sig::aux(name).ok_or_else(|| Error::internal(format!("no kernel named {name}")))?;
        let file = emit::aux_file(name).ok_or_else(|| Error::internal(format!("no file holds kernel {name}")))?;
        self.launch(file, &sig, gws, lws, args)
    }

    /// [`Self::aux`] over `items` work-items (one per element or entry) in work-groups of [`WG`].
    fn aux_1d(&self, name: &str, items: u64, args: &[Arg]) -> Result<()> {
        self.aux(name, round_up(items as usize, WG), Some(WG.into()), args)
    }

    /// Baseline "no trick": one radix-2 Stockham pass, every twiddle a general
    /// product by `W[e]` = ω_n^e (e < n/2).
    #[allow(clippy::too_many_arguments)]
    pub fn radix2_general(&self, x: &Buffer<u64>, y: &Buffer<u64>, w: &Buffer<u64>, plane: u64, n: u64, p: u64, count: u64) -> Result<()> {
        self.aux_1d(
            "radix2_general",
            count,
            &[Arg::Buf(x), Arg::Buf(y), Arg::Buf(w), Arg::U64(plane), Arg::U64(n), Arg::U64(p), Arg::U64(count)],
        )
    }

    /// Multiplies element (b, i, j) of X (i < m, j < J) by ω_{mJ}^{i·j} = w^{step·i·j},
    /// with `W[t]` = w^t, t < 2^log_t, w^{2^log_t} = r.
    #[allow(clippy::too_many_arguments)]
    pub fn twiddle(&self, x: &Buffer<u64>, plane: u64, w: &Buffer<u64>, log_t: u32, m: u32, j: u32, step: u64, count: u64) -> Result<()> {
        self.aux_1d(
            "twiddle",
            count,
            &[Arg::Buf(x), Arg::U64(plane), Arg::Buf(w), Arg::U32(log_t), Arg::U32(m), Arg::U32(j), Arg::U64(step), Arg::U64(count)],
        )
    }

    /// The four-step twiddles: element i of vector j (vectors of length m,
    /// column c0 + j) times ω^{±(c0 + j)·i}, ω the root of N = K·2^log_t, with
    /// `A[u]` = ω^{u·2^log_c} and `B[v]` = ω^v (see the kernel).
    #[allow(clippy::too_many_arguments)]
    pub fn fourstep_twiddle(
        &self,
        x: &Buffer<u64>,
        plane: u64,
        tables: (&Buffer<u64>, &Buffer<u64>),
        log_t: u32,
        log_c: u32,
        c0: u64,
        m: u64,
        inverse: bool,
        count: u64,
    ) -> Result<()> {
        self.aux_1d(
            "fourstep_twiddle",
            count,
            &[
                Arg::Buf(x),
                Arg::U64(plane),
                Arg::Buf(tables.0),
                Arg::Buf(tables.1),
                Arg::U32(log_t),
                Arg::U32(log_c),
                Arg::U64(c0),
                Arg::U64(m),
                Arg::U32(inverse as u32),
                Arg::U64(count),
            ],
        )
    }

    /// Y_b = X_b^T for `batch` row-major rows × cols matrices of words.
    pub fn transpose(&self, x: &Buffer<u64>, y: &Buffer<u64>, rows: u32, cols: u32, batch: u32) -> Result<()> {
        let gws = SpatialDims::Three(round_up(cols as usize, TILE), round_up(rows as usize, TILE), batch as usize);
        self.aux("transpose", gws, Some(SpatialDims::Three(TILE, TILE, 1)), &[Arg::Buf(x), Arg::Buf(y), Arg::U32(rows), Arg::U32(cols)])
    }

    /// Z = X op Y element-wise, op ∈ {mul, add, sub}.
    pub fn pointwise(&self, op: &str, x: &Buffer<u64>, y: &Buffer<u64>, z: &Buffer<u64>, plane: u64, n: u64) -> Result<()> {
        self.aux_1d(&format!("pointwise_{op}"), n, &[Arg::Buf(x), Arg::Buf(y), Arg::Buf(z), Arg::U64(plane), Arg::U64(n)])
    }

    /// X = c · X for a constant element c (a buffer of k digits).
    pub fn scale(&self, x: &Buffer<u64>, c: &Buffer<u64>, plane: u64, n: u64) -> Result<()> {
        self.aux_1d("scale", n, &[Arg::Buf(x), Arg::Buf(c), Arg::U64(plane), Arg::U64(n)])
    }

    /// X = r^s · X.
    pub fn shift_by(&self, x: &Buffer<u64>, s: u32, plane: u64, n: u64) -> Result<()> {
        self.aux_1d("shift_by", n, &[Arg::Buf(x), Arg::U32(s), Arg::U64(plane), Arg::U64(n)])
    }

    /// Y_{v,j} = c · X_{v,(−j) mod n} over `total` elements (vectors of length n).
    pub fn reverse_scale(&self, x: &[Buffer<u64>], y: &[Buffer<u64>], c: &Buffer<u64>, plane: u64, n: u64, total: u64) -> Result<()> {
        self.aux_1d("reverse_scale", total, &[Arg::Vec(x), Arg::Vec(y), Arg::Buf(c), Arg::U64(plane), Arg::U64(n), Arg::U64(total)])
    }

    /// X (digit-major, plane stride `plane`) ← the first `count` values of B
    /// (k binary words each, below p), zeros up to element n.
    #[allow(clippy::wrong_self_convention)] // named after its kernel, `from_binary`
    pub fn from_binary(&self, b: &Buffer<u64>, x: &Buffer<u64>, plane: u64, count: u64, n: u64) -> Result<()> {
        self.aux_1d("from_binary", n, &[Arg::Buf(b), Arg::Buf(x), Arg::U64(plane), Arg::U64(count), Arg::U64(n)])
    }

    /// `W[t] ← A[t >> log_c]·B[t mod 2^log_c]` for t < n (A and B digit-major,
    /// W element-major as the passes read it), laid out for `variant`: then
    /// every entry's suffix sums where it reads them (`Variant::table_words`,
    /// which W must hold).
    pub fn outer_product(&self, a: &Buffer<u64>, b: &Buffer<u64>, w: &Buffer<u64>, log_c: u32, n: u64, variant: Variant) -> Result<()> {
        if self.table_words(variant, n).is_none_or(|words| w.len() < words) {
            return Err(Error::option(format!(
                "the twiddle table holds {} words, fewer than the {} variant's layout of {n} entries (Variant::table_words)",
                w.len(),
                variant.name()
            )));
        }
        let suffix = variant.reads_suffix_sums();
        self.aux_1d("outer_product", n, &[Arg::Buf(a), Arg::Buf(b), Arg::Buf(w), Arg::U32(log_c), Arg::U64(n), Arg::U32(suffix as u32)])
    }

    /// B ← the first n elements of X as k binary words each.
    pub fn to_binary(&self, x: &Buffer<u64>, b: &Buffer<u64>, plane: u64, n: u64) -> Result<()> {
        self.aux_1d("to_binary", n, &[Arg::Buf(x), Arg::Buf(b), Arg::U64(plane), Arg::U64(n)])
    }
}
