//! `srgfn emit`, `srgfn inspect`, `srgfn devices`, and their errors.

mod cli_support;

use cli_support::srgfn;

#[test]
fn inspect_shows_dft16_stages() {
    let o = srgfn(&["inspect", "--prime", "(2^63+2^34)^8+1", "--radix", "2"]);
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.matches("\nstage ").count(), 4, "{out}");
    assert_eq!(out.matches("  DFT_2(").count(), 32);
    assert!(out.contains("stage 4: 8 × DFT_2"));
    assert!(out.contains("x15·r^7"));
    let o = srgfn(&["inspect", "--prime", "(2^63+2^34)^8+1", "--radix", "4"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.matches("\nstage ").count(), 2, "{out}");
    assert_eq!(out.matches("  DFT_4(").count(), 8);
}

/// The smaller base cases a plan's pass of radix below K runs: DFT_4 for k = 8 has root r^4
/// (4 | 16 = K), two radix-2 stages and r^4 as its one shift; sizes outside 2 … K are refused.
#[test]
fn inspect_shows_the_smaller_base_cases() {
    let o = srgfn(&["inspect", "--prime", "(2^63+2^34)^8+1", "--radix", "2", "--size", "4"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with("DFT_4 over p = (2^63+2^34)^8+1 (k = 8, root r^4,"), "{out}");
    assert_eq!(out.matches("\nstage ").count(), 2, "{out}");
    assert_eq!(out.matches("  DFT_2(").count(), 4);
    assert!(out.contains("·r^4") && !out.contains("·r^2"), "{out}");
    let o = srgfn(&["inspect", "--prime", "(2^63+2^34)^8+1", "--size", "2^4"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("root r,"));
    for (size, want) in [("32", "at most 16"), ("1", "at least 2"), ("6", "power of two")] {
        let o = srgfn(&["inspect", "--prime", "(2^63+2^34)^8+1", "--size", size]);
        assert!(!o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want), "--size {size}: {err}");
    }
}

#[test]
fn inspect_draws_svg_and_prints_json() {
    let dir = std::env::temp_dir().join(format!("srgfn-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("dft.svg");
    let o = srgfn(&["inspect", "--prime", "(2^62+2^36)^16+1", "--radix", "4", "--svg", svg.to_str().unwrap(), "--json"]);
    assert!(o.status.success());
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("stage 3") && text.contains("r^"));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["size"], 32);
    assert_eq!(v["stages"].as_array().unwrap().len(), 3);
}

#[test]
fn emit_writes_kernels_and_manifest_for_every_catalog_prime() {
    let base = std::env::temp_dir().join(format!("srgfn-emit-{}", std::process::id()));
    for expr in srgfn_gen::prime::CATALOG {
        for radix in ["2", "4"] {
            let dir = base.join(format!("{}-{radix}", expr.len()));
            // radix 4 also with NVIDIA's PTX carry chains, the micro-benchmarks and vectors in 4 segments
            let mut args = vec!["emit", "--prime", expr, "--radix", radix, "--out", dir.to_str().unwrap()];
            let extra = radix == "4";
            if extra {
                args.extend(["--ptx", "--micro", "--segments", "4"]);
            }
            let o = srgfn(&args);
            assert!(o.status.success(), "{expr}: {}", String::from_utf8_lossy(&o.stderr));
            assert_eq!(std::fs::read_to_string(dir.join("field.cl")).unwrap().contains("asm("), extra, "{expr} r{radix}");
            assert_eq!(dir.join("microbench.cl").exists(), extra, "{expr} r{radix}");
            let m: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
            for kernel in m["kernels"].as_array().unwrap() {
                let file = dir.join(kernel["file"].as_str().unwrap());
                let src = std::fs::read_to_string(&file).unwrap();
                let name = kernel["name"].as_str().unwrap();
                let decl = src.find(&format!("void {name}(")).unwrap_or_else(|| panic!("{name} not defined in {file:?}"));
                assert!(src[..decl].trim_end().ends_with("__kernel") || src[..decl].contains("__kernel __attribute__"), "{file:?}");
                // the C parameter list is the manifest's, name by name and type by type
                let open = decl + format!("void {name}(").len();
                let params: Vec<String> =
                    src[open..open + src[open..].find(')').unwrap()].split(',').map(|p| p.trim().to_string()).collect();
                let args: Vec<&str> = kernel["args"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
                assert_eq!(params.len(), args.len(), "{name}: {params:?} vs {args:?}");
                for (p, a) in params.iter().zip(&args) {
                    let (aname, rest) = a.split_once(": ").unwrap();
                    let aty = rest.split(" — ").next().unwrap();
                    assert!(p.ends_with(aname), "{name}: parameter {p} vs manifest {a}");
                    assert_eq!(
                        p[..p.len() - aname.len()].split_whitespace().collect::<Vec<_>>().join(" "),
                        aty.split_whitespace().collect::<Vec<_>>().join(" "),
                        "{name}: {p} vs {a}"
                    );
                }
            }
            assert!(m["kernels"].as_array().unwrap().iter().any(|k| k["descriptor"]["butterflies"].as_u64() > Some(0)));
            // with segments, the passes and reverse_scale take X_0 … X_3 (and Y_0 … Y_3); element-wise kernels whole vectors
            for kernel in m["kernels"].as_array().unwrap() {
                let args = kernel["args"].to_string();
                let segmented = kernel["variant"].is_string() || kernel["name"] == "reverse_scale";
                assert_eq!(args.contains("\"X_3: "), extra && segmented, "{}: {args}", kernel["name"]);
            }
            assert_eq!(m["segments"], if extra { 4 } else { 1 });
        }
    }
    // deterministic output
    let a = base.join("again");
    srgfn(&["emit", "--prime", "(2^63+2^34)^8+1", "--radix", "2", "--out", a.to_str().unwrap()]);
    let b = base.join(format!("{}-2", "(2^63+2^34)^8+1".len()));
    // the smaller radices' base cases too (emit::add_small_radices), named in the manifest
    for f in ["field.cl", "dft16_r2_local.cl", "dft8_r2_table.cl", "dft2_r2_digits.cl", "manifest.json"] {
        assert_eq!(std::fs::read(a.join(f)).unwrap(), std::fs::read(b.join(f)).unwrap(), "{f}");
    }
    let manifest = std::fs::read_to_string(a.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"dft8_r2_table\"") && manifest.contains("\"dft4_r2_local_first\""), "small radices in the manifest");
    // without --radix, the prime's default (emit::default_radix): 2 for k = 16, else 4
    for (expr, want, not) in [
        ("(2^63+2^34)^8+1", "dft16_r4_local.cl", "dft16_r2_local.cl"),
        ("(2^64-2^50)^4+1", "dft8_r4_local.cl", "dft8_r2_local.cl"),
        ("(2^63+2^53)^2+1", "dft4_r4_local.cl", "dft4_r2_local.cl"),
        ("(2^62+2^36)^16+1", "dft32_r2_table.cl", "dft32_r4_table.cl"),
        ("(2^62+2^56)^32+1", "dft64_r4_digits.cl", "dft64_r2_digits.cl"),
    ] {
        let d = base.join(format!("default-{want}"));
        assert!(srgfn(&["emit", "--prime", expr, "--out", d.to_str().unwrap()]).status.success());
        assert!(d.join(want).exists() && !d.join(not).exists(), "{expr}: default radix");
    }
    std::fs::remove_dir_all(&base).ok();
}

#[test]
fn bad_generator_input_is_a_clear_error() {
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["inspect", "--prime", "(2^63+2^34)^8+1", "--radix", "8"], "radix 8"),
        (vec!["emit", "--prime", "(2^63+2^34)^8+1", "--radix", "3", "--out", "/tmp/x"], "radix 3"),
        (vec!["emit", "--prime", "(2^63+2^34)^8+1", "--out", "/proc/srgfn-cannot-write"], "cannot"),
    ];
    for (args, needle) in cases {
        let o = srgfn(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success());
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
}

