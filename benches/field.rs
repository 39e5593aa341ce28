//! Criterion benchmarks: host digit arithmetic, and small transforms on the
//! default OpenCL device (PoCL without a GPU).  GPU numbers: `srgfn bench`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use srgfn::{Fft, Session};
use srgfn_gen::{catalog, Field};

fn host_arithmetic(c: &mut Criterion) {
    for prime in catalog().iter().filter(|p| [8, 32].contains(&p.k())) {
        let f = Field::new(prime);
        let mut rng = srgfn_suite::rng(1);
        let x = srgfn_suite::random_digits(&f, &mut rng);
        let y = srgfn_suite::random_digits(&f, &mut rng);
        c.bench_function(&format!("host add k={}", prime.k()), |b| b.iter(|| f.add(black_box(&x), black_box(&y))));
        c.bench_function(&format!("host mul k={}", prime.k()), |b| b.iter(|| f.mul(black_box(&x), black_box(&y))));
        c.bench_function(&format!("host shift k={}", prime.k()), |b| b.iter(|| f.negacyclic_shift(black_box(&x), 3)));
    }
}

fn device_transforms(c: &mut Criterion) {
    let Ok(session) = Session::open(None) else { return };
    let prime = &catalog()[2];
    let fft = Fft::new(&session, prime).expect("kernels");
    for log_n in [10u32, 12] {
        let n = 1usize << log_n;
        let mut plan = fft.plan(n, 1).expect("plan");
        let f = fft.field().clone();
        let mut rng = srgfn_suite::rng(2);
        let x: Vec<_> = (0..n).map(|_| srgfn_suite::random_digits(&f, &mut rng)).collect();
        let mut v = plan.upload_digits(&x).expect("upload");
        c.bench_function(&format!("forward N=2^{log_n} k=8 on {}", session.device().name.trim()), |b| {
            b.iter(|| {
                plan.forward(&mut v).expect("forward");
                plan.finish().expect("finish");
            })
        });
    }
}

criterion_group!(benches, host_arithmetic, device_transforms);
criterion_main!(benches);
