//! nalgebra kernels (`fwdad_bench::nalgebra_kernels`) through fwdad against num-dual's
//! own nalgebra support, measured in one process and written as the "nalgebra kernels"
//! section of `BENCHMARKS.md` (between its markers, or appended).
//!
//! ```text
//! cargo run --release -p fwdad-bench --features nalgebra --bin nalgebra_report [-- --no-write]
//! ```
//!
//! The variants of a kernel are sampled in turn (`fwdad_bench::timing`); each ratio is the
//! median over rounds of the ratio within a round, with the range over rounds.

use fwdad::prelude::*;
use fwdad_bench::nalgebra_kernels::{
    chain_matrices, covariance, cube_point, mahalanobis, mahalanobis_batch,
    mahalanobis_const_batch, mahalanobis_const_frule, mahalanobis_frule, mahalanobis_nd,
    mahalanobis_nd_batch, matvec_chain, matvec_chain_batch, matvec_chain_const_batch,
    matvec_chain_const_frule, matvec_chain_frule, matvec_chain_nd, matvec_chain_nd_batch, rotate,
    rotate_batch, rotate_frule, rotate_nd, rotate_nd_batch, rotate_real, spring_energy,
    spring_energy_frule, spring_energy_nd,
};
use fwdad_bench::optim::{nd_gradient, nd_inputs};
use fwdad_bench::timing::{measure_samples, Plan, Variant};
use nalgebra::{Const, Matrix3, SVector, Vector3, U1};
use num_dual::{Derivative, Dual64, DualSVec64};
use std::fmt::Write as _;
use std::hint::black_box;

const BEGIN: &str = "<!-- nalgebra-kernels:begin -->";
const END: &str = "<!-- nalgebra-kernels:end -->";

/// [`nd_gradient`] with every input carrying a derivative part (zeros outside the pass's
/// chunk), so that num-dual skips nothing.
fn nd_gradient_dense<const N: usize>(
    f: impl Fn(&[DualSVec64<N>]) -> DualSVec64<N>,
    xd: &mut [DualSVec64<N>],
    g: &mut [f64],
) -> f64 {
    let n = xd.len();
    let mut value = 0.0;
    let mut start = 0;
    while start < n {
        let end = (start + N).min(n);
        for (i, v) in xd.iter_mut().enumerate() {
            v.eps = if (start..end).contains(&i) {
                Derivative::derivative_generic(Const::<N>, U1, i - start)
            } else {
                Derivative::some(SVector::zeros())
            };
        }
        let y = f(xd);
        value = y.re;
        let eps = y.eps.unwrap_generic(Const::<N>, U1);
        g[start..end].copy_from_slice(&eps.as_slice()[..end - start]);
        start = end;
    }
    value
}

/// Median and range over rounds of `num[k] / den[k]`.
fn ratio(num: &[f64], den: &[f64]) -> String {
    let mut r: Vec<f64> = num.iter().zip(den).map(|(a, b)| a / b).collect();
    r.sort_by(f64::total_cmp);
    format!("{:.2} ({:.2}–{:.2})", r[r.len() / 2], r[0], r[r.len() - 1])
}

fn min_ns(s: &[f64]) -> String {
    let m = s.iter().copied().fold(f64::INFINITY, f64::min);
    format!("{m:.0} ns")
}

/// One table row: variants in the order primal, fwdad one direction, num-dual one
/// direction, fwdad all directions, num-dual all directions.
fn row(md: &mut String, name: &str, all: &str, plan: Plan, vs: &mut [Variant]) {
    let s = measure_samples(plan, vs);
    writeln!(
        md,
        "| {name} | {} | {} | {} | {} | {all} | {} | {} |",
        min_ns(&s[0]),
        ratio(&s[1], &s[0]),
        ratio(&s[2], &s[0]),
        ratio(&s[1], &s[2]),
        ratio(&s[3], &s[0]),
        ratio(&s[3], &s[4]),
    )
    .unwrap();
}

fn vec3(x: &Vector3<f64>, dx: &Vector3<f64>) -> Vector3<Dual64> {
    Vector3::from_fn(|i, _| Dual64::new(x[i], dx[i]))
}

