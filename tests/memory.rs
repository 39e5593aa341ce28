//! Sizes that do not fit are refused before anything is allocated, with what
//! is needed and what there is; no size reachable from the API aborts.

use srgfn::memory::{self, check, check_transform, host_available, human, plan_need, Need};
use srgfn::{DeviceEntry, Fft, Session};
use srgfn_gen::catalog;
use srgfn_gen::emit::variants_for;

fn session() -> Session {
    Session::open(None).expect("an OpenCL device (PoCL) is needed")
}

/// The default device, described as a GPU with the given limits.
fn gpu(global: u64, max_alloc: u64) -> DeviceEntry {
    let mut d = session().device().clone();
    d.kind = "GPU".into();
    d.name = "Test GPU".into();
    (d.global_mem_bytes, d.max_alloc_bytes) = (global, max_alloc);
    d
}

const GIB: u64 = 1 << 30;

#[test]
fn huge_plans_are_refused_with_the_limits() {
    let s = session();
    let fft = Fft::new(&s, &catalog()[2]).unwrap();
    let dev = s.device().name.trim().to_string();
    for log_n in [31u32, 32, 40, 62] {
        let err = format!("{:#}", fft.plan(1 << log_n, 1).err().expect("refused"));
        let need = human(plan_need(fft.prime(), fft.variant(), 1 << log_n, 1, 1).device);
        assert!(err.starts_with(&format!("N = 2^{log_n} needs {need} on the device")), "{err}");
        assert!(err.contains(&format!("{dev} has {}", human(s.device().global_mem_bytes as u128))), "{err}");
        assert!(err.contains(&format!("largest buffer {}", human(s.device().max_alloc_bytes as u128))), "{err}");
    }
    // batches so large that N·batch·k words overflow 64 bits
    for batch in [1usize << 40, usize::MAX] {
        let err = format!("{:#}", fft.plan(1 << 20, batch).err().expect("refused"));
        assert!(err.contains(&format!("× batch {batch} needs")), "{err}");
    }
    // and the good path still works
    let mut plan = fft.plan(16, 1).unwrap();
    let x: Vec<_> = (0u32..16).map(num_bigint::BigUint::from).collect();
    let mut v = plan.upload(&x).unwrap();
    plan.forward(&mut v).unwrap();
    plan.inverse(&mut v).unwrap();
    assert_eq!(plan.download(&v).unwrap(), x);
}

/// The message of the issue: device and host amounts, each with what there is.
#[test]
fn the_message_names_every_amount() {
    let prime = &catalog()[2]; // k = 8: an element is 64 bytes
    let dev = gpu(140 * GIB, 35 * GIB);
    let err = format!("{:#}", check_transform(prime, 31, Some(&dev)).unwrap_err());
    let host = human((1u128 << 31) * memory::transform_host_bytes_per_element(prime));
    // data and scratch 2 × 128 GiB, twiddle table 2^27 elements = 8 GiB; each vector in
    // 4 segments of 32 GiB, the fewest within the largest buffer of 35 GiB
    assert!(
        err.starts_with("N = 2^31 needs 264 GiB on the device (largest buffer 32 GiB; Test GPU has 140 GiB, largest buffer 35 GiB)"),
        "{err}"
    );
    assert!(err.contains(&format!(" and {host} of host memory for the input and output (")), "{err}");
    assert!(err.ends_with(" free)"), "{err}");
    // what fits is accepted, and a too large buffer alone is refused
    let small = Need { device: 10 * GIB as u128, buffer: GIB as u128, host: 0 };
    check("x", small, Some(&dev), "").unwrap();
    let one_buffer = Need { buffer: 36 * GIB as u128, ..small };
    assert!(format!("{:#}", check("x", one_buffer, Some(&dev), "").unwrap_err()).contains("largest buffer 36 GiB"));
    // a CPU device's buffers are host memory: they count there too
    let mut cpu = dev.clone();
    cpu.kind = "CPU".into();
    cpu.global_mem_bytes = u64::MAX;
    cpu.max_alloc_bytes = u64::MAX;
    let free = host_available().expect("Linux has /proc/meminfo") as u128;
    let too_much = Need { device: free + GIB as u128, buffer: GIB as u128, host: 0 };
    let err = format!("{:#}", check("x", too_much, Some(&cpu), "").unwrap_err());
    assert!(err.contains("of host memory, the device's buffers included ("), "{err}");
}

