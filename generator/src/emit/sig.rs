//! Kernel signatures, described once: the C parameter list the templates
//! print, the manifest's argument list, and the order and types in which
//! the runtime sets the arguments all come from [`KernelSig`].

use serde::Serialize;

use super::Variant;

/// The C type of a kernel parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ParamType {
    /// `__global const digit_t *`: digit-major elements, read.
    In,
    /// `__global digit_t *`: digit-major elements, written.
    Out,
    /// `__global digit_t *`: read and written.
    InOut,
    /// `__global const digit_t *`: a twiddle table, digit-major with its own
    /// plane stride (never split into segments).
    Table,
    /// `__global const digit_t *`: the passes' twiddle table `W[t] = w^t`,
    /// element-major (digit d of entry t at `W[t·k + d]`, `load_tw`), so that an
    /// entry gathered by one work-item is k consecutive words.
    Twiddles,
    /// `__global digit_t *`: a twiddle table of the passes' form, written.
    TwiddlesOut,
    /// `__constant digit_t *`: one element's k digits.
    Constant,
    /// `__global const ulong *`: raw 64-bit words, read.
    WordsIn,
    /// `__global ulong *`: raw 64-bit words, written.
    WordsOut,
    /// `const ulong`.
    ULong,
    /// `const uint`.
    UInt,
}

impl ParamType {
    fn c(self) -> &'static str {
        match self {
            ParamType::In | ParamType::Table | ParamType::Twiddles => "__global const digit_t *",
            ParamType::Out | ParamType::InOut | ParamType::TwiddlesOut => "__global digit_t *",
            ParamType::Constant => "__constant digit_t *",
            ParamType::WordsIn => "__global const ulong *",
            ParamType::WordsOut => "__global ulong *",
            ParamType::ULong => "const ulong ",
            ParamType::UInt => "const uint ",
        }
    }
    /// A buffer (as opposed to a scalar).
    pub fn is_buffer(self) -> bool {
        !matches!(self, ParamType::ULong | ParamType::UInt)
    }
    /// A data vector (digit-major elements): split into segments where the
    /// kernel takes segmented vectors.
    pub fn is_vector(self) -> bool {
        matches!(self, ParamType::In | ParamType::Out | ParamType::InOut)
    }
}

/// One parameter: its name in the C source, type, and meaning.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Param {
    /// The name in the C source.
    pub name: &'static str,
    /// The C type.
    pub ty: ParamType,
    /// What it holds (the manifest prints it).
    pub doc: &'static str,
}

const fn p(name: &'static str, ty: ParamType, doc: &'static str) -> Param {
    Param { name, ty, doc }
}

/// A kernel's name and parameters.
#[derive(Clone, Debug, Serialize)]
pub struct KernelSig {
    /// The kernel's name.
    pub name: String,
    /// Its parameters, in order.
    pub params: Vec<Param>,
    /// Whether its data vectors come in segments (kernels that read
    /// elements across a whole vector: the passes and `reverse_scale`).
    /// Element-wise kernels are launched once per segment instead.
    pub segmented: bool,
}

impl KernelSig {
    /// A signature of `name` with `params`.
    pub fn new(name: impl Into<String>, params: &[Param]) -> KernelSig {
        KernelSig { name: name.into(), params: params.to_vec(), segmented: false }
    }
    /// Segments of each data vector the kernel takes when its vectors are
    /// split into `segments`: `segments` if it takes segmented vectors, else 1.
    pub fn segments_of(&self, segments: u32) -> u32 {
        if self.segmented {
            segments.max(1)
        } else {
            1
        }
    }
    /// The C names of parameter `p` with vectors in `segments`: `X`, or `X_0 … X_{S−1}`.
    fn c_names(&self, p: &Param, segments: u32) -> Vec<String> {
        match self.segments_of(segments) {
            s if s > 1 && p.ty.is_vector() => (0..s).map(|i| format!("{}_{i}", p.name)).collect(),
            _ => vec![p.name.to_string()],
        }
    }
    /// The C parameter list, as the template prints it (vectors whole).
    pub fn c_params(&self) -> String {
        self.c_params_for(1)
    }
    /// The C parameter list with data vectors in `segments` (see [`KernelSig::segmented`]).
    pub fn c_params_for(&self, segments: u32) -> String {
        self.params
            .iter()
            .flat_map(|p| self.c_names(p, segments).into_iter().map(move |n| format!("{}{n}", p.ty.c())))
            .collect::<Vec<_>>()
            .join(", ")
    }
    /// The kernel's first statements with vectors in `segments`: each vector
    /// `X` as a private array of its segments, which `load_vec` and
    /// `store_vec` index (empty for whole vectors).
    pub fn prologue(&self, segments: u32) -> String {
        let s = self.segments_of(segments);
        if s <= 1 {
            return String::new();
        }
        self.params
            .iter()
            .filter(|p| p.ty.is_vector())
            .map(|p| {
                let parts: Vec<String> = self.c_names(p, s).iter().map(|n| format!("(__global digit_t *){n}")).collect();
                format!("    __global digit_t *{}[{s}] = {{{}}};\n", p.name, parts.join(", "))
            })
            .collect()
    }
    /// "name: type, meaning" per parameter, for the manifest (vectors whole).
    pub fn manifest_args(&self) -> Vec<String> {
        self.manifest_args_for(1)
    }
    /// [`KernelSig::manifest_args`] with data vectors in `segments`.
    pub fn manifest_args_for(&self, segments: u32) -> Vec<String> {
        self.params
            .iter()
            .flat_map(|p| {
                let doc = if p.doc.is_empty() { String::new() } else { format!(" — {}", p.doc) };
                self.c_names(p, segments).into_iter().map(move |n| format!("{n}: {}{doc}", p.ty.c().trim()))
            })
            .collect()
    }
}

