//! The second half of a twiddled load, shared by the local, table and fused
//! kernels: the loaded element u (canonical) times w^e = r^s·W[tt], where
//! e = s·2^log_t + tt, becomes lazy digits (f_mul_lazy, or f_mul where that
//! is a loop), and the factor r^s is a rotated store into local memory: digit
//! d lands at digit `SRGFN_ROT_TO(d, s)` of its slot, negated where it
//! wrapped once (`SRGFN_ROT_NEG`).  Each kernel gives the exponent, when it
//! can be nonzero, and where a digit of the slot lives.
//!
//! A kernel built for a launch table ([`TwiddleTable::Launch`],
//! `PlanShape::launch_table_log`: W'[j] = w^j for every exponent j of its
//! launch) stores the digits as they are, with no rotation to compute.

use super::high_part::HighPart;

/// The table a twiddled kernel is built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TwiddleTable {
    /// The plan's W\[t\] = w^t, t < 2^log_t, w^(2^log_t) = r: w^e = r^s·W\[tt\].
    Plan,
    /// A table of the launch's own that holds w^e for every exponent e of
    /// the launch (each below 2^log_t): s = 0.
    Launch,
}

impl TwiddleTable {
    /// What the names of a kernel (and of its file) built for this table
    /// end with: nothing for the plan's table, `_lt` for a launch table.
    pub fn suffix(self) -> &'static str {
        match self {
            TwiddleTable::Plan => "",
            TwiddleTable::Launch => "_lt",
        }
    }
}

/// One kernel's twiddled store of the element in `u`.
pub(super) struct TwiddlePut<'a> {
    /// The exponent e of w, a C `ulong` expression; None where the kernel
    /// has no twiddles (the first pass): the element is stored as it is.
    pub exponent: Option<&'a str>,
    /// A C condition outside which e = 0 (the multiplication skipped without
    /// computing e), or None to compute e for every element.
    pub guard: Option<&'a str>,
    /// The local-memory index of digit `rot` (a C expression) of the slot.
    pub index_of_digit: &'a dyn Fn(&str) -> String,
    /// Whether f_mul_lazy exists (straight-line f_mul, k ≤ 32).
    pub mul_lazy: bool,
    /// The high part of the slot's digits: its type, and the lazy product
    /// that fills it (`f_mul_lazy` or `f_mul_lazy_wide`).
    pub high_part: HighPart,
    /// The table the kernel reads.
    pub table: TwiddleTable,
}

impl<'a> TwiddlePut<'a> {
    /// A Stockham pass's input t of block i (κ = i mod p), as the local and
    /// table kernels load it: e = SRGFN_TW_EXP(t, κ, tw_shift), nonzero only
    /// for t > 0 and κ > 0, from `twiddles`' table, and none in the first
    /// pass (`twiddles` None).
    pub(super) fn pass_input(
        twiddles: Option<TwiddleTable>,
        (mul_lazy, high_part): (bool, HighPart),
        index_of_digit: &'a dyn Fn(&str) -> String,
    ) -> Self {
        TwiddlePut {
            exponent: twiddles.map(|_| "SRGFN_TW_EXP(t, kappa, tw_shift)"),
            guard: twiddles.map(|_| "t > 0 && kappa > 0"),
            index_of_digit,
            mul_lazy,
            high_part,
            table: twiddles.unwrap_or(TwiddleTable::Plan),
        }
    }