#[test]
fn host_memory_is_read_and_checked() {
    let free = host_available().expect("Linux has /proc/meminfo");
    let total: u64 =
        std::fs::read_to_string("/proc/meminfo").unwrap().lines().next().unwrap().split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(free > 0 && free <= total * 1024, "{free} of {total} KiB");
    memory::check_host("a little", 1 << 20).unwrap();
    let err = format!("{:#}", memory::check_host("downloading everything", free as u128 * 2).unwrap_err());
    assert!(err.starts_with(&format!("downloading everything needs {} of host memory (", human(free as u128 * 2))), "{err}");
    assert_eq!(human(0), "0 bytes");
    assert_eq!(human(1536 << 20), "1.5 GiB");
    assert_eq!(human(64 << 40), "64 TiB");
    assert_eq!(human(1023 << 60), "1023 EiB");
    assert_eq!(human(3 << 74), "2^76 bytes");
    assert_eq!(human(u128::MAX), "over 2^128 bytes");
}

/// A product too long for the device is refused before its plan is made.
#[test]
fn products_are_checked_for_three_vectors() {
    let prime = &catalog()[2];
    let need = plan_need(prime, variants_for(prime)[0], 1 << 20, 1, 2);
    let one = memory::element_bytes(8, 1 << 20);
    assert_eq!(need.buffer, one);
    assert_eq!(need.device, 3 * one + memory::element_bytes(8, (1 << 20) / 16 + 1), "two vectors, scratch, table and 1/N");
    // a device with room for a plan but not for a product
    let dev = gpu((2 * one + one / 2) as u64, GIB);
    check("plan", plan_need(prime, variants_for(prime)[0], 1 << 20, 1, 1), Some(&dev), "").unwrap();
    assert!(check("product", need, Some(&dev), "").is_err());
}

/// A text file is sized from its length without reading it, then by its
/// lines that can hold an element: small values (two bytes a line) are
/// counted, blank and comment lines are not.
#[test]
fn text_files_are_sized_by_their_element_lines() {
    let prime = &catalog()[2];
    let dev = gpu(64 << 20, 64 << 20);
    let path = std::env::temp_dir().join(format!("srgfn-memory-test-{}.txt", std::process::id()));
    std::fs::write(&path, "1\n".repeat(1 << 20)).unwrap();
    let err = format!("{:#}", memory::check_input_file(&path, prime, false, Some(&dev)).unwrap_err());
    assert!(err.contains("(1048576 lines holding an element each): N = 2^20 needs"), "{err}");
    std::fs::write(&path, "  \n# 1 2 3\n\t\n".repeat(1 << 18) + "7 # last, no newline").unwrap();
    memory::check_input_file(&path, prime, false, Some(&dev)).unwrap();
    std::fs::remove_file(&path).ok();
}

/// A plan of the digits variant counts its table's suffix sums (two words per
/// digit of each entry) on top of the entries.
#[test]
fn digits_plans_count_the_tables_suffix_sums() {
    for prime in catalog().iter().filter(|p| p.k() >= 4) {
        let n = 1u128 << 20;
        let table = memory::element_bytes(prime.k(), n / prime.base_size() as u128);
        let digits = plan_need(prime, srgfn_gen::emit::Variant::Digits, n, 1, 1);
        let workgroup = plan_need(prime, srgfn_gen::emit::Variant::Workgroup, n, 1, 1);
        assert_eq!(digits.device - workgroup.device, 2 * table, "{prime}");
    }
}
