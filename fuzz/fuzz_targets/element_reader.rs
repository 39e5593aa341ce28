//! Any bytes as a text or binary element file → a clear error, or elements
//! that are canonical and below p (and re-encode to what was read).
#![no_main]
use libfuzzer_sys::fuzz_target;
use srgfn::io::{bin_of, no_progress, parse_bin, read_text_from, text_of};
use srgfn_gen::{prime::CATALOG, Field, Prime};

fuzz_target!(|data: &[u8]| {
    if data.is_empty() {
        return;
    }
    let prime = Prime::parse_unchecked(CATALOG[(data[0] as usize) % 3]).unwrap(); // k = 2, 4, 8: cheap
    let field = Field::new(&prime);
    let body = &data[1..];
    match read_text_from(body, "fuzz.txt", &prime, &no_progress) {
        Ok(values) => {
            assert!(!values.is_empty());
            assert!(values.iter().all(|v| v < prime.modulus()));
            // printed and read again: the same values
            assert_eq!(read_text_from(&text_of(&values)[..], "again.txt", &prime, &no_progress).unwrap(), values);
        }
        Err(e) => assert!(!format!("{e:#}").is_empty()),
    }
    match parse_bin(body, "fuzz.bin", &field) {
        Ok(words) => {
            assert!(!words.is_empty());
            for e in words.chunks(field.k()) {
                field.validate(e).expect("canonical element");
                assert!(field.to_biguint(e).unwrap() < *prime.modulus());
            }
            assert_eq!(bin_of(&words), body);
        }
        Err(e) => assert!(!format!("{e:#}").is_empty()),
    }
});
