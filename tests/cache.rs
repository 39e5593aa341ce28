//! The on-disk program cache: reuse, corrupt entries rebuilt, unsafe folders refused.

use srgfn::internals::SessionInternals as _;
use srgfn::{select_device, Fft, ProgramCache, Session};

fn private_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("srgfn-cache-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

const SRC: &str = "__kernel void add_one(__global ulong *x) { x[get_global_id(0)] += 1; }";

fn run(s: &Session) -> Vec<u64> {
    let p = s.program("add_one", SRC).unwrap();
    let b = ocl::Buffer::<u64>::builder().queue(s.queue().clone()).len(4).copy_host_slice(&[1, 2, 3, 4]).build().unwrap();
    let k = ocl::Kernel::builder().program(&p).name("add_one").queue(s.queue().clone()).global_work_size(4).arg(&b).build().unwrap();
    unsafe { k.enq().unwrap() };
    let mut v = vec![0u64; 4];
    b.read(&mut v).enq().unwrap();
    v
}

#[test]
fn cached_binaries_are_reused_and_corrupt_ones_rebuilt() {
    let dir = private_dir("reuse");
    let dev = select_device(None).unwrap();
    let s1 = Session::on(dev.clone(), ProgramCache::at(&dir).unwrap().with_pocl_binaries()).unwrap();
    assert_eq!(run(&s1), [2, 3, 4, 5]);
    let entries: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(entries.len(), 1, "one binary stored");
    // a fresh session loads it from disk
    let s2 = Session::on(dev.clone(), ProgramCache::at(&dir).unwrap().with_pocl_binaries()).unwrap();
    assert_eq!(run(&s2), [2, 3, 4, 5]);
    // corrupt the entry's checksum (the binary itself still loads): the entry is
    // not trusted but removed, and the program rebuilt from source and stored
    // again; an entry trusted without its checksum would stay as it is
    let mut data = std::fs::read(&entries[0]).unwrap();
    let sum_start = b"srgfn-program-binary v1\n".len() + 65; // the magic line, then the key line
    data[sum_start] = if data[sum_start] == b'0' { b'1' } else { b'0' };
    std::fs::write(&entries[0], &data).unwrap();
    let s3 = Session::on(dev, ProgramCache::at(&dir).unwrap().with_pocl_binaries()).unwrap();
    assert_eq!(run(&s3), [2, 3, 4, 5]);
    assert_ne!(std::fs::read(&entries[0]).unwrap(), data, "the corrupt entry was replaced");
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg(unix)]
#[test]
fn a_cache_writable_by_others_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = private_dir("unsafe");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let err = ProgramCache::at(&dir).unwrap_err().to_string();
    assert!(err.contains("writable by group or others"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// PoCL compiles every kernel of a program to hand out its binary: its
/// programs are stored only when asked; other platforms' always.
#[test]
fn pocl_binaries_are_stored_only_when_asked() {
    let dir = private_dir("pocl");
    let cache = ProgramCache::at(&dir).unwrap();
    let mut dev = select_device(None).unwrap();
    let real = dev.clone();
    dev.platform = "Portable Computing Language".into();
    assert!(!cache.stores_binaries_of(&dev));
    assert!(cache.clone().with_pocl_binaries().stores_binaries_of(&dev));
    dev.platform = "NVIDIA CUDA".into();
    assert!(cache.stores_binaries_of(&dev));
    assert!(!ProgramCache::disabled().stores_binaries_of(&dev));
    if real.is_pocl() {
        let s = Session::on(real, cache).unwrap();
        assert_eq!(run(&s), [2, 3, 4, 5]);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "nothing stored");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A plan builds its forward transform's programs only (a cold forward start
/// waits for neither `inverse.cl` nor `product.cl`); its first inverse builds
/// the inverse's scaling, one program more, its first product one more, and
/// `Fft::prepare` builds all of them up front.
#[test]
fn a_plan_builds_the_inverse_and_product_programs_at_first_use() {
    let dev = select_device(None).unwrap();
    let prime = srgfn_gen::catalog_prime(4).unwrap();
    let x = srgfn_suite::random_values(prime, 64, 11);
    let stored = |d: &std::path::Path| std::fs::read_dir(d).unwrap().count();
    let dir = private_dir("ops");
    let s = Session::on(dev.clone(), ProgramCache::at(&dir).unwrap().with_pocl_binaries()).unwrap();
    let fft = Fft::new(&s, prime).unwrap();
    let mut plan = fft.plan(64, 1).unwrap();
    let mut v = plan.upload(&x).unwrap();
    plan.forward(&mut v).unwrap();
    plan.finish().unwrap();
    let forward = stored(&dir);
    assert!(forward >= 2, "the passes and the transfers stored ({forward})");
    plan.inverse(&mut v).unwrap();
    assert_eq!(plan.download(&v).unwrap(), x, "inverse(forward(x)) = x");
    assert_eq!(stored(&dir), forward + 1, "the first inverse builds one program more");
    plan.inverse(&mut v).unwrap();
    assert_eq!(stored(&dir), forward + 1, "and the second none");
    let w = plan.upload(&x).unwrap();
    plan.pointwise_mul(&mut v, &w).unwrap();
    assert_eq!(stored(&dir), forward + 2, "the first product builds one program more");
    let dir2 = private_dir("ops-prepared");
    let s2 = Session::on(dev, ProgramCache::at(&dir2).unwrap().with_pocl_binaries()).unwrap();
    let fft2 = Fft::new(&s2, prime).unwrap();
    fft2.prepare(64).unwrap();
    assert_eq!(stored(&dir2), forward + 2, "Fft::prepare builds the inverse's and the product's programs too");
    let mut plan2 = fft2.plan(64, 1).unwrap();
    let mut w = plan2.upload(&x).unwrap();
    plan2.forward(&mut w).unwrap();
    plan2.inverse(&mut w).unwrap();
    assert_eq!(plan2.download(&w).unwrap(), x);
    assert_eq!(stored(&dir2), forward + 2, "nothing built after Fft::prepare");
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(&dir2).ok();
}
