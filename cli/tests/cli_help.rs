//! A new user's first minute: the start-here text, help without gaps that
//! agrees with docs/usage.md, one size syntax everywhere, `info` printing r,
//! and the progress lines of long steps.

mod cli_support;

use cli_support::{srgfn, stderr, stdout, tmp, P};

#[test]
fn no_arguments_and_help_show_where_to_start() {
    for args in [vec![], vec!["--help"]] {
        let o = srgfn(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let out = stdout(&o);
        let start = out.find("Start here:").unwrap_or_else(|| panic!("{args:?}: {out}"));
        let text = &out[start..];
        for needle in ["srgfn primes list", "srgfn fft --prime", "--random", "srgfn polymul", "srgfn inspect --prime", "srgfn check"] {
            assert!(text.contains(needle), "{args:?}: no '{needle}' in {text}");
        }
        assert!(out.contains("Commands:"), "{out}");
    }
}

const SUBCOMMANDS: [&[&str]; 12] = [
    &["primes", "list"],
    &["primes", "search"],
    &["roots"],
    &["info"],
    &["emit"],
    &["inspect"],
    &["devices"],
    &["plan"],
    &["fft"],
    &["polymul"],
    &["random"],
    &["bench"],
];

#[test]
fn every_option_of_every_command_is_documented() {
    for cmd in SUBCOMMANDS {
        let mut args = cmd.to_vec();
        args.push("--help");
        let o = srgfn(&args);
        assert!(o.status.success(), "{cmd:?}");
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().collect();
        let mut options = 0;
        for (i, line) in lines.iter().enumerate() {
            let t = line.trim_start();
            // long help: an option line, then its description on the next line
            if t.starts_with("--") || (t.starts_with('-') && t.contains(", --")) {
                options += 1;
                // the description follows on the same line (after two spaces) or on the next
                let inline = t.split("  ").filter(|part| !part.trim().is_empty()).count() > 1;
                let next = lines.get(i + 1).map_or("", |l| l.trim());
                assert!(inline || !next.is_empty(), "{cmd:?}: option '{t}' has no help text");
            }
        }
        assert!(options >= 2, "{cmd:?}: {out}");
    }
}

#[test]
fn help_defaults_agree_with_the_usage_guide() {
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/usage.md")).unwrap();
    let help = stdout(&srgfn(&["fft", "--help"]));
    for phrase in ["local for k ≤ 8, table for k = 16, digits from k = 32", "[default: wide64]"] {
        assert!(help.contains(phrase), "fft --help lacks '{phrase}'");
        assert!(guide.contains(phrase), "docs/usage.md lacks '{phrase}'");
    }
}

#[test]
fn bench_has_one_spelling_per_list_option() {
    let help = stdout(&srgfn(&["bench", "--help"]));
    for one in ["--radix <RADIX>", "--variant <VARIANT>", "--mul <MUL>", "--quick"] {
        assert!(help.contains(one), "no {one} in {help}");
    }
    for gone in ["--radices", "--variants", "--muls"] {
        assert!(!help.contains(gone), "{gone} still in bench --help");
    }
}

#[test]
fn counts_and_sizes_share_one_syntax() {
    let texts: Vec<String> = ["16", "2^4"]
        .iter()
        .map(|c| {
            let o = srgfn(&["random", "--prime", P, "--count", c, "--seed", "3"]);
            assert!(o.status.success(), "{c}: {}", stderr(&o));
            stdout(&o)
        })
        .collect();
    assert_eq!(texts[0], texts[1]);
    assert_eq!(texts[0].lines().count(), 16);
    let o = srgfn(&["random", "--prime", P, "--count", "1K"]);
    assert_eq!(stdout(&o).lines().count(), 1024);
    let roots: Vec<String> =
        ["1048576", "2^20", "1M", "1024K"].iter().map(|n| stdout(&srgfn(&["roots", "--prime", P, "--n", n]))).collect();
    assert!(roots.iter().all(|r| r == &roots[0] && !r.is_empty()), "{roots:?}");
    let o = srgfn(&["plan", "--prime", P, "--n", "1K", "--batch", "2^2"]);
    assert!(o.status.success() && stdout(&o).contains("batch 4"), "{}", stdout(&o));
}

#[test]
fn refused_sizes_give_the_limit() {
    for (args, needle) in [
        (vec!["random", "--prime", P, "--count", "2^40"], "--count 2^40 is too large: at most 2^30 = 1073741824"),
        (vec!["random", "--prime", P, "--count", "0"], "at least 1"),
        (vec!["plan", "--prime", P, "--n", "1K", "--batch", "2^21"], "at most 2^20"),
        (vec!["roots", "--prime", P, "--n", "2^300"], "allowed are 2^1 to 2^272"),
        (vec!["fft", "--prime", P, "--random", "2^273"], "allowed are 2^1 to 2^272"),
        (vec!["random", "--prime", P, "--count", "lots"], "1048576, 2^20 or 1M"),
    ] {
        let o = srgfn(&args);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"));
    }
}

#[test]
fn info_prints_r_and_p() {
    let o = srgfn(&["info", "--prime", P]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("r = 2^63+2^34 = 9223372054034644992"), "{out}");
    let p = srgfn_gen::Prime::parse(P).unwrap().modulus().to_string();
    assert!(out.contains(&format!("p = r^8 + 1 = {p}\n")), "{out}");
}

#[test]
fn long_steps_say_what_they_do_off_a_terminal() {
    // stderr is a pipe here: one line per long step, nothing for short ones
    let o = srgfn(&["primes", "list"]);
    assert!(stderr(&o).contains("srgfn: validating the 7 catalog primes"), "{}", stderr(&o));
    let big = tmp("big.txt");
    let o = srgfn(&["random", "--prime", P, "--count", "2^18", "--output", big.to_str().unwrap()]);
    assert!(o.status.success());
    assert_eq!(stderr(&o).trim(), format!("srgfn: writing {} …", big.display()));
    let o = srgfn(&["random", "--prime", P, "--count", "2^10", "--output", tmp("small.txt").to_str().unwrap()]);
    assert_eq!(stderr(&o), "");
    std::fs::remove_file(big).ok();
}
