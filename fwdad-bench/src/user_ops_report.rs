//! The report's section on the user's own types ([`crate::user_ops`]): each kernel's
//! derived rule, in one direction and in `Batch<f64, 8>`, against the expert JVP in the
//! same lanes and against num-dual on the same code made generic (`Dual64`,
//! `DualSVec64<8>`), timed in rounds in one process ([`measure_kernel`]).

use crate::expert_report::{measure_kernel, ns, pct, Measured};
use crate::timing::Plan;
use crate::user_ops::{self as k, Vec3, V3};
use fwdad::prelude::*;
use fwdad::ConstTangent;
use num_dual::{Derivative, Dual64, DualNum, DualSVec64};
use std::fmt::Write as _;
use std::hint::black_box;

type B8 = Batch<f64, 8>;
type Nd8 = DualSVec64<8>;

/// The section's marker name in `BENCHMARKS.md`.
pub const SECTION: &str = "user-operators";

/// Variant order of every kernel (the pairs below index it).
const VARIANTS: [&str; 7] = [
    "primal",
    "rule",
    "expert",
    "num-dual",
    "rule ×8",
    "expert ×8",
    "num-dual ×8",
];
/// (rule, expert), (rule, primal), (expert, primal), (rule, num-dual), and the same for
/// eight lanes.
const PAIRS: [(usize, usize); 8] = [
    (1, 2),
    (1, 0),
    (2, 0),
    (1, 3),
    (4, 5),
    (4, 0),
    (5, 0),
    (4, 6),
];

fn b8(r: &mut crate::rng::Rng) -> B8 {
    Batch(std::array::from_fn(|_| r.uniform(-1.0, 1.0)))
}

// Every variant returns a sum of all its tangent lanes: a variant that read one lane would
// let LLVM drop the other lanes' arithmetic.

fn sum8(b: B8) -> f64 {
    b.0.iter().sum()
}

fn sum_v3(v: k::Vec3Tangent<B8>) -> f64 {
    sum8(v.x) + sum8(v.y) + sum8(v.z)
}

fn sum_nd8(d: Nd8) -> f64 {
    d.re + d
        .eps
        .unwrap_generic(nalgebra::Const::<8>, nalgebra::U1)
        .sum()
}

fn nd1(x: f64, d: f64) -> Dual64 {
    Dual64::new(x, d)
}

fn nd8(x: f64, d: B8) -> Nd8 {
    Nd8::new(x, Derivative::some(nalgebra::SVector::from(d.0)))
}

/// num-dual vectors from primal vectors and their tangents.
fn nd_vecs<T: k::HandLanes, D: DualNum<Primitive = f64> + Copy>(
    p: &[Vec3],
    d: &[k::Vec3Tangent<T>],
    f: impl Fn(f64, T) -> D,
) -> Vec<V3<D>> {
    p.iter()
        .zip(d)
        .map(|(p, d)| V3::new(f(p.x, d.x), f(p.y, d.y), f(p.z, d.z)))
        .collect()
}

