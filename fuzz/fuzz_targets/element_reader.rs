//! Any bytes as a text or binary element file → a clear error, or elements
//! that are canonical and below p (and re-encode to what was read).
#![no_main]
use libfuzzer_sys::fuzz_target;
use srgfn::io::{encode, parse_bin, read_text_from, Format};
use srgfn_gen::{prime::CATALOG, Field, Prime};

fuzz_target!(|data: &[u8]| {
    if data.is_empty() {
        return;
    }
    let field = Field::new(&Prime::parse_unchecked(CATALOG[(data[0] as usize) % 3]).unwrap()); // k = 2, 4, 8: cheap
    let body = &data[1..];
    let results = [read_text_from(body, "fuzz.txt", &field), parse_bin(body, "fuzz.bin", &field)];
    for (i, r) in results.into_iter().enumerate() {
        match r {
            Ok(elems) => {
                assert!(!elems.is_empty());
                for e in &elems {
                    field.validate(e).expect("canonical element");
                    assert!(field.to_biguint(e).unwrap() < *field.prime().modulus());
                }
                if i == 1 {
                    assert_eq!(encode(&elems, &field, Format::Bin).unwrap(), body);
                }
            }
            Err(e) => assert!(!format!("{e:#}").is_empty()),
        }
    }
});
