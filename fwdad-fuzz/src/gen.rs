//! Random numeric Rust functions, rendered twice from one tree: once over plain `f64`
//! (annotated `#[derive_frule]`) and once generic over num-dual's `DualNum<f64>` (the
//! reference). Deterministic in the seed; no dependencies, so `build.rs` can include it.

use std::fmt::Write;

/// SplitMix64: small, deterministic across platforms and crate versions.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `[lo, hi)`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        let u = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * u
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// An expression, already rendered for both targets.
#[derive(Clone)]
struct Expr {
    plain: String,
    dual: String,
}

impl Expr {
    fn same(s: String) -> Self {
        Expr {
            plain: s.clone(),
            dual: s,
        }
    }
}

/// Literals that print exactly (so both renderings hold the same value).
const LITS: &[&str] = &["0.5", "1.5", "2.0", "-0.75", "3.0", "0.125", "-1.25"];
/// Loop contraction factors, below one so that accumulations stay bounded.
const FACTORS: &[&str] = &["0.5", "-0.25", "0.75", "0.875", "-0.5"];

/// A literal leaf, typed (`0.5_f64`, `(-0.75_f64)`) so that a method called on an
/// expression of literals only is not ambiguous.
fn lit(s: &str) -> Expr {
    let plain = if s.starts_with('-') {
        format!("({s}_f64)")
    } else {
        format!("{s}_f64")
    };
    Expr {
        plain,
        dual: format!("D::from({s})"),
    }
}

/// What an expression may read at its position.
#[derive(Clone, Default)]
struct Scope {
    /// Scalars (parameters and locals), rendered the same in both targets.
    scalars: Vec<String>,
    /// Slices or buffers of length `n` that can be indexed by a constant.
    slices: Vec<String>,
    /// The loop index, when inside `for i in 0..n`.
    index: Option<String>,
    /// Length of every slice in `slices`.
    n: usize,
    /// Helpers `h(a, b) -> f64` that may be called.
    helpers: usize,
    /// Closures `c(t) -> f64` in scope.
    closures: Vec<String>,
}

struct Gen {
    rng: Rng,
}

impl Gen {
    fn leaf(&mut self, s: &Scope) -> Expr {
        loop {
            match self.rng.below(6) {
                0 | 1 if !s.scalars.is_empty() => {
                    return Expr::same(self.rng.pick(&s.scalars).clone());
                }
                2 | 3 if !s.slices.is_empty() => {
                    let slice = self.rng.pick(&s.slices).clone();
                    let at = match &s.index {
                        Some(i) if self.rng.chance(60) => i.clone(),
                        _ => self.rng.below(s.n).to_string(),
                    };
                    return Expr::same(format!("{slice}[{at}]"));
                }
                4 if s.index.is_some() && self.rng.chance(30) => {
                    let i = s.index.as_ref().unwrap();
                    return Expr {
                        plain: format!("({i} as f64)"),
                        dual: format!("D::from({i} as f64)"),
                    };
                }
                5 => return lit(self.rng.pick::<&str>(LITS)),
                _ => {}
            }
        }
    }

    fn expr(&mut self, s: &Scope, depth: usize) -> Expr {
        if depth == 0 || self.rng.chance(25) {
            return self.leaf(s);
        }
        let d = depth - 1;
        match self.rng.below(20) {
            0..=2 => {
                let (a, b) = (self.expr(s, d), self.expr(s, d));
                let op = *self.rng.pick(&["+", "-", "*"]);
                Expr {
                    plain: format!("({} {op} {})", a.plain, b.plain),
                    dual: format!("({} {op} {})", a.dual, b.dual),
                }
            }
            3 => {
                // A division by something bounded away from zero.
                let (a, b) = (self.expr(s, d), self.expr(s, d));
                Expr {
                    plain: format!("({} / ({} * {} + 1.0))", a.plain, b.plain, b.plain),
                    dual: format!(
                        "fwdad_fuzz::div({}, {} * {} + D::from(1.0))",
                        a.dual, b.dual, b.dual
                    ),
                }
            }
            4..=9 => self.unary(s, d),
            10 | 11 => self.binary_fn(s, d),
            12 if s.helpers > 0 => {
                let h = self.rng.below(s.helpers);
                let (a, b) = (self.expr(s, d), self.expr(s, d));
                Expr {
                    plain: format!("h{h}({}, {})", a.plain, b.plain),
                    dual: format!("h{h}_nd({}, {})", a.dual, b.dual),
                }
            }
            13 if !s.closures.is_empty() => {
                let c = self.rng.pick(&s.closures).clone();
                let a = self.expr(s, d);
                Expr {
                    plain: format!("{c}({})", a.plain),
                    dual: format!("{c}({})", a.dual),
                }
            }
            14 => {
                let (p, q) = (self.expr(s, d), self.expr(s, d));
                let (a, b) = (self.expr(s, d), self.expr(s, d));
                Expr {
                    plain: format!(
                        "(if {} > {} {{ {} }} else {{ {} }})",
                        p.plain, q.plain, a.plain, b.plain
                    ),
                    dual: format!(
                        "(if {}.re() > {}.re() {{ {} }} else {{ {} }})",
                        p.dual, q.dual, a.dual, b.dual
                    ),
                }
            }
            15 => {
                let a = self.expr(s, d);
                Expr {
                    plain: format!("(-{})", a.plain),
                    dual: format!("(-{})", a.dual),
                }
            }
            _ => self.leaf(s),
        }
    }

