//! What the kernels of one prime are emitted for ([`KernelOptions`]): the
//! organisation of a base-case kernel ([`Variant`]), the form of f_mul's
//! digit products ([`MulForm`]), the radix, PTX, segments and register caps.

use serde::Serialize;

use super::EmitError;
use crate::rules::Radix;

/// How a base-case kernel is organised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// 32 DFT_K per work-group in local memory; work-item (block b, position w)
    /// runs butterfly w of every stage for block b, so that a warp shares one
    /// straight-line path in which every slot and shift is a constant (k ≤ 8).
    Local,
    /// Several DFT_K per work-group in local memory, a stage's butterflies
    /// shared by the work-items, slots and shifts read from constant tables
    /// and applied by a run-time shift (k ≤ 32).
    Table,
    /// One work-group per DFT_K, butterflies of a stage shared by its work-items,
    /// in place in global memory, slot and shift tables in constant memory (any k).
    Workgroup,
    /// Blocks in local memory as in "table", every phase spread over digits:
    /// one work-item per coefficient of a twiddle product and per digit pair
    /// of a butterfly (any k; radices up to [`super::digits::max_radix`]).
    Digits,
}

impl Variant {
    /// Whether the variant's pass kernels can run one half of a pass's blocks
    /// (`plan::Halves`; the kernels take `half_shift` and `half_index`): all but the
    /// workgroup variant, whose kernel keeps its own block map.
    pub fn runs_in_halves(self) -> bool {
        self != Variant::Workgroup
    }

    /// Whether the variant's pass kernels take a `layout` argument and read
    /// and write element-major vectors where it says so
    /// (`digits::PassLayout`): the digits variant's, and the table
    /// variant's, whose fused plans keep the vectors between their launches
    /// element-major (`first2::pair`).
    pub fn takes_layout(self) -> bool {
        matches!(self, Variant::Digits | Variant::Table)
    }

    /// Whether the variant's passes read the twiddle table's suffix sums
    /// T_i = Σ_(m>i) w_m of every entry (the digits variant's twiddle phase
    /// multiplies by w with the wrapped x digits staged as r − x_m, so that
    /// r·T_i, a property of the table, leaves through the carry).
    pub fn reads_suffix_sums(self) -> bool {
        self == Variant::Digits
    }

    /// Words of a twiddle table of `entries` entries for k digits: the entries
    /// (k words each, element-major), then for [`Variant::reads_suffix_sums`]
    /// two words (low, high) per entry and digit, T_i at 2·(t·k + i).
    pub fn table_words(self, k: usize, entries: usize) -> usize {
        entries * k * if self.reads_suffix_sums() { 3 } else { 1 }
    }

    /// The device table of the variant from its entries (k words each,
    /// element-major): the entries, then for [`Variant::reads_suffix_sums`]
    /// T_i = Σ_(m>i) w_m of each entry as (low, high) words at 2·(t·k + i).
    pub fn table_layout(self, k: usize, entries: &[u64]) -> Vec<u64> {
        assert!(k > 0 && entries.len().is_multiple_of(k), "a table of whole entries of k = {k} words, got {} words", entries.len());
        let mut out = entries.to_vec();
        if self.reads_suffix_sums() {
            for w in entries.chunks(k) {
                let mut sums = vec![0u64; 2 * k];
                let mut acc = 0u128;
                for i in (0..k).rev() {
                    sums[2 * i] = acc as u64;
                    sums[2 * i + 1] = (acc >> 64) as u64;
                    acc += w[i] as u128;
                }
                out.extend(sums);
            }
        }
        debug_assert_eq!(out.len(), self.table_words(k, entries.len() / k));
        out
    }

    /// The spelling of the variant in kernel names, the CLI and the manifest.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Local => "local",
            Variant::Table => "table",
            Variant::Workgroup => "workgroup",
            Variant::Digits => "digits",
        }
    }
    /// The variant named `s` (local, table, digits or workgroup).
    pub fn parse(s: &str) -> Result<Variant, EmitError> {
        [Variant::Local, Variant::Table, Variant::Digits, Variant::Workgroup]
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| EmitError::Unsupported(format!("unknown variant '{s}': use local, table, digits or workgroup")))
    }
}

