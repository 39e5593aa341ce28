//! Human-readable views of an unrolled program: the stage table (like the
//! thesis's Steps 1–8 for DFT-16, for any K) and an SVG butterfly network.

use std::fmt::Write;

use crate::prime::Prime;
use crate::unroll::Program;

fn term(slot: usize, shift: u32) -> String {
    if shift == 0 {
        format!("x{slot}")
    } else {
        format!("x{slot}·r^{shift}")
    }
}

/// The rewritten formula, the descriptor and one line per stage.
pub fn stage_table(prime: &Prime, prog: &Program) -> String {
    let d = prog.descriptor();
    let mut s = String::new();
    // DFT_n of n < K has root r^(K/n) (Program::unroll_size)
    let root = if prog.size == 2 * prog.k { "r".to_string() } else { format!("r^{}", 2 * prog.k / prog.size) };
    let _ = writeln!(s, "DFT_{} over p = {} (k = {}, root {root}, r = {}), radix {}", prog.size, prime, prog.k, prime.r(), d.radix);
    let _ = writeln!(s, "\nformula:\n  DFT_{} = {}", prog.size, prog.formula);
    let _ = writeln!(
        s,
        "\ndescriptor: {} stages, {} butterflies ({} DFT_2, {} DFT_4); {} shifted inputs ({} negations by r^{} = -1), {} trivial (r^0){}",
        d.stages,
        d.butterflies,
        d.dft2,
        d.dft4,
        d.shifts,
        d.negations,
        prog.k,
        d.trivial_shifts,
        if d.dft4 > 0 { format!("; each DFT_4 applies r^{} inside", prog.k / 2) } else { String::new() }
    );
    let amounts: Vec<String> = d.shift_amounts.iter().map(|a| a.to_string()).collect();
    let _ = writeln!(s, "shift amounts used: {}", if amounts.is_empty() { "none".into() } else { amounts.join(", ") });
    let _ = writeln!(
        s,
        "\nslots x0 … x{} hold the inputs; each butterfly reads its slots (times the shown r^s) and writes its outputs back in order.",
        prog.size - 1
    );
    for (i, st) in prog.stages.iter().enumerate() {
        let _ = writeln!(s, "\nstage {}: {} × DFT_{}", i + 1, st.butterflies.len(), st.radix());
        for bf in &st.butterflies {
            let ins: Vec<String> = bf.slots.iter().zip(&bf.shifts).map(|(&sl, &sh)| term(sl, sh)).collect();
            let _ = writeln!(s, "  DFT_{}({})", bf.radix(), ins.join(", "));
        }
    }
    let outs: Vec<String> =
        prog.output_slots.iter().zip(&prog.output_shifts).enumerate().map(|(j, (&sl, &sh))| format!("X{j}={}", term(sl, sh))).collect();
    let _ = writeln!(s, "\noutput (natural order):\n  {}", outs.join("  "));
    s
}

/// Where the SVG title is drawn, and its font size in px.
const TITLE_X: f64 = 10.0;
const TITLE_Y: f64 = 24.0;
const TITLE_SIZE: f64 = 14.0;

/// An SVG drawing of the butterfly network: one row per slot, one column per
/// stage, a vertical bar per butterfly, r^s labels on shifted inputs.
pub fn butterfly_svg(prime: &Prime, prog: &Program) -> String {
    // The title's baseline is at TITLE_Y and the stage labels' at top − 16, so
    // the stage labels (11 px) start below the title's descenders.
    let (row_h, lane_w, left, top) = (22.0, 12.0, 60.0, 66.0);
    let n = prog.size;
    // Give each butterfly a lane so that bars whose slot ranges overlap do not
    // coincide: greedy interval colouring, per stage.
    let lanes: Vec<Vec<usize>> = prog
        .stages
        .iter()
        .map(|st| {
            let mut used: Vec<(usize, usize, usize)> = Vec::new(); // (lo, hi, lane)
            st.butterflies
                .iter()
                .map(|bf| {
                    let lo = bf.slots.iter().copied().min().unwrap_or(0);
                    let hi = bf.slots.iter().copied().max().unwrap_or(0);
                    let lane = (0..).find(|&l| !used.iter().any(|&(a, b, ul)| ul == l && a <= hi && lo <= b)).unwrap_or(0);
                    used.push((lo, hi, lane));
                    lane
                })
                .collect()
        })
        .collect();
    let col_widths: Vec<f64> = lanes.iter().map(|l| (l.iter().copied().max().unwrap_or(0) + 1) as f64 * lane_w + 60.0).collect();
    let cols = prog.stages.len();
    let total: f64 = col_widths.iter().sum();
    let title = format!("DFT_{n} over {prime}, radix {}: {cols} stages", prog.radix.number());
    // the image is at least as wide as the title (monospace: 0.6 em per character)
    let width = (left + total + 90.0).max(TITLE_X + title.chars().count() as f64 * 0.6 * TITLE_SIZE + 10.0).ceil();
    let height = top + row_h * n as f64 + 30.0;
    let y = |slot: usize| top + row_h * slot as f64;
    let mut s = String::new();
    let _ =
        writeln!(s, r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="monospace" font-size="11">"#);
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(s, r#"<text x="{TITLE_X}" y="{TITLE_Y}" font-size="{TITLE_SIZE}">{title}</text>"#);
    for slot in 0..n {
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{0}" x2="{1}" y2="{0}" stroke="#bbb"/><text x="10" y="{2}">x{slot}</text>"##,
            y(slot),
            left + total + 10.0,
            y(slot) + 4.0
        );
    }
    let mut x_col = left;
    for (c, st) in prog.stages.iter().enumerate() {
        let _ = writeln!(s, r#"<text x="{}" y="{}">stage {}</text>"#, x_col + 40.0, top - 16.0, c + 1);
        for (bf, &lane) in st.butterflies.iter().zip(&lanes[c]) {
            let x = x_col + 50.0 + lane as f64 * lane_w;
            let lo = bf.slots.iter().copied().min().unwrap_or(0);
            let hi = bf.slots.iter().copied().max().unwrap_or(0);
            let color = if bf.radix() == 4 { "#c0392b" } else { "#2c3e50" };
            let _ = writeln!(s, r#"<line x1="{x}" y1="{}" x2="{x}" y2="{}" stroke="{color}" stroke-width="2"/>"#, y(lo), y(hi));
            for (&slot, &sh) in bf.slots.iter().zip(&bf.shifts) {
                let _ = writeln!(s, r#"<circle cx="{x}" cy="{}" r="3" fill="{color}"/>"#, y(slot));
                if sh != 0 {
                    let _ = writeln!(s, r##"<text x="{}" y="{}" fill="#1a7f37">r^{sh}</text>"##, x - 34.0, y(slot) - 3.0);
                }
            }
        }
        x_col += col_widths[c];
    }
    let xo = left + total + 20.0;
    for (j, &slot) in prog.output_slots.iter().enumerate() {
        let _ = writeln!(s, r#"<text x="{xo}" y="{}">→ X{j}</text>"#, y(slot) + 4.0);
    }
    s.push_str("</svg>\n");
    s
}
