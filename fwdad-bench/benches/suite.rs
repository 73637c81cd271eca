//! Criterion benches of the suite, for detailed runs of one kernel:
//! `cargo bench -p fwdad-bench -- 'sum_sin'`. The report binary
//! (`cargo run --release -p fwdad-bench --bin report`) runs the whole suite in a few
//! minutes and writes `BENCHMARKS.md`; these benches give criterion's statistics for the
//! same variants.

use criterion::{criterion_group, criterion_main, Criterion};
use fwdad::prelude::*;
use fwdad_bench::optim::{self, W};
use fwdad_bench::{ba, fd, gmm, rng::Rng, simple};
use std::hint::black_box;

fn one_direction(c: &mut Criterion) {
    let mut r = Rng::new(1);
    let x = r.vec(simple::N_SUM, -2.0, 2.0);
    let dx = r.vec(simple::N_SUM, -1.0, 1.0);
    let xd = simple::duals(&x, &dx);
    let mut buf = vec![0.0; x.len()];

    let mut g = c.benchmark_group("slice_sum");
    g.bench_function("primal", |b| b.iter(|| simple::slice_sum(black_box(&x))));
    g.bench_function("rule", |b| {
        b.iter(|| {
            let y = simple::slice_sum_frule(Dual::new(black_box(&x[..]), &dx[..]));
            y.primal + y.tangent
        })
    });
    g.bench_function("rule_iter_sum", |b| {
        b.iter(|| {
            let y = simple::slice_sum_iter_frule(Dual::new(black_box(&x[..]), &dx[..]));
            y.primal + y.tangent
        })
    });
    g.bench_function("hand", |b| {
        b.iter(|| simple::slice_sum_hand(black_box(&x), &dx))
    });
    g.bench_function("num_dual", |b| {
        b.iter(|| simple::slice_sum_nd(black_box(&xd)))
    });
    g.bench_function("fd", |b| {
        b.iter(|| fd::jvp(simple::slice_sum, black_box(&x), &dx, &mut buf))
    });
    g.finish();

    let mut g = c.benchmark_group("sum_sin");
    g.bench_function("primal", |b| b.iter(|| simple::sum_sin(black_box(&x))));
    g.bench_function("rule", |b| {
        b.iter(|| {
            let y = simple::sum_sin_frule(Dual::new(black_box(&x[..]), &dx[..]));
            y.primal + y.tangent
        })
    });
    g.bench_function("rule_map_sum", |b| {
        b.iter(|| {
            let y = simple::sum_sin_iter_frule(Dual::new(black_box(&x[..]), &dx[..]));
            y.primal + y.tangent
        })
    });
    g.bench_function("hand", |b| {
        b.iter(|| simple::sum_sin_hand(black_box(&x), &dx))
    });
    g.bench_function("num_dual", |b| {
        b.iter(|| simple::sum_sin_nd(black_box(&xd)))
    });
    g.bench_function("fd", |b| {
        b.iter(|| fd::jvp(simple::sum_sin, black_box(&x), &dx, &mut buf))
    });
    g.finish();

    let n = simple::N_MATVEC;
    let (a, da) = (r.vec(n * n, -1.0, 1.0), r.vec(n * n, -1.0, 1.0));
    let (v, dv) = (r.vec(n, -1.0, 1.0), r.vec(n, -1.0, 1.0));
    let (ad, vd) = (simple::duals(&a, &da), simple::duals(&v, &dv));
    let (mut y, mut dy) = (vec![0.0; n], vec![0.0; n]);
    let mut ny = vec![num_dual::Dual64::from(0.0); n];
    let mut g = c.benchmark_group("matvec8");
    g.bench_function("primal", |b| {
        b.iter(|| simple::matvec(black_box(&a), &v, &mut y))
    });
    g.bench_function("rule", |b| {
        b.iter(|| {
            simple::matvec_frule(
                Dual::new(black_box(&a[..]), &da[..]),
                Dual::new(&v[..], &dv[..]),
                Dual::new(&mut y[..], &mut dy[..]),
            )
        })
    });
    g.bench_function("num_dual", |b| {
        b.iter(|| simple::matvec_nd(black_box(&ad), &vd, &mut ny))
    });
    g.finish();
}