use ParamType::*;

/// The twiddle table as the passes of `variant` read it (`Variant::table_layout`).
fn table_doc(variant: Variant) -> &'static str {
    if variant.reads_suffix_sums() {
        "twiddle table: digit d of w^t (t < 2^log_t, w^(2^log_t) = r) at W[t k + d], then the suffix sums T_i = sum_(m > i) of digit m of entry t as (low, high) words at W[2^log_t k + 2 (t k + i)]"
    } else {
        "twiddle table: digit d of w^t (t < 2^log_t, w^(2^log_t) = r) at W[t k + d]"
    }
}

/// A Stockham kernel's parameters: X → Y with twiddles from W (laid out for
/// `variant`), then its twiddle shifts and its count (of blocks).
fn stockham(name: &str, variant: Variant, x: Param, shifts: &[Param], count: Param) -> KernelSig {
    let mut params = vec![
        x,
        p("Y", Out, "output, Y != X"),
        p("W", Twiddles, table_doc(variant)),
        p("plane", ULong, "digit plane stride of X and Y (elements; of each segment when split)"),
        p("n", ULong, "vector length"),
        p("p", ULong, "length of the sub-transforms already done"),
        p("log_t", UInt, "log2 of the table length"),
    ];
    params.extend_from_slice(shifts);
    params.push(count);
    let mut sig = KernelSig::new(name, &params);
    sig.segmented = true;
    sig
}

/// Every Stockham pass kernel (all variants): X → Y with twiddles from W.
/// The workgroup variant's passes use X as scratch.
/// `quarters`: the kernel runs a quarter of the blocks (the table variant's
/// `_q` kernels, [`super::quarter_kernel_name`]).
pub fn pass(name: &str, variant: Variant, quarters: bool) -> KernelSig {
    let x_inout = variant == Variant::Workgroup;
    let mut extra = vec![p("tw_shift", UInt, "log2(n / (R p)): input t of block i gets w^((t (i mod p)) << tw_shift)")];
    if variant.runs_in_halves() {
        extra.extend(half_params("blocks"));
    }
    if quarters {
        extra.extend([
            p(
                "quarter_shift",
                UInt,
                "and whose bit quarter_shift (> half_shift) is quarter_index (SRGFN_QUARTER_BLOCK; 63: the half alone)",
            ),
            p("quarter_index", UInt, "0 or 1"),
        ]);
    }
    if variant.takes_layout() {
        extra.push(layout_param());
    }
    stockham(
        name,
        variant,
        p("X", if x_inout { InOut } else { In }, if x_inout { "input, overwritten (scratch)" } else { "input" }),
        &extra,
        p("count", ULong, "blocks (DFTs) = elements / R, of the whole pass"),
    )
}

/// The `layout` parameter of the kernels that read or write element-major vectors.
fn layout_param() -> Param {
    p(
        "layout",
        UInt,
        "bit 0: X element-major, bit 1: Y element-major (digit d of element e at word e k + d of its segment; clear: digit-major; emit::digits::PassLayout)",
    )
}

/// The two parameters that say which half of a pass's `what` a launch runs
/// (`plan::Halves`, `maps::half_block`).
fn half_params(what: &'static str) -> [Param; 2] {
    let doc = if what == "blocks" {
        "the launch runs the blocks whose bit half_shift is half_index (SRGFN_HALF_BLOCK; 63: every block)"
    } else {
        "the launch runs the superblocks whose bit half_shift is half_index (SRGFN_HALF_BLOCK; 63: every superblock)"
    };
    [p("half_shift", UInt, doc), p("half_index", UInt, "0 or 1")]
}

/// The parameters after `log_t` of a kernel of two Stockham levels (R, p)
/// and (R, pR) on superblocks: both levels' twiddle shifts and the half.
fn two_level_params() -> Vec<Param> {
    let [half_shift, half_index] = half_params("superblocks");
    vec![
        p("tw_shift", UInt, "log2(n / (R p)): level 1's twiddle exponents (t (i mod p)) << tw_shift"),
        p("tw_shift2", UInt, "log2(n / (R^2 p)): level 2's twiddle exponents (t (i mod pR)) << tw_shift2"),
        half_shift,
        half_index,
    ]
}

/// The fused kernel of two Stockham levels (R, p) and (R, pR): X → Y.
pub fn fused_pass(name: &str) -> KernelSig {
    stockham(name, Variant::Local, p("X", In, "input"), &two_level_params(), p("count", ULong, "superblocks = elements / R^2"))
}