    /// The statements, each line indented by `indent` spaces.
    pub(super) fn render(&self, indent: usize) -> String {
        let mut lines: Vec<String> = Vec::new();
        let split = |e: &str| format!("const ulong e = {e}, tt = e & ((((ulong)1) << log_t) - 1);");
        // a launch table holds every w^e: no rotation
        let rotation = (self.table == TwiddleTable::Plan).then_some("(uint)(e >> log_t) & (2 * SRGFN_K - 1)");
        // SRGFN_ABLATE_PRODUCTS (a build option, for measurements only): the product skipped
        let product = |lines: &mut Vec<String>, pad: &str| {
            lines.push("#ifndef SRGFN_ABLATE_PRODUCTS".into());
            lines.push(format!("{pad}if (tt) {{"));
            lines.push(format!("{pad}    digit_t w[SRGFN_K];"));
            lines.push(format!("{pad}    load_tw(w, W, tt);"));
            if self.mul_lazy {
                lines.push(format!("{pad}    {}(ul, uh, u, w);", self.high_part.mul_lazy()));
            } else {
                lines.push(format!("{pad}    f_mul(u, u, w);"));
                lines.push(format!("{pad}    for (int d = 0; d < SRGFN_K; d++) ul[d] = u[d];"));
            }
            lines.push(format!("{pad}}}"));
            lines.push("#endif".into());
        };
        let lazy_copy = ["ulong ul[SRGFN_K];", "int uh[SRGFN_K];", "for (int d = 0; d < SRGFN_K; d++) { ul[d] = u[d]; uh[d] = 0; }"];
        match (self.exponent, self.guard) {
            (Some(e), None) => {
                lines.push(split(e));
                lines.extend(rotation.map(|r| format!("const uint rot = {r};")));
                lines.extend(lazy_copy.map(String::from));
                product(&mut lines, "");
            }
            (Some(e), Some(guard)) => {
                lines.extend(rotation.map(|_| "uint rot = 0;".to_string()));
                lines.extend(lazy_copy.map(String::from));
                lines.push(format!("if ({guard}) {{"));
                lines.push(format!("    {}", split(e)));
                lines.extend(rotation.map(|r| format!("    rot = {r};")));
                product(&mut lines, "    ");
                lines.push("}".into());
            }
            // no twiddles: the element as it is (rot = 0 keeps one store loop for every form)
            (None, _) => {
                lines.push("uint rot = 0;".into());
                lines.extend(lazy_copy.map(String::from));
            }
        }
        lines.push("#pragma unroll".into());
        lines.push("for (uint d = 0; d < SRGFN_K; d++) {".into());
        // unrotated where there is an exponent and no rotation of it
        if self.exponent.is_some() && rotation.is_none() {
            lines.push(format!("    const uint idx = {};", (self.index_of_digit)("d")));
            lines.push("    SL[idx] = ul[d];".into());
            lines.push(format!("    SH[idx] = ({})uh[d];", self.high_part.c_type()));
        } else {
            lines.push(format!("    const uint idx = {};", (self.index_of_digit)("SRGFN_ROT_TO(d, rot)")));
            lines.push("    ulong l = ul[d];".into());
            lines.push("    int h = uh[d];".into());
            lines.push("    if (SRGFN_ROT_NEG(d, rot)) SRGFN_LZ_SUB(l, h, (ulong)0, 0, ul[d], uh[d]);".into());
            lines.push("    SL[idx] = l;".into());
            lines.push(format!("    SH[idx] = ({})h;", self.high_part.c_type()));
        }
        lines.push("}".into());
        if self.exponent.is_some() && self.guard.is_none() {
            // its own block: e, tt and rot may not clash with the kernel's names
            lines =
                std::iter::once("{".to_string()).chain(lines.into_iter().map(|l| format!("    {l}"))).chain(["}".to_string()]).collect();
        }
        super::indented(&lines, indent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guarded_and_unguarded_forms() {
        let at = |rot: &str| format!("SLOT(t, {rot}, gi)");
        let put = |exponent, guard, mul_lazy, indent| {
            TwiddlePut { exponent, guard, index_of_digit: &at, mul_lazy, high_part: HighPart::Byte, table: TwiddleTable::Plan }
                .render(indent)
        };
        let guarded = put(Some("EXP"), Some("t > 0 && kappa > 0"), true, 0);
        let lines: Vec<&str> = guarded.lines().collect();
        assert_eq!(lines[0], "uint rot = 0;", "{guarded}");
        assert_eq!(
            lines[4..7],
            [
                "if (t > 0 && kappa > 0) {",
                "    const ulong e = EXP, tt = e & ((((ulong)1) << log_t) - 1);",
                "    rot = (uint)(e >> log_t) & (2 * SRGFN_K - 1);"
            ]
        );
        assert!(
            guarded.contains("f_mul_lazy(ul, uh, u, w);") && guarded.contains("const uint idx = SLOT(t, SRGFN_ROT_TO(d, rot), gi);"),
            "{guarded}"
        );
        // unguarded: its own block, indented
        let always = put(Some("EXP"), None, false, 4);
        let lines: Vec<&str> = always.lines().collect();
        assert_eq!(
            lines[..3],
            [
                "    {",
                "        const ulong e = EXP, tt = e & ((((ulong)1) << log_t) - 1);",
                "        const uint rot = (uint)(e >> log_t) & (2 * SRGFN_K - 1);"
            ]
        );
        assert_eq!(lines[lines.len() - 1], "    }");
        assert!(always.contains("f_mul(u, u, w);") && !always.contains("f_mul_lazy"), "{always}");
        // no twiddles: the element stored as it is
        let first = put(None, None, true, 0);
        assert!(!first.contains("load_tw") && !first.contains("const ulong e") && first.contains("SRGFN_ROT_TO(d, rot)"), "{first}");
        // a launch table: no rotation computed, every digit stored where it is
        let own = TwiddlePut {
            exponent: Some("EXP"),
            guard: None,
            index_of_digit: &at,
            mul_lazy: true,
            high_part: HighPart::Byte,
            table: TwiddleTable::Launch,
        }
        .render(0);
        assert!(own.contains("const uint idx = SLOT(t, d, gi);") && own.contains("f_mul_lazy(ul, uh, u, w);"), "{own}");
        assert!(!own.contains("rot") && !own.contains(">> log_t"), "{own}");
        // two-byte high parts: f_mul_lazy_wide's digits, stored as shorts
        let wide = TwiddlePut {
            exponent: Some("EXP"),
            guard: None,
            index_of_digit: &at,
            mul_lazy: true,
            high_part: HighPart::Short,
            table: TwiddleTable::Plan,
        }
        .render(0);
        assert!(
            wide.contains("f_mul_lazy_wide(ul, uh, u, w);") && wide.contains("SH[idx] = (short)h;") && !wide.contains("(char)"),
            "{wide}"
        );
    }
}