/// The number in `attr="…"` of an SVG element's text.
fn attr(element: &str, name: &str) -> f64 {
    let start = element.find(&format!(" {name}=\"")).unwrap_or_else(|| panic!("no {name} in {element}")) + name.len() + 3;
    element[start..].split('"').next().unwrap().parse().unwrap()
}

#[test]
fn svg_titles_fit_and_clear_the_stage_labels() {
    let dir = std::env::temp_dir().join(format!("srgfn-svg-fit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (prime, radix) in [("(2^63+2^34)^8+1", "4"), ("(2^62+2^56)^32+1", "2"), ("(2^64-2^28)^128+1", "4"), ("(2^63+2^53)^2+1", "2")] {
        let svg = dir.join("t.svg");
        let o = srgfn(&["inspect", "--prime", prime, "--radix", radix, "--svg", svg.to_str().unwrap()]);
        assert!(o.status.success(), "{prime}");
        let text = std::fs::read_to_string(&svg).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let width = attr(lines[0], "width");
        let title = lines.iter().find(|l| l.contains("stages</text>")).unwrap();
        let chars = title.split('>').nth(1).unwrap().trim_end_matches("</text").chars().count() as f64;
        let (size, title_y) = (attr(title, "font-size"), attr(title, "y"));
        // monospace: 0.6 em per character
        assert!(attr(title, "x") + 0.6 * size * chars <= width, "{prime} radix {radix}: title cut off at width {width}");
        let stage = lines.iter().find(|l| l.contains(">stage 1<")).unwrap();
        // the stage label (11 px, ascent about 0.8 em) starts below the title's descenders (0.25 em)
        assert!(attr(stage, "y") - 0.8 * 11.0 >= title_y + 0.25 * size, "{prime}: '{stage}' overlaps '{title}'");
    }
    std::fs::remove_dir_all(&dir).ok();
}