    /// A one-argument float function, composed so that its argument is in its domain and
    /// its value bounded where the function itself is not.
    fn unary(&mut self, s: &Scope, d: usize) -> Expr {
        let a = self.expr(s, d);
        let (p, q) = (&a.plain, &a.dual);
        let (plain, dual) = match self.rng.below(14) {
            0 => (format!("{p}.sin()"), format!("{q}.sin()")),
            1 => (format!("{p}.cos()"), format!("{q}.cos()")),
            2 => (format!("{p}.tanh()"), format!("fwdad_fuzz::tanh({q})")),
            3 => (format!("{p}.atan()"), format!("{q}.atan()")),
            4 => (
                format!("{p}.tanh().exp()"),
                format!("fwdad_fuzz::tanh({q}).exp()"),
            ),
            5 => (
                format!("({p} * {p} + 1.0).ln()"),
                format!("({q} * {q} + D::from(1.0)).ln()"),
            ),
            6 => (
                format!("({p} * {p} + 1.0).sqrt()"),
                format!("({q} * {q} + D::from(1.0)).sqrt()"),
            ),
            7 => {
                let k = *self.rng.pick(&[2, 3, -1, -2]);
                if k < 0 {
                    (
                        format!("({p} * {p} + 1.0).powi({k})"),
                        format!("{{ let b = {q} * {q} + D::from(1.0); fwdad_fuzz::fix(b.powi({k}), b.re().powi({k})) }}"),
                    )
                } else {
                    (
                        format!("{p}.powi({k})"),
                        format!("{{ let b = {q}; fwdad_fuzz::fix(b.powi({k}), b.re().powi({k})) }}"),
                    )
                }
            }
            8 => (
                format!("({p} * {p} + 0.5).powf(0.75)"),
                format!("{{ let b = {q} * {q} + D::from(0.5); fwdad_fuzz::fix(b.powf(0.75), b.re().powf(0.75)) }}"),
            ),
            9 => (format!("{p}.abs()"), format!("{q}.abs()")),
            10 => (
                format!("({p} * {p} + 1.0).recip()"),
                format!("({q} * {q} + D::from(1.0)).recip()"),
            ),
            11 => (
                format!("{p}.tanh().sinh()"),
                format!("fwdad_fuzz::tanh({q}).sinh()"),
            ),
            12 => (format!("{p}.cbrt()"), format!("{q}.cbrt()")),
            _ => (
                format!("({p}.sin() * {p}.cos())"),
                format!("({q}.sin() * {q}.cos())"),
            ),
        };
        Expr { plain, dual }
    }

    fn binary_fn(&mut self, s: &Scope, d: usize) -> Expr {
        let (a, b) = (self.expr(s, d), self.expr(s, d));
        let (p, q, pd, qd) = (&a.plain, &b.plain, &a.dual, &b.dual);
        let (plain, dual) = match self.rng.below(5) {
            0 => (
                format!("{p}.max({q})"),
                format!("(if {pd}.re() >= {qd}.re() {{ {pd} }} else {{ {qd} }})"),
            ),
            1 => (
                format!("{p}.min({q})"),
                format!("(if {pd}.re() <= {qd}.re() {{ {pd} }} else {{ {qd} }})"),
            ),
            2 => (
                format!("{p}.hypot({q} + 2.5)"),
                format!("{{ let (a, b) = ({pd}, {qd} + D::from(2.5)); fwdad_fuzz::fix((a * a + b * b).sqrt(), a.re().hypot(b.re())) }}"),
            ),
            3 => (
                format!("{p}.atan2({q} * {q} + 0.5)"),
                format!("{pd}.atan2({qd} * {qd} + D::from(0.5))"),
            ),
            _ => {
                let c = self.expr(s, d);
                (
                    format!("{p}.mul_add({q}, {})", c.plain),
                    format!(
                        "{{ let (a, b, c) = ({pd}, {qd}, {}); fwdad_fuzz::fix(a.mul_add(b, c), a.re().mul_add(b.re(), c.re())) }}",
                        c.dual
                    ),
                )
            }
        };
        Expr { plain, dual }
    }
}

