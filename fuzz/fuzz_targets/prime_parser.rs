//! Any string → either a clear error or a prime that re-parses to itself.
#![no_main]
use libfuzzer_sys::fuzz_target;
use srgfn_gen::Prime;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if text.len() > 200 {
        return;
    }
    match Prime::parse(text) {
        Ok(p) => {
            // a valid prime prints itself canonically and parses back to the same prime
            let again = Prime::parse(&p.to_string()).expect("canonical form parses");
            assert_eq!(again, p);
            assert_eq!(p.two_adicity(), p.minus_one().trailing_zeros().unwrap() as u32);
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