/// The first two Stockham passes of a table plan, (R, 1) then (R, R), in one
/// launch from the superblock order (`emit::first2`): X → Y.
pub fn first2_pass(name: &str) -> KernelSig {
    let [half_shift, half_index] = half_params("superblocks");
    stockham(
        name,
        Variant::Table,
        p("X", In, "input, in the superblock order (maps.rs, SRGFN_SB_ELEM), digit-major"),
        &[
            p("tw_shift2", UInt, "log2(n / R^2): the second pass's twiddle exponents (a t0) << tw_shift2"),
            half_shift,
            half_index,
            p("layout", UInt, "bit 1: Y element-major (emit::digits::PassLayout); bit 0 clear (X digit-major)"),
        ],
        p("count", ULong, "superblocks = elements / R^2"),
    )
}

/// A later pair of Stockham passes of a table plan, (R, p) then (R, pR), in
/// one launch (`emit::first2`, `TwoLevel::Pair`): X → Y.
pub fn pair_pass(name: &str) -> KernelSig {
    let mut params = two_level_params();
    params.push(layout_param());
    stockham(name, Variant::Table, p("X", In, "input"), &params, p("count", ULong, "superblocks = elements / R^2"))
}

/// The auxiliary kernels, by name.
pub fn aux(name: &str) -> Option<KernelSig> {
    let params: &[Param] = match name {
        "twiddle" => &[
            p("X", InOut, ""),
            p("plane", ULong, ""),
            p("W", Twiddles, "table w^t, t < 2^log_t (element-major)"),
            p("log_t", UInt, "w^(2^log_t) = r"),
            p("m", UInt, "m | K"),
            p("J", UInt, ""),
            p("step", ULong, "omega_mJ = w^step"),
            p("count", ULong, "elements"),
        ],
        "fourstep_twiddle" => &[
            p("X", InOut, "count / m vectors of length m (columns c0, c0 + 1, …)"),
            p("plane", ULong, ""),
            p("A", Table, "omega^(u 2^log_c), u < 2^(log_t - log_c)"),
            p("B", Table, "omega^v, v < 2^log_c"),
            p("log_t", UInt, "N = K 2^log_t, omega^(2^log_t) = r"),
            p("log_c", UInt, ""),
            p("c0", ULong, "column of the first vector"),
            p("m", ULong, "vector length N1"),
            p("inverse", UInt, "1: omega^-e"),
            p("count", ULong, "elements"),
        ],
        "transpose" => &[p("X", WordsIn, ""), p("Y", WordsOut, ""), p("rows", UInt, ""), p("cols", UInt, "")],
        "radix2_general" => &[
            p("X", In, ""),
            p("Y", Out, ""),
            p("W", Table, "table w^e, e < n/2"),
            p("plane", ULong, ""),
            p("n", ULong, ""),
            p("p", ULong, ""),
            p("count", ULong, "= elements / 2"),
        ],
        "pointwise_mul" | "pointwise_mul_lazy" | "pointwise_add" | "pointwise_sub" => {
            &[p("X", In, ""), p("Y", In, ""), p("Z", Out, "may be X or Y"), p("plane", ULong, ""), p("n", ULong, "")]
        }
        "scale" => &[p("X", InOut, ""), p("C", Constant, "the constant element"), p("plane", ULong, ""), p("n", ULong, "")],
        "shift_by" => &[p("X", InOut, ""), p("s", UInt, ""), p("plane", ULong, ""), p("n", ULong, "")],
        "reverse_scale" => &[
            p("X", In, ""),
            p("Y", Out, ""),
            p("C", Constant, "the constant element"),
            p("plane", ULong, ""),
            p("n", ULong, "vector length"),
            p("total", ULong, "elements"),
        ],
        "from_binary" => &[
            p("B", WordsIn, "k binary words per element"),
            p("X", Out, ""),
            p("plane", ULong, ""),
            p("count", ULong, "values given"),
            p("n", ULong, "elements written (zeros from count on)"),
        ],
        "to_binary" => &[p("X", In, ""), p("B", WordsOut, "k binary words per element"), p("plane", ULong, ""), p("n", ULong, "")],
        "outer_product" => &[
            p("A", In, "n >> log_c elements"),
            p("B", In, "2^log_c elements"),
            p("W", TwiddlesOut, "n entries (element-major), then their suffix sums when `suffix`"),
            p("log_c", UInt, ""),
            p("n", ULong, ""),
            p("suffix", UInt, "nonzero: also T_i = sum_(m > i) W[t]_m at 2 (t k + i) after the entries"),
        ],
        "mb_mul" | "mb_core" => &[
            p("X", InOut, "elements, each multiplied iters times"),
            p("W", In, "64 multipliers"),
            p("plane", ULong, ""),
            p("iters", UInt, ""),
        ],
        "mb_add" => &[p("X", InOut, "elements, iters add/sub butterflies each"), p("plane", ULong, ""), p("iters", UInt, "")],
        _ => return None,
    };
    let mut sig = KernelSig::new(name, params);
    sig.segmented = name == "reverse_scale";
    Some(sig)
}