/// One generated program, rendered for both targets.
struct Out {
    plain: String,
    dual: String,
}

impl Out {
    fn line(&mut self, plain: impl AsRef<str>, dual: impl AsRef<str>) {
        self.plain.push_str(plain.as_ref());
        self.plain.push('\n');
        self.dual.push_str(dual.as_ref());
        self.dual.push('\n');
    }
}

/// The source of a module holding `programs` random programs `p0..` (each with a
/// `pK_nd` reference) and the helpers they call, plus `pub fn programs()` listing them.
pub fn generate(seed: u64, programs: usize) -> String {
    let mut g = Gen {
        rng: Rng::new(seed),
    };
    let mut src = String::new();
    writeln!(
        src,
        "// Generated by fwdad-fuzz (seed {seed}, {programs} programs)."
    )
    .unwrap();
    src.push_str("use fwdad::prelude::*;\nuse num_dual::{DualNum, Dual64, HyperDual64};\n\n");

    // Scalar helpers `h(a, b)`, each may call the earlier ones.
    let helpers = 3;
    for h in 0..helpers {
        let mut s = Scope {
            scalars: vec!["a".into(), "b".into()],
            helpers: h,
            n: 1,
            ..Scope::default()
        };
        let mut out = Out {
            plain: format!("#[derive_frule]\npub fn h{h}(a: f64, b: f64) -> f64 {{\n"),
            dual: format!(
                "pub fn h{h}_nd<D: DualNum<Primitive = f64> + Copy>(a: D, b: D) -> D {{\n"
            ),
        };
        for k in 0..1 + g.rng.below(2) {
            let e = g.expr(&s, 3);
            out.line(
                format!("    let t{k} = {};", e.plain),
                format!("    let t{k} = {};", e.dual),
            );
            s.scalars.push(format!("t{k}"));
        }
        let e = g.expr(&s, 2);
        out.line(
            format!("    {}\n}}\n", e.plain),
            format!("    {}\n}}\n", e.dual),
        );
        src.push_str(&out.plain);
        src.push_str(&out.dual);
    }

    // Buffer updates `m(buf, s)`, in place.
    let mutators = 2;
    for m in 0..mutators {
        let mut out = Out {
            plain: format!("#[derive_frule]\npub fn m{m}(buf: &mut [f64], s: f64) {{\n"),
            dual: format!(
                "pub fn m{m}_nd<D: DualNum<Primitive = f64> + Copy>(buf: &mut [D], s: D) {{\n"
            ),
        };
        let s = Scope {
            scalars: vec!["s".into(), "(*v)".into()],
            helpers,
            n: 1,
            ..Scope::default()
        };
        match g.rng.below(3) {
            0 => {
                let e = g.expr(&s, 2);
                out.line(
                    format!(
                        "    for v in buf.iter_mut() {{\n        *v = {};\n    }}",
                        e.plain
                    ),
                    format!(
                        "    for v in buf.iter_mut() {{\n        *v = {};\n    }}",
                        e.dual
                    ),
                );
            }
            1 => {
                let s = Scope {
                    scalars: vec!["s".into(), "buf[i - 1]".into()],
                    helpers,
                    n: 1,
                    ..Scope::default()
                };
                let e = g.expr(&s, 2);
                out.line(
                    format!(
                        "    for i in 1..buf.len() {{\n        buf[i] += 0.5 * {};\n    }}",
                        e.plain
                    ),
                    format!(
                        "    for i in 1..buf.len() {{\n        buf[i] += D::from(0.5) * {};\n    }}",
                        e.dual
                    ),
                );
            }
            _ => {
                let s = Scope {
                    scalars: vec!["s".into(), "buf[i]".into()],
                    helpers,
                    n: 1,
                    ..Scope::default()
                };
                let e = g.expr(&s, 2);
                out.line(
                    format!(
                        "    let n = buf.len();\n    for i in 0..n {{\n        buf[i] = buf[i] * 0.5 + {};\n    }}",
                        e.plain
                    ),
                    format!(
                        "    let n = buf.len();\n    for i in 0..n {{\n        buf[i] = buf[i] * D::from(0.5) + {};\n    }}",
                        e.dual
                    ),
                );
            }
        }
        out.line("}\n", "}\n");
        src.push_str(&out.plain);
        src.push_str(&out.dual);
    }

    // A struct with a derived method and a derived function of it.
    {
        let s = Scope {
            scalars: vec!["b.pos".into(), "b.vel".into(), "b.mass".into(), "k".into()],
            helpers,
            n: 1,
            ..Scope::default()
        };
        let e = g.expr(&s, 3);
        src.push_str(
            "#[derive(Clone, Copy, Debug, Differentiable)]\npub struct Body {\n    pub pos: f64,\n    pub vel: f64,\n    pub mass: f64,\n}\n\n",
        );
        src.push_str(
            "#[derive(Clone, Copy, Debug)]\npub struct BodyNd<D> {\n    pub pos: D,\n    pub vel: D,\n    pub mass: D,\n}\n\n",
        );
        writeln!(
            src,
            "#[derive_frule]\npub fn energy(b: &Body, k: f64) -> f64 {{\n    {}\n}}\n",
            e.plain
        )
        .unwrap();
        writeln!(
            src,
            "pub fn energy_nd<D: DualNum<Primitive = f64> + Copy>(b: &BodyNd<D>, k: D) -> D {{\n    {}\n}}\n",
            e.dual
        )
        .unwrap();
        let s = Scope {
            scalars: vec!["self.pos".into(), "self.vel".into(), "self.mass".into()],
            n: 1,
            ..Scope::default()
        };
        let e = g.expr(&s, 3);
        writeln!(
            src,
            "#[derive_frule]\nimpl Body {{\n    pub fn momentum(&self) -> f64 {{\n        {}\n    }}\n}}\n",
            e.plain
        )
        .unwrap();
        writeln!(
            src,
            "impl<D: DualNum<Primitive = f64> + Copy> BodyNd<D> {{\n    pub fn momentum(&self) -> D {{\n        {}\n    }}\n}}\n",
            e.dual
        )
        .unwrap();
    }

    // A helper returning a pair.
    {
        let s = Scope {
            scalars: vec!["a".into(), "b".into()],
            helpers,
            n: 1,
            ..Scope::default()
        };
        let (e, f) = (g.expr(&s, 3), g.expr(&s, 3));
        writeln!(
            src,
            "#[derive_frule]\npub fn pair(a: f64, b: f64) -> (f64, f64) {{\n    ({}, {})\n}}\n",
            e.plain, f.plain
        )
        .unwrap();
        writeln!(
            src,
            "pub fn pair_nd<D: DualNum<Primitive = f64> + Copy>(a: D, b: D) -> (D, D) {{\n    ({}, {})\n}}\n",
            e.dual, f.dual
        )
        .unwrap();
    }

    let mut sizes = Vec::new();
    for p in 0..programs {
        let n = 1 + g.rng.below(4);
        sizes.push(n);
        let (plain, dual) = program(&mut g, p, n, helpers, mutators);
        src.push_str(&plain);
        src.push_str(&dual);
    }

    let mut shapes = Vec::new();
    for q in 0..programs.div_ceil(4) {
        let (n, m) = (1 + g.rng.below(4), 1 + g.rng.below(3));
        shapes.push((n, m));
        let (plain, dual) = vector_program(&mut g, q, n, m, helpers, mutators);
        src.push_str(&plain);
        src.push_str(&dual);
    }
    src.push_str("pub fn vector_programs() -> Vec<fwdad_fuzz::VectorProgram> {\n    vec![\n");
    for (q, (n, m)) in shapes.iter().enumerate() {
        writeln!(
            src,
            "        fwdad_fuzz::VectorProgram {{\n            name: \"q{q}\",\n            n: {n},\n            \
             m: {m},\n            plain: q{q},\n            \
             jacobian: |x| {{\n                let (y, j) = fwdad::jacobian(inplace(q{q} {{}}, {m}), x);\n                \
             (y, j.to_rows())\n            }},\n            \
             dual: q{q}_nd::<Dual64>,\n        }},"
        )
        .unwrap();
    }
    src.push_str("    ]\n}\n\n");

    src.push_str("pub fn programs() -> Vec<fwdad_fuzz::Program> {\n    vec![\n");
    for (p, n) in sizes.iter().enumerate() {
        writeln!(
            src,
            "        fwdad_fuzz::Program {{\n            name: \"p{p}\",\n            n: {n},\n            \
             plain: p{p},\n            jvp: |x, v| fwdad::jvp(p{p} {{}}, x, v),\n            \
             gradient: |x| fwdad::gradient(p{p} {{}}, x),\n            \
             hessian: |x| {{\n                let (v, g, h) = fwdad::hessian(p{p} {{}}, x);\n                \
             (v, g, h.to_rows())\n            }},\n            \
             dual: p{p}_nd::<Dual64>,\n            hyper: p{p}_nd::<HyperDual64>,\n        }},"
        )
        .unwrap();
    }
    src.push_str("    ]\n}\n");
    src
}