/// How `f_mul` forms its k² digit products (the only part of the field
/// arithmetic with a device-dependent best form; the result is the same).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MulForm {
    /// 64×64→128-bit products (`mul_hi`) accumulated in 192 bits with carries:
    /// for devices with a native 64-bit multiplier (CPUs).
    #[default]
    Wide64,
    /// 22-bit limbs: 9 exact 32×32→64-bit multiply-adds per digit product into
    /// carry-free 64-bit buckets: for GPUs, whose 64-bit multiplies are emulated.
    Limb22,
    /// x in 32-bit halves, y in 22-bit limbs: 6 exact 32×32→64-bit
    /// multiply-adds per digit product into carry-free 64-bit buckets.
    Mixed,
}

impl MulForm {
    /// The form named `s` (wide64, limb22 or mixed).
    pub fn parse(s: &str) -> Result<MulForm, EmitError> {
        match s {
            "wide64" => Ok(MulForm::Wide64),
            "limb22" => Ok(MulForm::Limb22),
            "mixed" => Ok(MulForm::Mixed),
            _ => Err(EmitError::Unsupported(format!("unknown multiplication form '{s}': use wide64, limb22 or mixed"))),
        }
    }
    /// The spelling in the CLI, kernel names and the manifest.
    pub fn name(self) -> &'static str {
        match self {
            MulForm::Wide64 => "wide64",
            MulForm::Limb22 => "limb22",
            MulForm::Mixed => "mixed",
        }
    }
    /// Every form.
    pub const ALL: [MulForm; 3] = [MulForm::Wide64, MulForm::Limb22, MulForm::Mixed];
}

/// What the kernels of one prime are emitted for: the base-case radix, the
/// form of f_mul, and whether inline PTX may be used (NVIDIA platforms).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct KernelOptions {
    /// The radix of the base-case expansion.
    pub radix: Radix,
    /// How f_mul forms its digit products.
    pub mul: MulForm,
    /// Whether inline PTX may be used (NVIDIA platforms only).
    pub ptx: bool,
    /// Segments (buffers) each data vector is split into, a power of two:
    /// 1, or more where one vector exceeds the device's largest buffer.  The
    /// passes and `reverse_scale` then take every segment of a vector;
    /// element-wise kernels are launched once per segment.
    pub segments: u32,
    /// Without PTX, emit the paths that exchange through the warp anyway,
    /// with the shuffles emulated through local memory and barriers
    /// (`emit::digits::CarryPath`): for testing those paths on devices without
    /// PTX (PoCL in CI).  The runtime's plans never set it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub warp_emulation: bool,
    /// Run the digits store phase's second round of carries for every round
    /// of elements, as if every vote asked for it (`emit::digits::store_vote`
    /// and `store_in_warp`): for testing that rare path, which random and
    /// edge inputs almost never take.  The runtime's plans never set it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub every_second_round: bool,
    /// Whether the kernels carry the register caps of
    /// [`super::defaults::PTX_REGISTER_CAPS`] (with PTX only).  A plan sets it by the
    /// elements its launches cover, N·batch ([`super::defaults::plan_register_caps`]):
    /// the caps pay where a launch has waves of work-groups to fill, not below.
    #[serde(skip_serializing_if = "is_true")]
    pub register_caps: bool,
}

/// Serde's test for a field written only where it is false.
fn is_true(b: &bool) -> bool {
    *b
}

impl KernelOptions {
    /// Options without PTX, vectors whole.
    pub fn new(radix: Radix, mul: MulForm) -> KernelOptions {
        KernelOptions { radix, mul, ptx: false, segments: 1, warp_emulation: false, every_second_round: false, register_caps: true }
    }
}