/// Times the three kernels.
pub fn measure(plan: Plan) -> Vec<Measured> {
    let mut out = Vec::new();
    let mut r = crate::rng::Rng::new(2712);
    let names = VARIANTS;

    // Velocity Verlet, 16 particles: every call restarts from the same state.
    let c = k::VerletCase::new(&mut r);
    let n = c.p.len();
    let dp1 = k::tangents(&mut r, n, |r| r.uniform(-1.0, 1.0));
    let dv1 = k::tangents(&mut r, n, |r| r.uniform(-1.0, 1.0));
    let dp8 = k::tangents(&mut r, n, b8);
    let dv8 = k::tangents(&mut r, n, b8);
    let (mut scratch, mut df1, mut df8) = (c.f.clone(), dp1.clone(), dp8.clone());
    k::lj_forces_expert(&c.p, &dp1, c.eps, c.sigma, &mut scratch, &mut df1);
    k::lj_forces_expert(&c.p, &dp8, c.eps, c.sigma, &mut scratch, &mut df8);
    let (pn1, vn1, fn1) = (
        nd_vecs(&c.p, &dp1, nd1),
        nd_vecs(&c.v, &dv1, nd1),
        nd_vecs(&c.f, &df1, nd1),
    );
    let (pn8, vn8, fn8) = (
        nd_vecs(&c.p, &dp8, nd8),
        nd_vecs(&c.v, &dv8, nd8),
        nd_vecs(&c.f, &df8, nd8),
    );
    let c = &c;
    // A state and its tangents, copied in before each step.
    macro_rules! state {
        ($($src:expr),*) => { ($($src.clone()),*) };
    }
    let (mut p0, mut v0, mut f0) = state!(c.p, c.v, c.f);
    let (mut p1, mut v1, mut f1, mut tp1, mut tv1, mut tf1) = state!(c.p, c.v, c.f, dp1, dv1, df1);
    let (mut p2, mut v2, mut f2, mut tp2, mut tv2, mut tf2) = state!(c.p, c.v, c.f, dp1, dv1, df1);
    let (mut q3, mut w3, mut g3) = state!(pn1, vn1, fn1);
    let (mut p4, mut v4, mut f4, mut tp4, mut tv4, mut tf4) = state!(c.p, c.v, c.f, dp8, dv8, df8);
    let (mut p5, mut v5, mut f5, mut tp5, mut tv5, mut tf5) = state!(c.p, c.v, c.f, dp8, dv8, df8);
    let (mut q6, mut w6, mut g6) = state!(pn8, vn8, fn8);
    let (dp1, dv1, df1, dp8, dv8, df8) = (&dp1, &dv1, &df1, &dp8, &dv8, &df8);
    let (pn1, vn1, fn1, pn8, vn8, fn8) = (&pn1, &vn1, &fn1, &pn8, &vn8, &fn8);
    out.push(measure_kernel(
        "velocity Verlet step, 16 particles, Lennard-Jones pairs (`&mut [Vec3]`)",
        plan,
        &mut [
            (
                names[0],
                Box::new(|| {
                    p0.copy_from_slice(black_box(&c.p));
                    v0.copy_from_slice(&c.v);
                    f0.copy_from_slice(&c.f);
                    k::verlet_step(&mut p0, &mut v0, &mut f0, &c.m, c.dt, c.eps, c.sigma);
                    p0[n - 1].x + v0[0].y
                }),
            ),
            (
                names[1],
                Box::new(|| {
                    p1.copy_from_slice(black_box(&c.p));
                    v1.copy_from_slice(&c.v);
                    f1.copy_from_slice(&c.f);
                    tp1.copy_from_slice(black_box(dp1));
                    tv1.copy_from_slice(dv1);
                    tf1.copy_from_slice(df1);
                    k::verlet_step_frule(
                        Dual::new(&mut p1[..], &mut tp1[..]),
                        Dual::new(&mut v1[..], &mut tv1[..]),
                        Dual::new(&mut f1[..], &mut tf1[..]),
                        Dual::constant(&c.m[..]),
                        Dual::new(c.dt, ConstTangent),
                        Dual::new(c.eps, ConstTangent),
                        Dual::new(c.sigma, ConstTangent),
                    );
                    tp1[n - 1].x + tv1[0].y
                }),
            ),
            (
                names[2],
                Box::new(|| {
                    p2.copy_from_slice(black_box(&c.p));
                    v2.copy_from_slice(&c.v);
                    f2.copy_from_slice(&c.f);
                    tp2.copy_from_slice(black_box(dp1));
                    tv2.copy_from_slice(dv1);
                    tf2.copy_from_slice(df1);
                    k::verlet_step_expert(
                        &mut p2, &mut tp2, &mut v2, &mut tv2, &mut f2, &mut tf2, &c.m, c.dt, c.eps,
                        c.sigma,
                    );
                    tp2[n - 1].x + tv2[0].y
                }),
            ),
            (
                names[3],
                Box::new(|| {
                    q3.copy_from_slice(black_box(pn1));
                    w3.copy_from_slice(vn1);
                    g3.copy_from_slice(fn1);
                    k::verlet_step_nd(
                        &mut q3,
                        &mut w3,
                        &mut g3,
                        &c.m,
                        c.dt,
                        Dual64::from(c.eps),
                        Dual64::from(c.sigma),
                    );
                    q3[n - 1].x.eps + w3[0].y.eps
                }),
            ),
            (
                names[4],
                Box::new(|| {
                    p4.copy_from_slice(black_box(&c.p));
                    v4.copy_from_slice(&c.v);
                    f4.copy_from_slice(&c.f);
                    tp4.copy_from_slice(black_box(dp8));
                    tv4.copy_from_slice(dv8);
                    tf4.copy_from_slice(df8);
                    <k::verlet_step as Frule<_, B8>>::frule(
                        &k::verlet_step {},
                        (
                            Dual::new(&mut p4[..], &mut tp4[..]),
                            Dual::new(&mut v4[..], &mut tv4[..]),
                            Dual::new(&mut f4[..], &mut tf4[..]),
                            Dual::constant(&c.m[..]),
                            Dual::new(c.dt, ConstTangent),
                            Dual::new(c.eps, ConstTangent),
                            Dual::new(c.sigma, ConstTangent),
                        ),
                    );
                    sum_v3(tp4[n - 1]) + sum_v3(tv4[0])
                }),
            ),
            (
                names[5],
                Box::new(|| {
                    p5.copy_from_slice(black_box(&c.p));
                    v5.copy_from_slice(&c.v);
                    f5.copy_from_slice(&c.f);
                    tp5.copy_from_slice(black_box(dp8));
                    tv5.copy_from_slice(dv8);
                    tf5.copy_from_slice(df8);
                    k::verlet_step_expert(
                        &mut p5, &mut tp5, &mut v5, &mut tv5, &mut f5, &mut tf5, &c.m, c.dt, c.eps,
                        c.sigma,
                    );
                    sum_v3(tp5[n - 1]) + sum_v3(tv5[0])
                }),
            ),
            (
                names[6],
                Box::new(|| {
                    q6.clone_from_slice(black_box(pn8));
                    w6.clone_from_slice(vn8);
                    g6.clone_from_slice(fn8);
                    k::verlet_step_nd(
                        &mut q6,
                        &mut w6,
                        &mut g6,
                        &c.m,
                        c.dt,
                        Nd8::from(c.eps),
                        Nd8::from(c.sigma),
                    );
                    sum_nd8(q6[n - 1].x) + sum_nd8(w6[0].y)
                }),
            ),
        ],
        &PAIRS,
    ));

    // Quaternion joint chain: the tip's direction, in the joint angles.
    let (theta, axes, tip) = k::chain_case(&mut r);
    let dth1 = r.vec(theta.len(), -1.0, 1.0);
    let dth8: Vec<B8> = (0..theta.len()).map(|_| b8(&mut r)).collect();
    let thn1: Vec<Dual64> = theta.iter().zip(&dth1).map(|(&a, &d)| nd1(a, d)).collect();
    let thn8: Vec<Nd8> = theta.iter().zip(&dth8).map(|(&a, &d)| nd8(a, d)).collect();
    let (theta, axes, dth1, dth8, thn1, thn8) = (&theta, &axes, &dth1, &dth8, &thn1, &thn8);
    out.push(measure_kernel(
        "quaternion chain, 8 joints (`q = q * Quat::from_axis_angle(..)`, `q.rotate(tip)`)",
        plan,
        &mut [
            (
                names[0],
                Box::new(|| k::chain_tip(black_box(theta), axes, tip).x),
            ),
            (
                names[1],
                Box::new(|| {
                    let t = k::chain_tip_frule(
                        Dual::new(black_box(&theta[..]), black_box(&dth1[..])),
                        axes,
                        Dual::new(tip, Default::default()),
                    )
                    .tangent;
                    t.x + t.y + t.z
                }),
            ),
            (
                names[2],
                Box::new(|| {
                    let t = k::chain_tip_expert(black_box(theta), black_box(dth1), axes, tip).1;
                    t.x + t.y + t.z
                }),
            ),
            (
                names[3],
                Box::new(|| {
                    let t = k::chain_tip_nd(black_box(thn1), axes, tip);
                    t.x.eps + t.y.eps + t.z.eps
                }),
            ),
            (
                names[4],
                Box::new(|| {
                    let t = <k::chain_tip as Frule<_, B8>>::frule(
                        &k::chain_tip {},
                        (
                            Dual::new(black_box(&theta[..]), black_box(&dth8[..])),
                            axes,
                            Dual::new(tip, Default::default()),
                        ),
                    )
                    .tangent;
                    sum_v3(t)
                }),
            ),
            (
                names[5],
                Box::new(|| {
                    sum_v3(k::chain_tip_expert(black_box(theta), black_box(dth8), axes, tip).1)
                }),
            ),
            (
                names[6],
                Box::new(|| {
                    let t = k::chain_tip_nd(black_box(thn8), axes, tip);
                    sum_nd8(t.x) + sum_nd8(t.y) + sum_nd8(t.z)
                }),
            ),
        ],
        &PAIRS,
    ));

    // Spring grid energy, 64 nodes, 144 springs.
    let (p, springs, rest) = k::spring_case(&mut r);
    let kk = 3.5;
    let dp1 = k::tangents(&mut r, p.len(), |r| r.uniform(-1.0, 1.0));
    let dp8 = k::tangents(&mut r, p.len(), b8);
    let pn1 = nd_vecs(&p, &dp1, nd1);
    let pn8 = nd_vecs(&p, &dp8, nd8);
    let flat: Vec<f64> = p.iter().flat_map(|v| [v.x, v.y, v.z]).collect();
    let dflat1: Vec<f64> = dp1.iter().flat_map(|v| [v.x, v.y, v.z]).collect();
    let dflat8: Vec<B8> = dp8.iter().flat_map(|v| [v.x, v.y, v.z]).collect();
    let (p, springs, rest, dp1, dp8, pn1, pn8) = (&p, &springs, &rest, &dp1, &dp8, &pn1, &pn8);
    let (flat, dflat1, dflat8) = (&flat, &dflat1, &dflat8);
    out.push(measure_kernel(
        "spring grid energy, 4×4×4 `Vec3` nodes, 144 springs",
        plan,
        &mut [
            (
                names[0],
                Box::new(|| k::spring_energy(black_box(p), springs, rest, kk)),
            ),
            (
                names[1],
                Box::new(|| {
                    k::spring_energy_frule(
                        Dual::new(black_box(&p[..]), black_box(&dp1[..])),
                        springs,
                        rest,
                        Dual::new(kk, ConstTangent),
                    )
                    .tangent
                }),
            ),
            (
                names[2],
                Box::new(|| {
                    k::spring_energy_expert(black_box(p), black_box(dp1), springs, rest, kk).1
                }),
            ),
            (
                names[3],
                Box::new(|| k::spring_energy_nd(black_box(pn1), springs, rest, kk).eps),
            ),
            (
                names[4],
                Box::new(|| {
                    let t = <k::spring_energy as Frule<_, B8>>::frule(
                        &k::spring_energy {},
                        (
                            Dual::new(black_box(&p[..]), black_box(&dp8[..])),
                            springs,
                            rest,
                            Dual::new(kk, ConstTangent),
                        ),
                    )
                    .tangent;
                    sum8(t)
                }),
            ),
            (
                names[5],
                Box::new(|| {
                    sum8(k::spring_energy_expert(black_box(p), black_box(dp8), springs, rest, kk).1)
                }),
            ),
            (
                names[6],
                Box::new(|| sum_nd8(k::spring_energy_nd(black_box(pn8), springs, rest, kk))),
            ),
            (
                "rule, flat `f64`",
                Box::new(|| {
                    k::spring_energy_flat_frule(
                        Dual::new(black_box(&flat[..]), black_box(&dflat1[..])),
                        springs,
                        rest,
                        Dual::new(kk, ConstTangent),
                    )
                    .tangent
                }),
            ),
            (
                "rule ×8, flat `f64`",
                Box::new(|| {
                    let t = <k::spring_energy_flat as Frule<_, B8>>::frule(
                        &k::spring_energy_flat {},
                        (
                            Dual::new(black_box(&flat[..]), black_box(&dflat8[..])),
                            springs,
                            rest,
                            Dual::new(kk, ConstTangent),
                        ),
                    )
                    .tangent;
                    sum8(t)
                }),
            ),
        ],
        &[PAIRS.as_slice(), &[(7, 2), (8, 5)]].concat(),
    ));
    out
}