/// Program `p{p}(x: &[f64]) -> f64` for inputs of length `n`.
fn program(g: &mut Gen, p: usize, n: usize, helpers: usize, mutators: usize) -> (String, String) {
    let mut out = Out {
        plain: format!("#[derive_frule]\npub fn p{p}(x: &[f64]) -> f64 {{\n"),
        dual: format!("pub fn p{p}_nd<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {{\n"),
    };
    let mut s = Scope {
        slices: vec!["x".into()],
        n,
        helpers,
        ..Scope::default()
    };
    let mut vars = 0;
    let mut buffers = 0;
    let mut closures = 0;
    let stmts = 2 + g.rng.below(5);
    for _ in 0..stmts {
        let v = format!("v{vars}");
        match g.rng.below(21) {
            0 | 1 => {
                let e = g.expr(&s, 3);
                out.line(
                    format!("    let {v} = {};", e.plain),
                    format!("    let {v} = {};", e.dual),
                );
            }
            2 => {
                let (a, b) = (g.expr(&s, 2), g.expr(&s, 2));
                let (t, f) = (g.expr(&s, 3), g.expr(&s, 3));
                out.line(
                    format!(
                        "    let {v} = if {} > {} {{\n        {}\n    }} else {{\n        {}\n    }};",
                        a.plain, b.plain, t.plain, f.plain
                    ),
                    format!(
                        "    let {v} = if {}.re() > {}.re() {{\n        {}\n    }} else {{\n        {}\n    }};",
                        a.dual, b.dual, t.dual, f.dual
                    ),
                );
            }
            3 | 4 => {
                // A recurrence carried through a loop over the inputs.
                let init = g.expr(&s, 2);
                let c = *g.rng.pick(FACTORS);
                let mut inner = s.clone();
                inner.index = Some("i".into());
                inner.scalars.push(v.clone());
                let e = g.expr(&inner, 3);
                out.line(
                    format!(
                        "    let mut {v} = {};\n    for i in 0..x.len() {{\n        {v} = {v} * {c} + {};\n    }}",
                        init.plain, e.plain
                    ),
                    format!(
                        "    let mut {v} = {};\n    for i in 0..x.len() {{\n        {v} = {v} * D::from({c}) + {};\n    }}",
                        init.dual, e.dual
                    ),
                );
            }
            5 => {
                // A buffer filled element by element, then maybe updated in place.
                let b = format!("b{buffers}");
                buffers += 1;
                let mut inner = s.clone();
                inner.index = Some("i".into());
                let e = g.expr(&inner, 3);
                out.line(
                    format!(
                        "    let mut {b} = vec![0.0; x.len()];\n    for i in 0..x.len() {{\n        {b}[i] = {};\n    }}",
                        e.plain
                    ),
                    format!(
                        "    let mut {b} = vec![D::from(0.0); x.len()];\n    for i in 0..x.len() {{\n        {b}[i] = {};\n    }}",
                        e.dual
                    ),
                );
                if g.rng.chance(60) {
                    let m = g.rng.below(mutators);
                    let e = g.expr(&s, 2);
                    out.line(
                        format!("    m{m}(&mut {b}, {});", e.plain),
                        format!("    m{m}_nd(&mut {b}, {});", e.dual),
                    );
                }
                s.slices.push(b.clone());
                let red = if g.rng.chance(50) {
                    (
                        format!("    let {v} = {b}.iter().sum::<f64>();"),
                        format!("    let {v} = {b}.iter().fold(D::from(0.0), |s, &t| s + t);"),
                    )
                } else {
                    (
                        format!("    let {v} = {b}.iter().zip(x).map(|(a, b)| a * b).sum::<f64>();"),
                        format!(
                            "    let {v} = {b}.iter().zip(x).fold(D::from(0.0), |s, (a, b)| s + *a * *b);"
                        ),
                    )
                };
                out.line(red.0, red.1);
            }
            6 => {
                // A closure capturing what is in scope, called later.
                let c = format!("c{closures}");
                closures += 1;
                let mut inner = s.clone();
                inner.scalars.push("t".into());
                let e = g.expr(&inner, 3);
                out.line(
                    format!("    let {c} = |t: f64| {};", e.plain),
                    format!("    let {c} = |t: D| {};", e.dual),
                );
                s.closures.push(c);
                continue;
            }
            7 => {
                // A fixed number of relaxation steps.
                let init = g.expr(&s, 2);
                let mut inner = s.clone();
                inner.scalars.push(v.clone());
                let e = g.expr(&inner, 2);
                let k = format!("k{vars}");
                out.line(
                    format!(
                        "    let mut {v} = {};\n    let mut {k} = 0;\n    while {k} < 3 {{\n        {v} = {v} * 0.5 + {};\n        {k} += 1;\n    }}",
                        init.plain, e.plain
                    ),
                    format!(
                        "    let mut {v} = {};\n    let mut {k} = 0;\n    while {k} < 3 {{\n        {v} = {v} * D::from(0.5) + {};\n        {k} += 1;\n    }}",
                        init.dual, e.dual
                    ),
                );
            }
            8 => {
                // A `match` on the loop index.
                let mut inner = s.clone();
                inner.index = Some("i".into());
                let arms: Vec<Expr> = (0..3).map(|_| g.expr(&inner, 2)).collect();
                out.line(
                    format!(
                        "    let mut {v}: f64 = 0.0;\n    for i in 0..x.len() {{\n        {v} += match i % 3 {{\n            0 => {},\n            1 => {},\n            _ => {},\n        }};\n    }}",
                        arms[0].plain, arms[1].plain, arms[2].plain
                    ),
                    format!(
                        "    let mut {v} = D::from(0.0);\n    for i in 0..x.len() {{\n        {v} += match i % 3 {{\n            0 => {},\n            1 => {},\n            _ => {},\n        }};\n    }}",
                        arms[0].dual, arms[1].dual, arms[2].dual
                    ),
                );
            }
            9 => {
                // An early return.
                let (a, b, r) = (g.expr(&s, 2), g.expr(&s, 2), g.expr(&s, 3));
                out.line(
                    format!(
                        "    if {} > {} + 1.0 {{\n        return {};\n    }}",
                        a.plain, b.plain, r.plain
                    ),
                    format!(
                        "    if {}.re() > {}.re() + 1.0 {{\n        return {};\n    }}",
                        a.dual, b.dual, r.dual
                    ),
                );
                continue;
            }
            10 => {
                // Compound assignments.
                let (a, b, c) = (g.expr(&s, 2), g.expr(&s, 2), g.expr(&s, 2));
                out.line(
                    format!(
                        "    let mut {v} = {};\n    {v} *= {};\n    {v} -= {};",
                        a.plain, b.plain, c.plain
                    ),
                    format!(
                        "    let mut {v} = {};\n    {v} *= {};\n    {v} -= {};",
                        a.dual, b.dual, c.dual
                    ),
                );
            }
            11 => {
                // An iterator chain over the inputs.
                let mut inner = s.clone();
                inner.scalars.push("t".into());
                let e = g.expr(&inner, 2);
                out.line(
                    format!("    let {v} = x.iter().map(|&t| {}).sum::<f64>();", e.plain),
                    format!(
                        "    let {v} = x.iter().map(|&t| {}).fold(D::from(0.0), |s, t| s + t);",
                        e.dual
                    ),
                );
            }
            13 => {
                // `enumerate` with the index as a weight.
                let mut inner = s.clone();
                inner.scalars.push("(*t)".into());
                inner.scalars.push("w".into());
                let e = g.expr(&inner, 2);
                out.line(
                    format!(
                        "    let mut {v}: f64 = 0.0;\n    for (i, t) in x.iter().enumerate() {{\n        let w = i as f64 + 1.0;\n        {v} += {};\n    }}",
                        e.plain
                    ),
                    format!(
                        "    let mut {v} = D::from(0.0);\n    for (i, t) in x.iter().enumerate() {{\n        let w = D::from(i as f64 + 1.0);\n        {v} += {};\n    }}",
                        e.dual
                    ),
                );
            }
            14 if n >= 2 => {
                // Differences of neighbours through `windows`.
                let mut inner = s.clone();
                inner.scalars.push("d".into());
                let e = g.expr(&inner, 2);
                out.line(
                    format!(
                        "    let mut {v} = 0.0_f64;\n    for w in x.windows(2) {{\n        let d = w[1] - w[0];\n        {v} += {};\n    }}",
                        e.plain
                    ),
                    format!(
                        "    let mut {v} = D::from(0.0);\n    for w in x.windows(2) {{\n        let d = w[1] - w[0];\n        {v} += {};\n    }}",
                        e.dual
                    ),
                );
            }
            15 => {
                // A loop left early by `break`, with `continue` on another condition.
                let mut inner = s.clone();
                inner.index = Some("i".into());
                inner.scalars.push(v.clone());
                let (a, b, e) = (g.expr(&inner, 2), g.expr(&inner, 2), g.expr(&inner, 2));
                out.line(
                    format!(
                        "    let mut {v}: f64 = 0.0;\n    for i in 0..x.len() {{\n        if {} > {} + 1.5 {{\n            break;\n        }}\n        if i == 1 {{\n            continue;\n        }}\n        {v} = 0.5 * {v} + {};\n    }}",
                        a.plain, b.plain, e.plain
                    ),
                    format!(
                        "    let mut {v} = D::from(0.0);\n    for i in 0..x.len() {{\n        if {}.re() > {}.re() + 1.5 {{\n            break;\n        }}\n        if i == 1 {{\n            continue;\n        }}\n        {v} = D::from(0.5) * {v} + {};\n    }}",
                        a.dual, b.dual, e.dual
                    ),
                );
            }
            16 => {
                // A double loop over pairs.
                let mut inner = s.clone();
                inner.scalars.push("x[i]".into());
                inner.scalars.push("x[j]".into());
                let e = g.expr(&inner, 2);
                out.line(
                    format!(
                        "    let mut {v} = 0.0_f64;\n    for i in 0..x.len() {{\n        for j in i..x.len() {{\n            {v} += {};\n        }}\n    }}",
                        e.plain
                    ),
                    format!(
                        "    let mut {v} = D::from(0.0);\n    for i in 0..x.len() {{\n        for j in i..x.len() {{\n            {v} += {};\n        }}\n    }}",
                        e.dual
                    ),
                );
            }
            17 => {
                // A struct built from the inputs, its method, and a function of it.
                let (p, q, r, k) = (g.expr(&s, 2), g.expr(&s, 2), g.expr(&s, 2), g.expr(&s, 2));
                let b = format!("body{vars}");
                out.line(
                    format!(
                        "    let {b} = Body {{\n        pos: {},\n        vel: {},\n        mass: {},\n    }};\n    let {v} = energy(&{b}, {}) + {b}.momentum() * {b}.vel;",
                        p.plain, q.plain, r.plain, k.plain
                    ),
                    format!(
                        "    let {b} = BodyNd {{\n        pos: {},\n        vel: {},\n        mass: {},\n    }};\n    let {v} = energy_nd(&{b}, {}) + {b}.momentum() * {b}.vel;",
                        p.dual, q.dual, r.dual, k.dual
                    ),
                );
            }
            18 => {
                // A pair destructured.
                let (a, b) = (g.expr(&s, 2), g.expr(&s, 2));
                let (l, r) = (format!("l{vars}"), format!("r{vars}"));
                out.line(
                    format!(
                        "    let ({l}, {r}) = pair({}, {});\n    let {v} = {l} * {r} - {l};",
                        a.plain, b.plain
                    ),
                    format!(
                        "    let ({l}, {r}) = pair_nd({}, {});\n    let {v} = {l} * {r} - {l};",
                        a.dual, b.dual
                    ),
                );
            }
            19 => {
                // A local array and a `Vec` built by `push`, then summed.
                let (a, b, c) = (g.expr(&s, 2), g.expr(&s, 2), g.expr(&s, 2));
                let mut inner = s.clone();
                inner.index = Some("i".into());
                let e = g.expr(&inner, 2);
                let (arr, vec) = (format!("arr{vars}"), format!("vec{vars}"));
                out.line(
                    format!(
                        "    let {arr} = [{}, {}, {}];\n    let mut {vec} = Vec::new();\n    for i in 0..x.len() {{\n        {vec}.push({});\n    }}\n    let {v} = {arr}.iter().sum::<f64>() * {arr}[1] + {vec}.iter().sum::<f64>();",
                        a.plain, b.plain, c.plain, e.plain
                    ),
                    format!(
                        "    let {arr} = [{}, {}, {}];\n    let mut {vec} = Vec::new();\n    for i in 0..x.len() {{\n        {vec}.push({});\n    }}\n    let {v} = {arr}.iter().fold(D::from(0.0), |s, &t| s + t) * {arr}[1] + {vec}.iter().fold(D::from(0.0), |s, &t| s + t);",
                        a.dual, b.dual, c.dual, e.dual
                    ),
                );
            }
            20 if n >= 2 => {
                // A sub-slice passed on.
                let e = g.expr(&s, 2);
                out.line(
                    format!("    let tail = &x[1..];\n    let {v} = tail.iter().map(|t| t * t).sum::<f64>() * {};", e.plain),
                    format!(
                        "    let tail = &x[1..];\n    let {v} = tail.iter().fold(D::from(0.0), |s, &t| s + t * t) * {};",
                        e.dual
                    ),
                );
            }
            _ => {
                // A helper called on two expressions.
                let h = g.rng.below(helpers);
                let (a, b) = (g.expr(&s, 2), g.expr(&s, 2));
                out.line(
                    format!("    let {v} = h{h}({}, {});", a.plain, b.plain),
                    format!("    let {v} = h{h}_nd({}, {});", a.dual, b.dual),
                );
            }
        }
        s.scalars.push(v);
        vars += 1;
    }
    let e = g.expr(&s, 3);
    let last = if vars > 0 {
        format!("v{}", vars - 1)
    } else {
        "x[0]".into()
    };
    out.line(
        format!("    {last} + {}\n}}\n", e.plain),
        format!("    {last} + {}\n}}\n", e.dual),
    );
    (out.plain, out.dual)
}