fn main() {
    let write = !std::env::args().any(|a| a == "--no-write");
    let plan = Plan {
        samples: 101,
        ..Plan::standard()
    };
    let mut md = String::new();
    writeln!(
        md,
        "{BEGIN}\n## nalgebra kernels (issue 29)\n\n\
         Written by `cargo run --release -p fwdad-bench --features nalgebra --bin nalgebra_report` \
         (`codegen-units = 1`, thin LTO). `Vector3<f64>`/`Matrix3<f64>` code as users write it \
         (`fwdad_bench::nalgebra_kernels`), derived by `#[derive_frule]` (nalgebra's generic code on \
         fwdad's duals, with the runtime's rules where they are faster: linear solves by the \
         implicit rule, `f64` products and constant matrices kept `f64`, norms; see \
         `docs/libraries.md`), against the same code \
         generic over num-dual's `DualNum` on nalgebra types of num-dual duals: `Dual64` for one \
         direction, `DualSVec64<N>` for all directions (the inputs without derivative, \
         `from_re`, which num-dual skips); fwdad's all-directions pass is one `Batch<f64, N>` \
         rule call (for the spring cube a `GradientWorkspace` kept between calls, with the plan \
         it chose below, against num-dual in chunks of 8 with its buffers kept too). Each ratio is the median over 101 rounds of the ratio within a \
         round, with its range (wide on a machine shared with other jobs: read the medians); lower \
         is better, and fwdad ÷ num-dual < 1 means fwdad is faster. \
         The unit tests of the module check every derivative against a hand-derived one, \
         num-dual's and finite differences.\n\n\
         | kernel | primal | fwdad 1 dir ÷ primal | num-dual 1 dir ÷ primal | **fwdad ÷ num-dual, 1 dir** | all directions | fwdad all ÷ primal | **fwdad ÷ num-dual, all** |\n\
         |---|---|---|---|---|---|---|---|"
    )
    .unwrap();

    // Spring cube: 24 inputs.
    let x = cube_point();
    let dx: Vec<f64> = (0..x.len()).map(|i| (i as f64 * 0.7).cos()).collect();
    let xd: Vec<Dual64> = x
        .iter()
        .zip(&dx)
        .map(|(&v, &t)| Dual64::new(v, t))
        .collect();
    let (k, rest) = (30.0, 1.0);
    let mut xs = nd_inputs::<8>(&x);
    let (mut g, mut ng) = (vec![0.0; x.len()], vec![0.0; x.len()]);
    let bound = bind(spring_energy {}, (Wrt, k, rest));
    // As an optimiser calls it, buffers kept between calls as num-dual's passes keep theirs:
    // the workspace times its plans (width, `Batch` or `MaybeZero`) on its first call.
    let ws = std::cell::RefCell::new(fwdad::GradientWorkspace::default());
    row(
        &mut md,
        "spring cube energy (8 nodes, 12 springs, `norm`)",
        "gradient, 24 inputs (`GradientWorkspace`, its plan below)",
        plan,
        &mut [
            ("primal", Box::new(|| spring_energy(black_box(&x), k, rest))),
            (
                "fwdad",
                Box::new(|| {
                    spring_energy_frule(
                        Dual::new(black_box(&x[..]), black_box(&dx[..])),
                        Dual::new(k, 0.0),
                        Dual::new(rest, 0.0),
                    )
                    .tangent
                }),
            ),
            (
                "num-dual",
                Box::new(|| spring_energy_nd(black_box(&xd), k, rest).eps),
            ),
            (
                "fwdad gradient",
                Box::new(|| {
                    let mut ws = ws.borrow_mut();
                    let (_, gr) = ws.gradient(bound, black_box(&x));
                    g.copy_from_slice(gr);
                    g[0]
                }),
            ),
            (
                "num-dual gradient",
                Box::new(|| {
                    nd_gradient(
                        |x| spring_energy_nd(x, k, rest),
                        black_box(&mut xs),
                        &mut ng,
                    )
                }),
            ),
        ],
    );

    // Why the spring cube's gradient stays above num-dual's: num-dual skips the derivative
    // arithmetic of every input outside the pass's chunk (`Derivative::none()`), so a
    // spring whose nodes are all outside it costs a primal. The same passes with every
    // input carrying a derivative part (zeros outside the chunk) show what that saves.
    let mut dense = nd_inputs::<8>(&x);
    let mut ng2 = vec![0.0; x.len()];
    let s = measure_samples(
        plan,
        &mut [
            (
                "num-dual gradient",
                Box::new(|| {
                    nd_gradient(
                        |x| spring_energy_nd(x, k, rest),
                        black_box(&mut xs),
                        &mut ng,
                    )
                }),
            ),
            (
                "num-dual gradient, no skipping",
                Box::new(|| {
                    nd_gradient_dense(
                        |x| spring_energy_nd(x, k, rest),
                        black_box(&mut dense),
                        &mut ng2,
                    )
                }),
            ),
            (
                "fwdad gradient",
                Box::new(|| {
                    let mut ws = ws.borrow_mut();
                    let (_, gr) = ws.gradient(bound, black_box(&x));
                    g.copy_from_slice(gr);
                    g[0]
                }),
            ),
        ],
    );
    let width = match ws.borrow().plan(x.len()) {
        Some(p) => format!(
            "{} lanes per pass with {} tangents (`GradientWorkspace`, kept between calls, chose it by timing its plans)",
            p.width,
            if p.known_zeros { "`MaybeZero`" } else { "`Batch`" }
        ),
        None => format!("{} lanes per pass", fwdad::drivers::gradient_width(x.len())),
    };
    let spring_note = format!(
        "Spring cube gradient: fwdad runs {width}; num-dual's passes are of 8. num-dual skips \
         the derivative arithmetic of the inputs outside a pass's chunk (their derivative part \
         is `None`), so the springs away from the chunk cost it a primal: with every input \
         carrying a derivative part (zeros outside the chunk), its gradient takes {} × as \
         long, and fwdad's gradient ÷ that one is {}. `MaybeZero` tangents skip the same work \
         (a known-zero flag per value); `Batch` tangents are dense. The one-shot \
         `fwdad::gradient` times each plan on three single calls, which on a sub-µs gradient \
         may keep a slower one (`Batch` 32 in a run of this day: 1.06–1.16 × num-dual).\n",
        ratio(&s[1], &s[0]),
        ratio(&s[2], &s[1]),
    );

    // Rodrigues rotation: 6 inputs, 3 outputs.
    let (omega, v) = (Vector3::new(0.3, -0.5, 0.8), Vector3::new(1.0, 2.0, -0.5));
    let (dw, dv) = (Vector3::new(0.2, 0.1, -0.4), Vector3::new(-0.3, 0.5, 0.9));
    row(
        &mut md,
        "rotation `R(ω) v`, Rodrigues (`Matrix3` products)",
        "Jacobian 3×6 (one pass of 6)",
        plan,
        &mut [
            (
                "primal",
                Box::new(|| rotate(black_box(&omega), black_box(&v))[0]),
            ),
            (
                "fwdad",
                Box::new(|| {
                    rotate_frule(
                        Dual::new(black_box(&omega), &dw),
                        Dual::new(black_box(&v), &dv),
                    )
                    .tangent[0]
                }),
            ),
            (
                "num-dual",
                Box::new(|| {
                    rotate_nd(&vec3(black_box(&omega), &dw), &vec3(black_box(&v), &dv))[0].eps
                }),
            ),
            (
                "fwdad all",
                Box::new(|| rotate_batch(black_box(&omega), black_box(&v)).0[0]),
            ),
            (
                "num-dual all",
                Box::new(|| rotate_nd_batch(black_box(&omega), black_box(&v)).0[0]),
            ),
        ],
    );

    // The same generic code on both scalar types (no macro): rotation only.
    let lift =
        |x: &Vector3<f64>, dx: &Vector3<f64>| Vector3::from_fn(|i, _| Dual::new(x[i], dx[i]));
    let s = measure_samples(
        plan,
        &mut [
            (
                "primal",
                Box::new(|| rotate(black_box(&omega), black_box(&v))[0]),
            ),
            (
                "fwdad Dual<f64>",
                Box::new(|| {
                    rotate_real(&lift(black_box(&omega), &dw), &lift(black_box(&v), &dv))[0].tangent
                }),
            ),
            (
                "num-dual Dual64",
                Box::new(|| {
                    rotate_real(&vec3(black_box(&omega), &dw), &vec3(black_box(&v), &dv))[0].eps
                }),
            ),
        ],
    );
    let scalar_only = format!(
        "Scalar types alone, without the macro's code: the rotation written once over `RealField` \
         (`rotate_real`), one direction, on fwdad's `Dual<f64>` ÷ on num-dual's `Dual64`: {} \
         (÷ primal: {} and {}).\n",
        ratio(&s[1], &s[2]),
        ratio(&s[1], &s[0]),
        ratio(&s[2], &s[0]),
    );

    // Mahalanobis: gradient in x.
    let (mx, mu, sigma) = (
        Vector3::new(0.7, -0.4, 1.3),
        Vector3::new(0.1, 0.2, -0.3),
        covariance(),
    );
    let mdx = Vector3::new(0.3, -1.0, 0.5);
    let (zv, zm) = (Vector3::zeros(), Matrix3::zeros());
    let sigma_nd = sigma.map(Dual64::from);
    row(
        &mut md,
        "Mahalanobis, `cholesky().solve`",
        "gradient in x (one pass of 3)",
        plan,
        &mut [
            (
                "primal",
                Box::new(|| mahalanobis(black_box(&mx), &mu, &sigma)),
            ),
            (
                "fwdad",
                Box::new(|| {
                    mahalanobis_frule(
                        Dual::new(black_box(&mx), &mdx),
                        Dual::new(&mu, &zv),
                        Dual::new(&sigma, &zm),
                    )
                    .tangent
                }),
            ),
            (
                "num-dual",
                Box::new(|| {
                    mahalanobis_nd(&vec3(black_box(&mx), &mdx), &vec3(&mu, &zv), &sigma_nd).eps
                }),
            ),
            (
                "fwdad all",
                Box::new(|| mahalanobis_batch(black_box(&mx), &mu, &sigma)[0]),
            ),
            (
                "num-dual all",
                Box::new(|| mahalanobis_nd_batch(black_box(&mx), &mu, &sigma)[0]),
            ),
        ],
    );

    row(
        &mut md,
        "Mahalanobis, μ and Σ declared `inactive`",
        "gradient in x (one pass of 3)",
        plan,
        &mut [
            (
                "primal",
                Box::new(|| mahalanobis(black_box(&mx), &mu, &sigma)),
            ),
            (
                "fwdad",
                Box::new(|| {
                    mahalanobis_const_frule(Dual::new(black_box(&mx), &mdx), &mu, &sigma).tangent
                }),
            ),
            (
                "num-dual",
                Box::new(|| {
                    mahalanobis_nd(&vec3(black_box(&mx), &mdx), &vec3(&mu, &zv), &sigma_nd).eps
                }),
            ),
            (
                "fwdad all",
                Box::new(|| mahalanobis_const_batch(black_box(&mx), &mu, &sigma)[0]),
            ),
            (
                "num-dual all",
                Box::new(|| mahalanobis_nd_batch(black_box(&mx), &mu, &sigma)[0]),
            ),
        ],
    );

    // Matrix-vector chain: gradient in x.
    let (a, b) = chain_matrices();
    let (cx, cdx) = (Vector3::new(0.4, -1.1, 0.6), Vector3::new(1.0, 0.5, -0.25));
    let (a_nd, b_nd) = (a.map(Dual64::from), b.map(Dual64::from));
    row(
        &mut md,
        "`xᵀ Aᵀ B A x`, 3×3 matrix-vector chain",
        "gradient in x (one pass of 3)",
        plan,
        &mut [
            ("primal", Box::new(|| matvec_chain(&a, &b, black_box(&cx)))),
            (
                "fwdad",
                Box::new(|| {
                    matvec_chain_frule(
                        Dual::new(&a, &zm),
                        Dual::new(&b, &zm),
                        Dual::new(black_box(&cx), &cdx),
                    )
                    .tangent
                }),
            ),
            (
                "num-dual",
                Box::new(|| matvec_chain_nd(&a_nd, &b_nd, &vec3(black_box(&cx), &cdx)).eps),
            ),
            (
                "fwdad all",
                Box::new(|| matvec_chain_batch(&a, &b, black_box(&cx))[0]),
            ),
            (
                "num-dual all",
                Box::new(|| matvec_chain_nd_batch(&a, &b, black_box(&cx))[0]),
            ),
        ],
    );
    row(
        &mut md,
        "matrix-vector chain, A and B declared `inactive`",
        "gradient in x (one pass of 3)",
        plan,
        &mut [
            ("primal", Box::new(|| matvec_chain(&a, &b, black_box(&cx)))),
            (
                "fwdad",
                Box::new(|| {
                    matvec_chain_const_frule(&a, &b, Dual::new(black_box(&cx), &cdx)).tangent
                }),
            ),
            (
                "num-dual",
                Box::new(|| matvec_chain_nd(&a_nd, &b_nd, &vec3(black_box(&cx), &cdx)).eps),
            ),
            (
                "fwdad all",
                Box::new(|| matvec_chain_const_batch(&a, &b, black_box(&cx))[0]),
            ),
            (
                "num-dual all",
                Box::new(|| matvec_chain_nd_batch(&a, &b, black_box(&cx))[0]),
            ),
        ],
    );
    md.push('\n');
    md.push_str(&spring_note);
    md.push('\n');
    md.push_str(&scalar_only);
    md.push_str(END);
    md.push('\n');
    println!("{md}");
    if write {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../BENCHMARKS.md");
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        let new = match (old.find(BEGIN), old.find(END)) {
            (Some(b), Some(e)) if b < e => {
                format!("{}{}{}", &old[..b], md.trim_end(), &old[e + END.len()..])
            }
            _ => format!("{}\n{}", old.trim_end_matches('\n').to_string() + "\n", md),
        };
        std::fs::write(&path, new).expect("write BENCHMARKS.md");
        eprintln!("wrote the nalgebra section of BENCHMARKS.md");
    }
}