fn gradients(c: &mut Criterion) {
    for n in [10, 100] {
        let x = optim::point(n);
        let mut g1 = vec![0.0; n];
        let mut seeds = vec![[0.0; W]; n];
        let mut xd = optim::nd_inputs::<W>(&x);
        let mut g = c.benchmark_group(format!("rosenbrock_gradient_{n}"));
        g.bench_function("primal", |b| b.iter(|| optim::rosenbrock(black_box(&x))));
        g.bench_function("rule", |b| {
            b.iter(|| gradient(optim::rosenbrock {}, black_box(&x)))
        });
        g.bench_function("rule_powi", |b| {
            b.iter(|| gradient(optim::rosenbrock_powi {}, black_box(&x)))
        });
        g.bench_function("hand_jvp", |b| {
            b.iter(|| {
                optim::chunked_gradient(
                    optim::rosenbrock_jvp_hand::<W>,
                    black_box(&x),
                    &mut seeds,
                    &mut g1,
                )
            })
        });
        g.bench_function("analytic", |b| {
            b.iter(|| optim::rosenbrock_grad_hand(black_box(&x), &mut g1))
        });
        g.bench_function("num_dual", |b| {
            b.iter(|| optim::nd_gradient(optim::rosenbrock_nd, black_box(&mut xd), &mut g1))
        });
        g.finish();
    }
}

fn bundle_adjustment(c: &mut Criterion) {
    let inst = ba::Instance::load("ba1_n49_m7776_p31843.txt")
        .unwrap_or_else(|| ba::Instance::generate(49, 7776, 31843, 1));
    let seeds = ba::Seeds::default();
    let mut g = c.benchmark_group("ba_block");
    g.bench_function("residual", |b| {
        b.iter(|| {
            let (cam, x, w, fx, fy) = black_box(&inst).observation(7);
            ba::ba_residual(cam, x, w, fx, fy)
        })
    });
    g.bench_function("rule", |b| {
        b.iter(|| ba::block_rule(black_box(&inst), 7, &seeds))
    });
    g.bench_function("driver", |b| {
        b.iter(|| ba::block_driver(black_box(&inst), 7))
    });
    g.bench_function("hand", |b| b.iter(|| ba::block_hand(black_box(&inst), 7)));
    g.bench_function("num_dual", |b| b.iter(|| ba::block_nd(black_box(&inst), 7)));
    g.bench_function("fd", |b| b.iter(|| ba::block_fd(black_box(&inst), 7)));
    g.finish();
}

fn gaussian_mixture(c: &mut Criterion) {
    let inst = gmm::Instance::load("gmm_d2_K5.txt")
        .unwrap_or_else(|| gmm::Instance::generate(2, 5, 1000, 5));
    let np = inst.nparams();
    let mut gh = vec![0.0; np];
    let mut work = optim::nd_inputs::<W>(&inst.theta);
    let mut g = c.benchmark_group("gmm_d2_K5");
    g.sample_size(20);
    g.bench_function("objective", |b| b.iter(|| black_box(&inst).objective()));
    g.bench_function("rule_gradient", |b| {
        b.iter(|| gmm::gradient_rule(black_box(&inst)))
    });
    g.bench_function("hand_gradient", |b| {
        b.iter(|| {
            let i = black_box(&inst);
            gmm::gmm_grad_hand(&i.theta, &i.x, i.d, i.k, i.gamma, i.m, &mut gh)
        })
    });
    g.bench_function("num_dual_gradient", |b| {
        b.iter(|| gmm::gradient_nd(black_box(&inst), &mut work, &mut gh))
    });
    g.finish();
}

criterion_group!(
    benches,
    one_direction,
    gradients,
    bundle_adjustment,
    gaussian_mixture
);
criterion_main!(benches);