/// Program `q{q}(x: &[f64], y: &mut [f64])`, `x` of length `n`, `y` of length `m`:
/// a residual written in place, checked with `jacobian(inplace(..))`.
fn vector_program(
    g: &mut Gen,
    q: usize,
    n: usize,
    m: usize,
    helpers: usize,
    mutators: usize,
) -> (String, String) {
    let mut out = Out {
        plain: format!("#[derive_frule]\npub fn q{q}(x: &[f64], y: &mut [f64]) {{\n"),
        dual: format!(
            "pub fn q{q}_nd<D: DualNum<Primitive = f64> + Copy>(x: &[D], y: &mut [D]) {{\n"
        ),
    };
    let s = Scope {
        slices: vec!["x".into()],
        n,
        helpers,
        ..Scope::default()
    };
    let e = g.expr(&s, 2);
    out.line(
        format!("    let c = {};", e.plain),
        format!("    let c = {};", e.dual),
    );
    let mut inner = s.clone();
    inner.scalars.push("c".into());
    for k in 0..m {
        let e = g.expr(&inner, 3);
        out.line(
            format!("    y[{k}] = {};", e.plain),
            format!("    y[{k}] = {};", e.dual),
        );
    }
    match g.rng.below(3) {
        0 => {
            let mm = g.rng.below(mutators);
            let e = g.expr(&inner, 2);
            out.line(
                format!("    m{mm}(y, {});", e.plain),
                format!("    m{mm}_nd(y, {});", e.dual),
            );
        }
        1 => {
            let mut inner = inner.clone();
            inner.scalars.push("y[i]".into());
            inner.index = Some("i".into());
            let e = g.expr(&inner, 2);
            out.line(
                format!(
                    "    for i in 0..y.len().min(x.len()) {{\n        y[i] += {};\n    }}",
                    e.plain
                ),
                format!(
                    "    for i in 0..y.len().min(x.len()) {{\n        y[i] += {};\n    }}",
                    e.dual
                ),
            );
        }
        _ => {
            let mut inner = inner.clone();
            inner.scalars.push("(*v)".into());
            let e = g.expr(&inner, 2);
            out.line(
                format!(
                    "    for v in y.iter_mut() {{\n        *v = {};\n    }}",
                    e.plain
                ),
                format!(
                    "    for v in y.iter_mut() {{\n        *v = {};\n    }}",
                    e.dual
                ),
            );
        }
    }
    out.line("}\n", "}\n");
    (out.plain, out.dual)
}