/// The section's markdown, between its markers.
pub fn markdown(ms: &[Measured], plan: Plan, load: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "<!-- {SECTION}:begin -->");
    let _ = writeln!(
        s,
        "## The user's own types through their operators\n\n\
         Written by `cargo run --release -p fwdad-bench --bin report -- --only userops` (profile: \
         `codegen-units = 1`, thin LTO). Kernels in `fwdad-bench/src/user_ops.rs`, written as users write \
         them on a `#[derive(Differentiable)]` `Vec3` and `Quat` with `#[derive_frule] impl Add/Sub/Mul/..`: \
         the derived rule reaches every `a - b`, `v * dt`, `q * qi` through the operators' rules. \
         *expert*: a JVP written by hand on the same primal operations, generic over its lanes (one \
         `f64`, or a `Batch<f64, 8>`'s array), shared factors folded. *num-dual*: the same code made \
         generic (`V3<D: DualNum>`, `Q<D>`) at `Dual64` and `DualSVec64<8>`. {} rounds of {} µs samples; \
         a ratio is the median of per-round ratios ± their interquartile range ÷ median (⚠ above 5 % \
         after up to 3 attempts). {load}\n",
        plan.samples,
        plan.sample.as_micros()
    );
    let _ = writeln!(
        s,
        "| kernel | primal | rule | rule ÷ expert | rule ÷ num-dual | rule ÷ primal | expert ÷ primal | rule ×8 | ×8: rule ÷ expert | ×8: rule ÷ num-dual | ×8: rule ÷ primal | ×8: expert ÷ primal | runs |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|"
    );
    let mut notes = Vec::new();
    for m in ms {
        if let (Some(a), Some(b)) = (
            m.ratio("rule, flat `f64`", "expert"),
            m.ratio("rule ×8, flat `f64`", "expert ×8"),
        ) {
            notes.push(format!(
                "The spring energy written on a flat `&[f64]` (`spring_energy_flat`, the macro's float path, no `Vec3`): rule ÷ expert {}, ×8 {}.",
                pct(a),
                pct(b)
            ));
        }
        let r = |a: &str, b: &str| m.ratio(a, b).map(pct).unwrap_or_default();
        let t = |v: &str| m.time(v).map(ns).unwrap_or_default();
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            m.name,
            t("primal"),
            t("rule"),
            r("rule", "expert"),
            r("rule", "num-dual"),
            r("rule", "primal"),
            r("expert", "primal"),
            t("rule ×8"),
            r("rule ×8", "expert ×8"),
            r("rule ×8", "num-dual ×8"),
            r("rule ×8", "primal"),
            r("expert ×8", "primal"),
            m.attempts
        );
    }
    for n in notes {
        let _ = writeln!(s, "\n{n}");
    }
    let _ = writeln!(s, "\n{}", FINDINGS.trim_end());
    let _ = writeln!(s, "<!-- {SECTION}:end -->");
    s
}

/// What the table shows (from the last full run; update it when the numbers move).
const FINDINGS: &str = include_str!("user_ops_findings.md");
