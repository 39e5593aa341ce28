//! The `srgfn` binary: primes, roots, info, and clean errors on bad input.

mod cli_support;

use cli_support::{srgfn, stderr, stdout};

#[test]
fn primes_list_json_has_the_catalog() {
    let o = srgfn(&["primes", "list", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let arr = v.as_array().unwrap();
    assert_eq!(arr.len(), 7);
    let ks: Vec<u64> = arr.iter().map(|p| p["k"].as_u64().unwrap()).collect();
    assert_eq!(ks, [2, 4, 8, 16, 32, 64, 128]);
    let k64 = &arr[5];
    assert_eq!(k64["expr"], "(2^63-2^40)^64+1");
    assert_eq!(k64["two_adicity"], 2560);
    assert_eq!(k64["w"], 63);
    assert_eq!(k64["u"], 40);
    assert_eq!(k64["sign"], "-");
    assert_eq!(k64["bits"], 4032);
}

#[test]
fn primes_search_prints_primes() {
    let o = srgfn(&["primes", "search", "--k", "8", "--w-min", "63", "--w-max", "63", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let exprs: Vec<&str> = v.as_array().unwrap().iter().map(|p| p["expr"].as_str().unwrap()).collect();
    assert!(exprs.contains(&"(2^63+2^34)^8+1"), "{exprs:?}");
    let o = srgfn(&["primes", "search", "--k", "8", "--terms", "3", "--w-min", "59", "--w-max", "59"]);
    assert!(o.status.success());
    assert!(stdout(&o).lines().count() > 10);
}

#[test]
fn roots_prints_the_root_used_by_transforms() {
    let o = srgfn(&["roots", "--prime", "(2^63+2^34)^8+1", "--n", "2^20"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let w: num_bigint::BigUint = stdout(&o).trim().parse().unwrap();
    let p = srgfn_gen::Prime::parse("(2^63+2^34)^8+1").unwrap();
    assert_eq!(w, p.root_of_unity(20).unwrap());
    let o2 = srgfn(&["roots", "--prime", "(2^63+2^34)^8+1", "--n", "1048576"]);
    assert_eq!(stdout(&o), stdout(&o2));
}

#[test]
fn bad_input_gives_one_clear_line() {
    for (args, needle) in [
        (vec!["roots", "--prime", "(2^63+2^34)^8+2", "--n", "16"], "'+1'"),
        (vec!["roots", "--prime", "(2^63+2^33)^8+1", "--n", "16"], "not prime"),
        (vec!["roots", "--prime", "(2^63+2^34)^6+1", "--n", "16"], "power of two"),
        (vec!["roots", "--prime", "(2^65+2^34)^8+1", "--n", "16"], "2^64"),
        (vec!["roots", "--prime", "(2^63+2^34)^8+1", "--n", "24"], "not a power of two"),
        (vec!["roots", "--prime", "(2^63+2^34)^8+1", "--n", "2^273"], "out of range"),
        (vec!["roots", "--prime", "(2^63+2^34)^8+1", "--n", "1"], "out of range"),
        (vec!["primes", "search", "--k", "6"], "power of two"),
        (vec!["primes", "search", "--k", "8", "--w-min", "70", "--w-max", "80"], "w-max"),
    ] {
        let o = srgfn(&args);
        let err = stderr(&o);
        assert!(!o.status.success(), "{args:?}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
