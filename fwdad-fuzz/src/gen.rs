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
/// The constants of case 66's objects: a `Lin`'s `k`, a `V2`'s `x` and `y`.
const SCENE: (&str, &str, &str) = ("0.5", "-0.75", "1.5");
/// Loop contraction factors, below one so that accumulations stay bounded.
const FACTORS: &[&str] = &["0.5", "-0.25", "0.75", "0.875", "-0.5"];

/// The float type of the plain rendering: the user's `f64` code, an `f32` function, or a
/// function generic over `T: num_traits::Float`. The reference is always `DualNum<f64>`.
#[derive(Clone, Copy, PartialEq)]
enum Flavor {
    F64,
    F32,
    Generic,
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
    flavor: Flavor,
    /// No branches on values (`if`, `max`, `min`, `abs`): for `f32` code, whose reference
    /// computes in `f64` and could decide a near tie the other way.
    smooth: bool,
}

impl Gen {
    fn new(seed: u64) -> Self {
        Gen {
            rng: Rng::new(seed),
            flavor: Flavor::F64,
            smooth: false,
        }
    }

    /// Runs `body` with the plain rendering in `flavor` (and `smooth` set as given).
    fn with<R>(&mut self, flavor: Flavor, smooth: bool, body: impl FnOnce(&mut Gen) -> R) -> R {
        let saved = (self.flavor, self.smooth);
        (self.flavor, self.smooth) = (flavor, smooth);
        let r = body(self);
        (self.flavor, self.smooth) = saved;
        r
    }

    /// A constant inside a plain-rendered formula: an untyped literal for `f64` and `f32`
    /// (inferred from the other operand), `T::from(..)` in generic code.
    fn k(&self, c: &str) -> String {
        match self.flavor {
            Flavor::F64 | Flavor::F32 => c.to_string(),
            Flavor::Generic if c == "1.0" => "T::one()".to_string(),
            Flavor::Generic => format!("T::from({c}).unwrap()"),
        }
    }

    /// A literal leaf, typed (`0.5_f64`, `(-0.75_f64)`) so that a method called on an
    /// expression of literals only is not ambiguous.
    fn lit(&self, s: &str) -> Expr {
        let plain = match self.flavor {
            Flavor::F64 if s.starts_with('-') => format!("({s}_f64)"),
            Flavor::F64 => format!("{s}_f64"),
            Flavor::F32 if s.starts_with('-') => format!("({s}_f32)"),
            Flavor::F32 => format!("{s}_f32"),
            Flavor::Generic => format!("T::from({s}).unwrap()"),
        };
        Expr {
            plain,
            dual: format!("D::from({s})"),
        }
    }

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
                    let plain = match self.flavor {
                        Flavor::F64 => format!("({i} as f64)"),
                        Flavor::F32 => format!("({i} as f32)"),
                        Flavor::Generic => format!("T::from({i}).unwrap()"),
                    };
                    return Expr {
                        plain,
                        dual: format!("D::from({i} as f64)"),
                    };
                }
                5 => {
                    let c = *self.rng.pick::<&str>(LITS);
                    return self.lit(c);
                }
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
                    plain: format!(
                        "({} / ({} * {} + {}))",
                        a.plain,
                        b.plain,
                        b.plain,
                        self.k("1.0")
                    ),
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
            14 if !self.smooth => {
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
        let (one, half) = (self.k("1.0"), self.k("0.5"));
        let mut pick = self.rng.below(14);
        if self.smooth && pick == 9 {
            pick = 0;
        }
        let (plain, dual) = match pick {
            0 => (format!("{p}.sin()"), format!("{q}.sin()")),
            1 => (format!("{p}.cos()"), format!("{q}.cos()")),
            2 => (format!("{p}.tanh()"), format!("fwdad_fuzz::tanh({q})")),
            3 => (format!("{p}.atan()"), format!("{q}.atan()")),
            4 => (
                format!("{p}.tanh().exp()"),
                format!("fwdad_fuzz::tanh({q}).exp()"),
            ),
            5 => (
                format!("({p} * {p} + {one}).ln()"),
                format!("({q} * {q} + D::from(1.0)).ln()"),
            ),
            6 => (
                format!("({p} * {p} + {one}).sqrt()"),
                format!("({q} * {q} + D::from(1.0)).sqrt()"),
            ),
            7 => {
                let k = *self.rng.pick(&[2, 3, -1, -2]);
                if k < 0 {
                    (
                        format!("({p} * {p} + {one}).powi({k})"),
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
                format!("({p} * {p} + {half}).powf({})", self.k("0.75")),
                format!("{{ let b = {q} * {q} + D::from(0.5); fwdad_fuzz::fix(b.powf(0.75), b.re().powf(0.75)) }}"),
            ),
            9 => (format!("{p}.abs()"), format!("{q}.abs()")),
            10 => (
                format!("({p} * {p} + {one}).recip()"),
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
        let pick = if self.smooth {
            2 + self.rng.below(3)
        } else {
            self.rng.below(5)
        };
        let (plain, dual) = match pick {
            0 => (
                format!("{p}.max({q})"),
                format!("(if {pd}.re() >= {qd}.re() {{ {pd} }} else {{ {qd} }})"),
            ),
            1 => (
                format!("{p}.min({q})"),
                format!("(if {pd}.re() <= {qd}.re() {{ {pd} }} else {{ {qd} }})"),
            ),
            2 => (
                format!("{p}.hypot({q} + {})", self.k("2.5")),
                format!("{{ let (a, b) = ({pd}, {qd} + D::from(2.5)); fwdad_fuzz::fix((a * a + b * b).sqrt(), a.re().hypot(b.re())) }}"),
            ),
            3 => (
                format!("{p}.atan2({q} * {q} + {})", self.k("0.5")),
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
    let mut g = Gen::new(seed);
    let mut src = String::new();
    writeln!(
        src,
        "// Generated by fwdad-fuzz (seed {seed}, {programs} programs)."
    )
    .unwrap();
    src.push_str(
        "use fwdad::prelude::*;\nuse num_dual::{DualNum, Dual64, HyperDual64};\nuse num_traits::Float;\n\n",
    );

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

    user_items(&mut g, helpers, &mut src);

    let mut sizes = Vec::new();
    for p in 0..programs {
        let n = 1 + g.rng.below(4);
        let (plain, dual, f32) = program(&mut g, p, n, helpers, mutators);
        sizes.push((n, f32));
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
    for (p, (n, f32)) in sizes.iter().enumerate() {
        writeln!(
            src,
            "        fwdad_fuzz::Program {{\n            name: \"p{p}\",\n            n: {n},\n            f32: {f32},\n            \
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

/// Program `p{p}(x: &[f64]) -> f64` for inputs of length `n`, and whether it computes in
/// `f32` somewhere (its derivatives are then compared to `F32_TOL`).
fn program(
    g: &mut Gen,
    p: usize,
    n: usize,
    helpers: usize,
    mutators: usize,
) -> (String, String, bool) {
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
    let mut loose = false;
    // Values the result adds whatever the later statements read.
    let mut kept: Vec<String> = Vec::new();
    let stmts = 2 + g.rng.below(5);
    for _ in 0..stmts {
        let v = format!("v{vars}");
        match g.rng.below(69) {
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
                        format!("    let {v} = {b}.iter().fold(D::from(-0.0), |s, &t| s + t);"),
                    )
                } else {
                    (
                        format!("    let {v} = {b}.iter().zip(x).map(|(a, b)| a * b).sum::<f64>();"),
                        format!(
                            "    let {v} = {b}.iter().zip(x).fold(D::from(-0.0), |s, (a, b)| s + *a * *b);"
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
                        "    let {v} = x.iter().map(|&t| {}).fold(D::from(-0.0), |s, t| s + t);",
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
                        "    let {arr} = [{}, {}, {}];\n    let mut {vec} = Vec::new();\n    for i in 0..x.len() {{\n        {vec}.push({});\n    }}\n    let {v} = {arr}.iter().fold(D::from(-0.0), |s, &t| s + t) * {arr}[1] + {vec}.iter().fold(D::from(-0.0), |s, &t| s + t);",
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
                        "    let tail = &x[1..];\n    let {v} = tail.iter().fold(D::from(-0.0), |s, &t| s + t * t) * {};",
                        e.dual
                    ),
                );
            }
            21 => {
                // The user's vector type: constructors, operators, `&self` and `&mut self`
                // methods.
                let e: Vec<Expr> = (0..6).map(|_| g.expr(&s, 2)).collect();
                let (a, b, c) = (
                    format!("pa{vars}"),
                    format!("pb{vars}"),
                    format!("pc{vars}"),
                );
                let render = |ty: &str, e: &[&str]| {
                    format!(
                        "    let mut {a} = {ty}::new({}, {});\n    let {b} = {ty} {{\n        x: {},\n        y: {},\n    }};\n    \
                         let {c} = ({a} + {b}) * {} - (-{b});\n    {a}.step({});\n    let {v} = {c}.dot(&{a}) + {a}.shape();",
                        e[0], e[1], e[2], e[3], e[4], e[5]
                    )
                };
                let plain: Vec<&str> = e.iter().map(|e| e.plain.as_str()).collect();
                let dual: Vec<&str> = e.iter().map(|e| e.dual.as_str()).collect();
                out.line(render("V2", &plain), render("V2Nd", &dual));
                // Later expressions read the structs' fields.
                s.scalars.extend([format!("{c}.x"), format!("{a}.y")]);
            }
            22 => {
                // An enum value chosen by a branch, given to a function and matched.
                let e: Vec<Expr> = (0..7).map(|_| g.expr(&s, 2)).collect();
                let arm = |g: &mut Gen, names: &[&str]| {
                    let mut inner = s.clone();
                    inner.scalars.extend(names.iter().map(|n| n.to_string()));
                    g.expr(&inner, 2)
                };
                let (ar, aw, ap) = (arm(g, &["r"]), arm(g, &["w", "h"]), arm(g, &["p"]));
                let sh = format!("sh{vars}");
                out.line(
                    format!(
                        "    let {sh} = if {} > {} {{\n        Shape::Circle {{ r: {} }}\n    }} else if {} > 0.5 {{\n        \
                         Shape::Rect {{ w: {}, h: {} }}\n    }} else {{\n        Shape::Pt({})\n    }};\n    \
                         let {v} = area(&{sh}, {}) + match {sh} {{\n        Shape::Circle {{ r }} => {},\n        \
                         Shape::Rect {{ w, h }} => {},\n        Shape::Pt(p) => {},\n    }};",
                        e[0].plain, e[1].plain, e[2].plain, e[3].plain, e[4].plain, e[5].plain, e[6].plain,
                        e[0].plain, ar.plain, aw.plain, ap.plain
                    ),
                    format!(
                        "    let {sh} = if {}.re() > {}.re() {{\n        ShapeNd::Circle {{ r: {} }}\n    }} else if {}.re() > 0.5 {{\n        \
                         ShapeNd::Rect {{ w: {}, h: {} }}\n    }} else {{\n        ShapeNd::Pt({})\n    }};\n    \
                         let {v} = area_nd(&{sh}, {}) + match {sh} {{\n        ShapeNd::Circle {{ r }} => {},\n        \
                         ShapeNd::Rect {{ w, h }} => {},\n        ShapeNd::Pt(p) => {},\n    }};",
                        e[0].dual, e[1].dual, e[2].dual, e[3].dual, e[4].dual, e[5].dual, e[6].dual,
                        e[0].dual, ar.dual, aw.dual, ap.dual
                    ),
                );
            }
            23 => {
                // The trait: a generic function on values built from the inputs, `&dyn` on
                // constants (a trait object's fields are constants), a default method.
                let e: Vec<Expr> = (0..6).map(|_| g.expr(&s, 2)).collect();
                let (k1, k2) = (*g.rng.pick(LITS), *g.rng.pick(LITS));
                let (m, d) = (format!("lm{vars}"), format!("dm{vars}"));
                let (obj, obj_nd) = if g.rng.chance(50) {
                    (
                        format!("Lin {{ k: {k1} }}"),
                        format!("LinNd {{ k: D::from({k1}) }}"),
                    )
                } else {
                    (
                        format!("V2 {{ x: {k1}, y: {k2} }}"),
                        format!("V2Nd {{ x: D::from({k1}), y: D::from({k2}) }}"),
                    )
                };
                out.line(
                    format!(
                        "    let {m} = Lin {{ k: {} }};\n    let {d}: &dyn Model = &{obj};\n    \
                         let {v} = run_model(&{m}, {}) + run_model(&V2::new({}, {}), {}) + run_dyn({d}, {}) + {m}.twice({d}.eval({}));",
                        e[0].plain, e[1].plain, e[2].plain, e[3].plain, e[4].plain, e[5].plain, e[1].plain
                    ),
                    format!(
                        "    let {m} = LinNd {{ k: {} }};\n    let {d}: &dyn ModelNd<D> = &{obj_nd};\n    \
                         let {v} = run_model_nd(&{m}, {}) + run_model_nd(&V2Nd::new({}, {}), {}) + run_dyn_nd({d}, {}) + {m}.twice({d}.eval({}));",
                        e[0].dual, e[1].dual, e[2].dual, e[3].dual, e[4].dual, e[5].dual, e[1].dual
                    ),
                );
            }
            24 => {
                // Closures capturing the program's values, passed to its helpers (which
                // cannot call the program's closures: docs/limits.md).
                let mut inner = s.clone();
                inner.scalars.push("t".into());
                inner.closures.clear();
                let (f1, f2) = (g.expr(&inner, 2), g.expr(&inner, 2));
                let e: Vec<Expr> = (0..4).map(|_| g.expr(&s, 2)).collect();
                out.line(
                    format!(
                        "    let {v} = apply2(|t| {}, {}, {}) + midpoint(&|t| {}, {}, {});",
                        f1.plain, e[0].plain, e[1].plain, f2.plain, e[2].plain, e[3].plain
                    ),
                    format!(
                        "    let {v} = apply2_nd(|t| {}, {}, {}) + midpoint_nd(&|t: D| {}, {}, {});",
                        f1.dual, e[0].dual, e[1].dual, f2.dual, e[2].dual, e[3].dual
                    ),
                );
            }
            25 => {
                // Iterator chains: `zip` with a shifted copy, `filter`, `fold`.
                match g.rng.below(3) {
                    0 => {
                        let mut inner = s.clone();
                        inner
                            .scalars
                            .extend(["(*a)".to_string(), "(*b)".to_string()]);
                        let e = g.expr(&inner, 2);
                        out.line(
                            format!("    let {v} = x.iter().zip(x.iter().skip(1)).map(|(a, b)| {}).sum::<f64>();", e.plain),
                            format!(
                                "    let {v} = x.iter().zip(x.iter().skip(1)).map(|(a, b)| {}).fold(D::from(-0.0), |s, t| s + t);",
                                e.dual
                            ),
                        );
                    }
                    1 => {
                        let mut inner = s.clone();
                        inner.scalars.push("t".into());
                        let e = g.expr(&inner, 2);
                        let c = *g.rng.pick(&["0.0", "-0.5", "0.5"]);
                        out.line(
                            format!("    let {v} = x.iter().filter(|t| **t > {c}).map(|&t| {}).sum::<f64>();", e.plain),
                            format!(
                                "    let {v} = x.iter().filter(|t| t.re() > {c}).map(|&t| {}).fold(D::from(-0.0), |s, t| s + t);",
                                e.dual
                            ),
                        );
                    }
                    _ => {
                        let init = g.expr(&s, 2);
                        let f = *g.rng.pick(FACTORS);
                        let mut inner = s.clone();
                        inner.scalars.extend(["acc".to_string(), "t".to_string()]);
                        let e = g.expr(&inner, 2);
                        out.line(
                            format!("    let {v} = x.iter().fold({}, |acc, &t| acc * {f} + {});", init.plain, e.plain),
                            format!(
                                "    let {v} = x.iter().fold({}, |acc, &t| acc * D::from({f}) + {});",
                                init.dual, e.dual
                            ),
                        );
                    }
                }
            }
            26 => {
                // `Option` combinators: on `get`, on a helper's result, on `find`.
                let mut inner = s.clone();
                inner.scalars.push("t".into());
                let (e1, e2, e3) = (g.expr(&inner, 2), g.expr(&s, 2), g.expr(&s, 2));
                match g.rng.below(3) {
                    0 => {
                        let k = g.rng.below(n + 1);
                        out.line(
                            format!(
                                "    let {v} = x.get({k}).copied().map(|t| {}).unwrap_or({});",
                                e1.plain, e2.plain
                            ),
                            format!(
                                "    let {v} = x.get({k}).copied().map(|t| {}).unwrap_or({});",
                                e1.dual, e2.dual
                            ),
                        );
                    }
                    1 => {
                        out.line(
                            format!(
                                "    let {v} = try_at({}).and_then(|t| try_at(t * 0.5)).map_or({}, |t| {});",
                                e3.plain, e2.plain, e1.plain
                            ),
                            format!(
                                "    let {v} = try_at_nd({}).and_then(|t| try_at_nd(t * D::from(0.5))).map_or({}, |t| {});",
                                e3.dual, e2.dual, e1.dual
                            ),
                        );
                    }
                    _ => {
                        let c = *g.rng.pick(&["0.0", "-0.5", "0.5"]);
                        out.line(
                            format!(
                                "    let {v} = x.iter().copied().find(|t| *t > {c}).map(|t| {}).unwrap_or_else(|| {});",
                                e1.plain, e2.plain
                            ),
                            format!(
                                "    let {v} = x.iter().copied().find(|t| t.re() > {c}).map(|t| {}).unwrap_or_else(|| {});",
                                e1.dual, e2.dual
                            ),
                        );
                    }
                }
            }
            27 => {
                // `loop` left by `break` with a value, or `while` left by `break`.
                let (acc, k) = (format!("acc{vars}"), format!("k{vars}"));
                let init = g.expr(&s, 2);
                let mut inner = s.clone();
                inner.scalars.push(acc.clone());
                let (e, r) = (g.expr(&inner, 2), g.expr(&inner, 2));
                let f = *g.rng.pick(FACTORS);
                if g.rng.chance(50) {
                    out.line(
                        format!(
                            "    let mut {acc} = {};\n    let mut {k} = 0;\n    let {v} = loop {{\n        {acc} = {acc} * {f} + {};\n        \
                             {k} += 1;\n        if {acc} > 1.0 || {k} >= 4 {{\n            break {acc} * {};\n        }}\n    }};",
                            init.plain, e.plain, r.plain
                        ),
                        format!(
                            "    let mut {acc} = {};\n    let mut {k} = 0;\n    let {v} = loop {{\n        {acc} = {acc} * D::from({f}) + {};\n        \
                             {k} += 1;\n        if {acc}.re() > 1.0 || {k} >= 4 {{\n            break {acc} * {};\n        }}\n    }};",
                            init.dual, e.dual, r.dual
                        ),
                    );
                } else {
                    out.line(
                        format!(
                            "    let mut {acc} = {};\n    let mut {k} = 0;\n    while {k} < 5 {{\n        {acc} = {acc} * {f} + {};\n        \
                             if {acc} < -1.0 {{\n            break;\n        }}\n        {k} += 1;\n    }}\n    let {v} = {acc} * {} + {k} as f64;",
                            init.plain, e.plain, r.plain
                        ),
                        format!(
                            "    let mut {acc} = {};\n    let mut {k} = 0;\n    while {k} < 5 {{\n        {acc} = {acc} * D::from({f}) + {};\n        \
                             if {acc}.re() < -1.0 {{\n            break;\n        }}\n        {k} += 1;\n    }}\n    let {v} = {acc} * {} + D::from({k} as f64);",
                            init.dual, e.dual, r.dual
                        ),
                    );
                }
            }
            28 => {
                // `&mut` outputs: a `Vec` and a local array written by a helper, a scalar
                // accumulated through `&mut`, an array written in a loop.
                let (o, a, arr) = (
                    format!("ob{vars}"),
                    format!("ac{vars}"),
                    format!("ar{vars}"),
                );
                let (k, init) = (g.expr(&s, 2), g.expr(&s, 2));
                let mut inner = s.clone();
                if n >= 3 {
                    inner.index = Some("i".into());
                }
                let e = g.expr(&inner, 2);
                out.line(
                    format!(
                        "    let mut {o} = vec![0.0; x.len()];\n    smooth(&mut {o}, x, {});\n    let mut {a} = {};\n    \
                         for w in {o}.iter_mut() {{\n        accum(&mut {a}, *w);\n        *w *= 0.5;\n    }}\n    \
                         let mut {arr} = [0.0; 3];\n    for i in 0..3 {{\n        {arr}[i] = {};\n    }}\n    smooth(&mut {arr}, &{o}, {a});\n    \
                         let {v} = {a} + {arr}.iter().sum::<f64>() + {o}.iter().sum::<f64>();",
                        k.plain, init.plain, e.plain
                    ),
                    format!(
                        "    let mut {o} = vec![D::from(0.0); x.len()];\n    smooth_nd(&mut {o}, x, {});\n    let mut {a} = {};\n    \
                         for w in {o}.iter_mut() {{\n        accum_nd(&mut {a}, *w);\n        *w *= D::from(0.5);\n    }}\n    \
                         let mut {arr} = [D::from(0.0); 3];\n    for i in 0..3 {{\n        {arr}[i] = {};\n    }}\n    smooth_nd(&mut {arr}, &{o}, {a});\n    \
                         let {v} = {a} + {arr}.iter().fold(D::from(-0.0), |s, &t| s + t) + {o}.iter().fold(D::from(-0.0), |s, &t| s + t);",
                        k.dual, init.dual, e.dual
                    ),
                );
            }
            29 => {
                // The generic helpers at `f64`.
                let e: Vec<Expr> = (0..5).map(|_| g.expr(&s, 2)).collect();
                out.line(
                    format!(
                        "    let {v} = g0({}, {}) * g1({}, {}) + gsum(x, {});",
                        e[0].plain, e[1].plain, e[2].plain, e[3].plain, e[4].plain
                    ),
                    format!(
                        "    let {v} = g0_nd({}, {}) * g1_nd({}, {}) + gsum_nd(x, {});",
                        e[0].dual, e[1].dual, e[2].dual, e[3].dual, e[4].dual
                    ),
                );
            }
            30 => {
                // `f32` code: the `f32` helper and the generic fold at `f32`, converted
                // back. The reference differentiates in `f64` and takes the plain value.
                loose = true;
                let (a, b) = (g.expr(&s, 2), g.expr(&s, 2));
                let xs = format!("xs{vars}");
                out.line(
                    format!(
                        "    let {xs}: Vec<f32> = x.iter().map(|&t| t as f32).collect();\n    \
                         let {v} = s32(({}) as f32, ({}) as f32) as f64 + f64::from(gsum(&{xs}, 0.5_f32));",
                        a.plain, b.plain
                    ),
                    format!(
                        "    let {v} = {{\n        let (a, b) = ({}, {});\n        \
                         fwdad_fuzz::fix(s32_nd(a, b), s32(a.re() as f32, b.re() as f32) as f64)\n    }} + {{\n        \
                         let xs: Vec<f32> = x.iter().map(|t| t.re() as f32).collect();\n        \
                         fwdad_fuzz::fix(gsum_nd(x, D::from(0.5)), f64::from(gsum(&xs, 0.5_f32)))\n    }};",
                        a.dual, b.dual
                    ),
                );
            }
            31 => {
                // A `Vec` of the user's structs from an iterator chain, mapped through a
                // method and folded with the derived `+`.
                let mut inner = s.clone();
                inner.scalars.push("t".into());
                let (e, kx, ky) = (g.expr(&inner, 2), g.expr(&s, 2), g.expr(&s, 2));
                let ps = format!("ps{vars}");
                out.line(
                    format!(
                        "    let {ps}: Vec<V2> = x.iter().map(|&t| V2::new(t, {})).collect();\n    \
                         let {v} = {ps}.iter().map(|p| p.shape()).sum::<f64>()\n        \
                         + {ps}.iter().fold(V2::new(0.0, 0.0), |s, p| s + *p).dot(&V2 {{ x: {}, y: {} }});",
                        e.plain, kx.plain, ky.plain
                    ),
                    format!(
                        "    let {ps}: Vec<V2Nd<D>> = x.iter().map(|&t| V2Nd::new(t, {})).collect();\n    \
                         let {v} = {ps}.iter().map(|p| p.shape()).fold(D::from(-0.0), |s, t| s + t)\n        \
                         + {ps}.iter().fold(V2Nd::new(D::from(0.0), D::from(0.0)), |s, p| s + *p).dot(&V2Nd {{ x: {}, y: {} }});",
                        e.dual, kx.dual, ky.dual
                    ),
                );
                s.scalars.push(format!("{ps}[0].y"));
            }
            32 => {
                // Methods on an operator's result and on a struct read from a `match`.
                let e: Vec<Expr> = (0..5).map(|_| g.expr(&s, 2)).collect();
                out.line(
                    format!(
                        "    let {v} = (V2::new({}, {}) - V2::new({}, {})).shape() * {};",
                        e[0].plain, e[1].plain, e[2].plain, e[3].plain, e[4].plain
                    ),
                    format!(
                        "    let {v} = (V2Nd::new({}, {}) - V2Nd::new({}, {})).shape() * {};",
                        e[0].dual, e[1].dual, e[2].dual, e[3].dual, e[4].dual
                    ),
                );
            }
            33 => {
                // `if let` and `let .. else` on a helper's `Option`.
                let mut inner = s.clone();
                inner.scalars.push("t".into());
                let (a, b, th, el) = (
                    g.expr(&s, 2),
                    g.expr(&s, 2),
                    g.expr(&inner, 2),
                    g.expr(&s, 2),
                );
                if g.rng.chance(50) {
                    out.line(
                        format!(
                            "    let {v} = if let Some(t) = try_at({}) {{\n        {}\n    }} else {{\n        {}\n    }};",
                            a.plain, th.plain, el.plain
                        ),
                        format!(
                            "    let {v} = if let Some(t) = try_at_nd({}) {{\n        {}\n    }} else {{\n        {}\n    }};",
                            a.dual, th.dual, el.dual
                        ),
                    );
                } else {
                    let t = format!("t{vars}");
                    let th = g.expr(
                        &Scope {
                            scalars: [s.scalars.clone(), vec![t.clone()]].concat(),
                            ..s.clone()
                        },
                        2,
                    );
                    out.line(
                        format!(
                            "    let Some({t}) = try_at({}) else {{\n        return {};\n    }};\n    let {v} = {};",
                            a.plain, b.plain, th.plain
                        ),
                        format!(
                            "    let Some({t}) = try_at_nd({}) else {{\n        return {};\n    }};\n    let {v} = {};",
                            a.dual, b.dual, th.dual
                        ),
                    );
                }
            }
            34 => {
                // An `FnMut` closure accumulating into captured locals.
                let (tot, cnt) = (format!("tot{vars}"), format!("cnt{vars}"));
                let mut inner = s.clone();
                inner.scalars.extend(["t".to_string(), tot.clone()]);
                inner.closures.clear();
                let e = g.expr(&inner, 2);
                out.line(
                    format!(
                        "    let mut {tot} = 0.0;\n    let mut {cnt} = 0;\n    each(x, |t| {{\n        {tot} = 0.5 * {tot} + {};\n        {cnt} += 1;\n    }});\n    \
                         let {v} = {tot} / {cnt} as f64;",
                        e.plain
                    ),
                    format!(
                        "    let mut {tot} = D::from(0.0);\n    let mut {cnt} = 0;\n    each_nd(x, |t| {{\n        {tot} = D::from(0.5) * {tot} + {};\n        {cnt} += 1;\n    }});\n    \
                         let {v} = fwdad_fuzz::div({tot}, D::from({cnt} as f64));",
                        e.dual
                    ),
                );
            }
            35 => {
                // The generic helper taking a closure, called at `f64`.
                let mut inner = s.clone();
                inner.scalars.push("t".into());
                inner.closures.clear();
                let (f, a, b) = (g.expr(&inner, 2), g.expr(&s, 2), g.expr(&s, 2));
                out.line(
                    format!(
                        "    let {v} = gmid(|t| {}, {}, {});",
                        f.plain, a.plain, b.plain
                    ),
                    format!(
                        "    let {v} = gmid_nd(|t: D| {}, {}, {});",
                        f.dual, a.dual, b.dual
                    ),
                );
            }
            36 => {
                // A labelled `break` with a value out of a `for` inside a `loop`.
                let acc = format!("acc{vars}");
                let init = g.expr(&s, 2);
                let mut inner = s.clone();
                inner.scalars.push(acc.clone());
                let r = g.expr(&inner, 2);
                inner.index = Some("i".into());
                let e = g.expr(&inner, 2);
                out.line(
                    format!(
                        "    let mut {acc} = {};\n    let {v} = 'outer: loop {{\n        for i in 0..x.len() {{\n            \
                         {acc} = 0.5 * {acc} + {};\n            if {acc} > 1.5 {{\n                break 'outer {acc} * 2.0;\n            }}\n        }}\n        \
                         break {};\n    }};",
                        init.plain, e.plain, r.plain
                    ),
                    format!(
                        "    let mut {acc} = {};\n    let {v} = 'outer: loop {{\n        for i in 0..x.len() {{\n            \
                         {acc} = D::from(0.5) * {acc} + {};\n            if {acc}.re() > 1.5 {{\n                break 'outer {acc} * D::from(2.0);\n            }}\n        }}\n        \
                         break {};\n    }};",
                        init.dual, e.dual, r.dual
                    ),
                );
            }
            37 => {
                // `max_by` over structs built in a chain, an `Option` of a struct.
                let mut inner = s.clone();
                inner.scalars.push("t".into());
                let (e, d) = (g.expr(&inner, 2), g.expr(&s, 2));
                out.line(
                    format!(
                        "    let {v} = x\n        .iter()\n        .map(|&t| V2::new(t, {}))\n        .max_by(|a, b| a.x.total_cmp(&b.x))\n        \
                         .map_or({}, |p| p.shape() - p.y);",
                        e.plain, d.plain
                    ),
                    format!(
                        "    let {v} = x\n        .iter()\n        .map(|&t| V2Nd::new(t, {}))\n        .max_by(|a, b| a.x.re().total_cmp(&b.x.re()))\n        \
                         .map_or({}, |p| p.shape() - p.y);",
                        e.dual, d.dual
                    ),
                );
            }
            38 => {
                // `scan` carrying a state, then `map` and `sum`.
                let f = *g.rng.pick(FACTORS);
                let mut inner = s.clone();
                inner.scalars.push("t".into());
                let e = g.expr(&inner, 2);
                out.line(
                    format!(
                        "    let {v} = x\n        .iter()\n        .scan(0.0, |st, &t| {{\n            *st = *st * {f} + t;\n            Some(*st)\n        }})\n        \
                         .map(|t| {})\n        .sum::<f64>();",
                        e.plain
                    ),
                    format!(
                        "    let {v} = x\n        .iter()\n        .scan(D::from(0.0), |st, &t| {{\n            *st = *st * D::from({f}) + t;\n            Some(*st)\n        }})\n        \
                         .map(|t| {})\n        .fold(D::from(-0.0), |s, t| s + t);",
                        e.dual
                    ),
                );
            }
            39 => {
                // `f32` arithmetic inline: the inputs converted, an iterator chain over
                // them, the sum converted back.
                loose = true;
                let inner = Scope {
                    scalars: vec!["t".into()],
                    n: 1,
                    ..Scope::default()
                };
                let e = g.with(Flavor::F32, true, |g| g.expr(&inner, 2));
                let xs = format!("xs{vars}");
                out.line(
                    format!(
                        "    let {xs}: Vec<f32> = x.iter().map(|&t| t as f32).collect();\n    \
                         let {v} = f64::from({xs}.iter().map(|&t| {}).sum::<f32>());",
                        e.plain
                    ),
                    format!(
                        "    let {v} = {{\n        let xs: Vec<f32> = x.iter().map(|t| t.re() as f32).collect();\n        \
                         let plain = xs.iter().map(|&t| {}).sum::<f32>();\n        \
                         fwdad_fuzz::fix(x.iter().map(|&t| {}).fold(D::from(-0.0), |s, t| s + t), f64::from(plain))\n    }};",
                        e.plain, e.dual
                    ),
                );
            }
            40 => {
                // A `Vec` of structs stepped through `iter_mut`, summed with `+=`, indexed.
                let mut inner = s.clone();
                inner.scalars.push("t".into());
                let (e, k, w) = (g.expr(&inner, 2), g.expr(&s, 2), g.expr(&s, 2));
                let (ps, acc) = (format!("qs{vars}"), format!("sum{vars}"));
                let render = |ty: &str, zero: &str, e: &str, k: &str, w: &str| {
                    format!(
                        "    let mut {ps}: Vec<{ty}> = x.iter().map(|&t| {}::new(t, {e})).collect();\n    \
                         let mut {acc} = {}::new({zero}, {zero});\n    for p in {ps}.iter_mut() {{\n        p.step({k});\n        {acc} += *p;\n    }}\n    \
                         let {v} = {acc}[0] * {w} + {acc}[1];",
                        ty.split('<').next().unwrap(),
                        ty.split('<').next().unwrap()
                    )
                };
                out.line(
                    render("V2", "0.0", &e.plain, &k.plain, &w.plain),
                    render("V2Nd<D>", "D::from(0.0)", &e.dual, &k.dual, &w.dual),
                );
                s.scalars.push(format!("{acc}.x"));
            }
            41 => {
                // The enum changed in place by its `&mut self` method.
                let e: Vec<Expr> = (0..4).map(|_| g.expr(&s, 2)).collect();
                let sh = format!("sm{vars}");
                let (ctor, ctor_nd) = match g.rng.below(3) {
                    0 => (
                        format!("Shape::Circle {{ r: {} }}", e[0].plain),
                        format!("ShapeNd::Circle {{ r: {} }}", e[0].dual),
                    ),
                    1 => (
                        format!("Shape::Rect {{ w: {}, h: {} }}", e[0].plain, e[1].plain),
                        format!("ShapeNd::Rect {{ w: {}, h: {} }}", e[0].dual, e[1].dual),
                    ),
                    _ => (
                        format!("Shape::Pt({})", e[0].plain),
                        format!("ShapeNd::Pt({})", e[0].dual),
                    ),
                };
                out.line(
                    format!(
                        "    let mut {sh} = {ctor};\n    {sh}.scale({});\n    let {v} = area(&{sh}, {});",
                        e[2].plain, e[3].plain
                    ),
                    format!(
                        "    let mut {sh} = {ctor_nd};\n    {sh}.scale({});\n    let {v} = area_nd(&{sh}, {});",
                        e[2].dual, e[3].dual
                    ),
                );
            }
            42 => {
                // A struct with an array field, built here and by a derived function.
                let e: Vec<Expr> = (0..4).map(|_| g.expr(&s, 2)).collect();
                let pl = format!("pl{vars}");
                out.line(
                    format!(
                        "    let {pl} = Poly {{\n        c: [{}, {}, {}],\n    }};\n    let {v} = {pl}.eval({}) + fit(x).eval(0.5);",
                        e[0].plain, e[1].plain, e[2].plain, e[3].plain
                    ),
                    format!(
                        "    let {pl} = PolyNd {{\n        c: [{}, {}, {}],\n    }};\n    let {v} = {pl}.eval({}) + fit_nd(x).eval(D::from(0.5));",
                        e[0].dual, e[1].dual, e[2].dual, e[3].dual
                    ),
                );
                s.scalars.push(format!("{pl}.c[1]"));
            }
            43 => {
                // A trait's constructor through a type parameter named by turbofish.
                let (a, b) = (g.expr(&s, 2), g.expr(&s, 2));
                out.line(
                    format!("    let {v} = build::<Lin>({}, {});", a.plain, b.plain),
                    format!(
                        "    let {v} = build_nd::<D, LinNd<D>>({}, {});",
                        a.dual, b.dual
                    ),
                );
            }
            44 => {
                // `?` inside a helper returning `Option`, then a default.
                let (a, b) = (g.expr(&s, 2), g.expr(&s, 2));
                out.line(
                    format!(
                        "    let {v} = chain_at({}).unwrap_or({});",
                        a.plain, b.plain
                    ),
                    format!(
                        "    let {v} = chain_at_nd({}).unwrap_or({});",
                        a.dual, b.dual
                    ),
                );
            }
            45 => {
                // A generic helper filling a buffer, read back by `rev().enumerate()`.
                let a = g.expr(&s, 2);
                let bf = format!("gb{vars}");
                out.line(
                    format!(
                        "    let mut {bf} = vec![0.0; x.len()];\n    gfill(&mut {bf}, {});\n    \
                         let {v} = {bf}.iter().rev().enumerate().map(|(i, t)| t * (i as f64 + 1.0)).sum::<f64>();",
                        a.plain
                    ),
                    format!(
                        "    let mut {bf} = vec![D::from(0.0); x.len()];\n    gfill_nd(&mut {bf}, {});\n    \
                         let {v} = {bf}.iter().rev().enumerate().map(|(i, t)| *t * D::from(i as f64 + 1.0)).fold(D::from(-0.0), |s, t| s + t);",
                        a.dual
                    ),
                );
            }
            46 => {
                // `while let` draining a stack.
                let (st, acc) = (format!("st{vars}"), format!("dr{vars}"));
                let mut inner = s.clone();
                inner.scalars.extend(["t".to_string(), acc.clone()]);
                let e = g.expr(&inner, 2);
                let f = *g.rng.pick(FACTORS);
                out.line(
                    format!(
                        "    let mut {st} = x.to_vec();\n    let mut {acc} = 0.0;\n    while let Some(t) = {st}.pop() {{\n        {acc} = {acc} * {f} + {};\n    }}\n    let {v} = {acc};",
                        e.plain
                    ),
                    format!(
                        "    let mut {st} = x.to_vec();\n    let mut {acc} = D::from(0.0);\n    while let Some(t) = {st}.pop() {{\n        {acc} = {acc} * D::from({f}) + {};\n    }}\n    let {v} = {acc};",
                        e.dual
                    ),
                );
            }
            47 => {
                // `chunks` and `step_by`.
                let mut inner = s.clone();
                inner
                    .scalars
                    .extend(["c[0]".to_string(), "c[c.len() - 1]".to_string()]);
                let e = g.expr(&inner, 2);
                let mut inner2 = s.clone();
                inner2.index = Some("i".into());
                let e2 = g.expr(&inner2, 2);
                out.line(
                    format!(
                        "    let mut {v} = x.chunks(2).map(|c| {}).sum::<f64>();\n    for i in (0..x.len()).step_by(2) {{\n        {v} += {};\n    }}",
                        e.plain, e2.plain
                    ),
                    format!(
                        "    let mut {v} = x.chunks(2).map(|c| {}).fold(D::from(-0.0), |s, t| s + t);\n    for i in (0..x.len()).step_by(2) {{\n        {v} += {};\n    }}",
                        e.dual, e2.dual
                    ),
                );
            }
            48 => {
                // A by-value `self` method returning `Self`, a method returning a pair.
                let e: Vec<Expr> = (0..3).map(|_| g.expr(&s, 2)).collect();
                let (q, a, b) = (
                    format!("sv{vars}"),
                    format!("sa{vars}"),
                    format!("sd{vars}"),
                );
                let render = |ty: &str, e: &[&str]| {
                    format!(
                        "    let {q} = {ty}::new({}, {}).scaled({});\n    let ({a}, {b}) = {q}.split();\n    let {v} = {a} * {b} + {q}.x;",
                        e[0], e[1], e[2]
                    )
                };
                let plain: Vec<&str> = e.iter().map(|e| e.plain.as_str()).collect();
                let dual: Vec<&str> = e.iter().map(|e| e.dual.as_str()).collect();
                out.line(render("V2", &plain), render("V2Nd", &dual));
                s.scalars.push(format!("{q}.y"));
            }
            49 => {
                // A closure building structs, called twice.
                let mut inner = s.clone();
                inner.scalars.push("t".into());
                inner.closures.clear();
                let (f, a, b) = (g.expr(&inner, 2), g.expr(&s, 2), g.expr(&s, 2));
                let mk = format!("mk{vars}");
                out.line(
                    format!(
                        "    let {mk} = |t: f64| V2::new(t, {});\n    let {v} = {mk}({}).dot(&{mk}({}));",
                        f.plain, a.plain, b.plain
                    ),
                    format!(
                        "    let {mk} = |t: D| V2Nd::new(t, {});\n    let {v} = {mk}({}).dot(&{mk}({}));",
                        f.dual, a.dual, b.dual
                    ),
                );
            }
            50 => {
                // A tuple struct through `&impl Model`, a generic parameter and directly.
                let e: Vec<Expr> = (0..5).map(|_| g.expr(&s, 2)).collect();
                let pr = format!("pr{vars}");
                out.line(
                    format!(
                        "    let {pr} = Pair({}, {});\n    let {v} = run_impl(&{pr}, {}) + {pr}.0 * {pr}.twice({}) + run_model(&{pr}, {});",
                        e[0].plain, e[1].plain, e[2].plain, e[3].plain, e[4].plain
                    ),
                    format!(
                        "    let {pr} = PairNd({}, {});\n    let {v} = run_impl_nd(&{pr}, {}) + {pr}.0 * {pr}.twice({}) + run_model_nd(&{pr}, {});",
                        e[0].dual, e[1].dual, e[2].dual, e[3].dual, e[4].dual
                    ),
                );
                s.scalars.push(format!("{pr}.1"));
            }
            51 => {
                // An `Option` of a struct.
                let mut inner = s.clone();
                inner.scalars.push("t".into());
                let (a, f, d) = (g.expr(&s, 2), g.expr(&inner, 2), g.expr(&s, 2));
                out.line(
                    format!(
                        "    let {v} = try_at({}).map(|t| V2::new(t, {})).map_or({}, |p| p.shape());",
                        a.plain, f.plain, d.plain
                    ),
                    format!(
                        "    let {v} = try_at_nd({}).map(|t| V2Nd::new(t, {})).map_or({}, |p| p.shape());",
                        a.dual, f.dual, d.dual
                    ),
                );
            }
            52 => {
                // A `match` on a tuple with guards, in a loop.
                let mut inner = s.clone();
                inner.scalars.push("t".into());
                inner.index = Some("i".into());
                let arms: Vec<Expr> = (0..4).map(|_| g.expr(&inner, 2)).collect();
                out.line(
                    format!(
                        "    let mut {v} = 0.0;\n    for (i, &t) in x.iter().enumerate() {{\n        {v} += match (i % 3, t > 0.0) {{\n            \
                         (0, true) => {},\n            (_, false) if t < -1.0 => {},\n            (1, _) => {},\n            _ => {},\n        }};\n    }}",
                        arms[0].plain, arms[1].plain, arms[2].plain, arms[3].plain
                    ),
                    format!(
                        "    let mut {v} = D::from(0.0);\n    for (i, &t) in x.iter().enumerate() {{\n        {v} += match (i % 3, t.re() > 0.0) {{\n            \
                         (0, true) => {},\n            (_, false) if t.re() < -1.0 => {},\n            (1, _) => {},\n            _ => {},\n        }};\n    }}",
                        arms[0].dual, arms[1].dual, arms[2].dual, arms[3].dual
                    ),
                );
            }
            56 => {
                // A closure passed to a helper writing captures other than by assigning
                // the name: a tuple's field, a `Vec` it pushes to, locals swapped through
                // `&mut` (before, each wrote into a copy: a wrong primal).
                let (pr, seen, k) = (
                    format!("pr{vars}"),
                    format!("seen{vars}"),
                    format!("k{vars}"),
                );
                let mut inner = s.clone();
                inner.scalars.extend(["t".to_string(), format!("{pr}.1")]);
                inner.closures.clear();
                let e = g.expr(&inner, 2);
                let body = |d: fn(&str) -> String, each: &str, e: &str| {
                    format!(
                        "    let mut {pr} = ({}, {});
    let (mut {k}a, mut {k}b) = (1usize, 2usize);
    let mut {seen} = Vec::new();
    {each}(x, |t| {{
        {pr}.0 = {} * {pr}.0 + {e};
        {seen}.push(1u8);
        std::mem::swap(&mut {k}a, &mut {k}b);
    }});
    let {v} = {pr}.0 + {pr}.1 * {};
",
                        d("0.0"),
                        d("1.0"),
                        d("0.5"),
                        d(&format!("({seen}.len() * {k}a) as f64"))
                    )
                };
                out.line(
                    body(|c| c.to_string(), "each", &e.plain).trim_end(),
                    body(|c| format!("D::from({c})"), "each_nd", &e.dual).trim_end(),
                );
            }
            57 => {
                // A scaled distance `√(dz² + (a·dz)²)` where `dz = e - e` is exactly 0
                // with zero derivatives: the rule's strong zeros at `sqrt(0)` give 0 in
                // every mode (batches multiplied the coefficients ∞·0 = NaN). The
                // reference takes `|dz|`, whose derivatives are 0 there too. (A term
                // linear in `dz` cancels only across its two roots: see docs/limits.md.)
                let dz = format!("dz{vars}");
                let mut inner = s.clone();
                inner.closures.clear();
                let (e, w, a, b) = (
                    g.expr(&inner, 2),
                    g.expr(&inner, 2),
                    g.expr(&inner, 2),
                    g.expr(&inner, 2),
                );
                out.line(
                    format!(
                        "    let {dz} = ({}) - ({});\n    let {v} = {} * ({dz} * {dz} + ({} * {dz}) * ({} * {dz})).sqrt() * {dz} + {};",
                        e.plain, e.plain, w.plain, a.plain, a.plain, b.plain
                    ),
                    format!(
                        "    let {dz} = ({}) - ({});\n    let {v} = {} * {dz}.abs() * {dz} + {};",
                        e.dual, e.dual, w.dual, b.dual
                    ),
                );
            }
            58 => {
                // `√(a·x[k] − a·x[j])` where `j = (k + n) % n` is `k`: the root of a
                // difference of one element's two reads, 0 whatever `x`, so its derivatives
                // are 0 (the reference writes 0). Batches gave NaN: absorbed, the two reads
                // are two roots whose coefficients `±∞·a` added to NaN (the operand is now
                // materialised, and the Jacobian entry sums one column before the kink).
                let mut inner = s.clone();
                inner.closures.clear();
                let (a, w, b) = (g.expr(&inner, 2), g.expr(&inner, 2), g.expr(&inner, 2));
                let (k, n) = (g.rng.below(n), n);
                out.line(
                    format!(
                        "    let a{v} = {};\n    let {v} = {} * (a{v} * x[{k}] - a{v} * x[({k} + {n}) % {n}]).sqrt() + {};",
                        a.plain, w.plain, b.plain
                    ),
                    format!(
                        "    let a{v} = {};\n    let {v} = {} * (a{v} - a{v}) + {};",
                        a.dual, w.dual, b.dual
                    ),
                );
            }
            54 | 55 => {
                // A cursor closure with state (`let mut next = || { .. cur += 1; .. }`),
                // called inside a chain's closure: the state is loop-carried.
                let (cur, nx) = (format!("cur{vars}"), format!("nx{vars}"));
                let mut inner = s.clone();
                inner.scalars.push("t".into());
                inner.closures.clear();
                let e = g.expr(&inner, 2);
                let (k, n) = (1 + g.rng.below(2 * s.n), s.n);
                let head = format!(
                    "    let mut {cur} = 0usize;\n    let mut {nx} = || {{\n        let t = x[{cur} % {n}];\n        {cur} += 1;\n        t\n    }};\n    let {v} = (0..{k}).map(|_| {{\n        let t = {nx}();\n"
                );
                out.line(
                    format!("{head}        {}\n    }}).sum::<f64>();", e.plain),
                    format!(
                        "{head}        {}\n    }}).fold(D::from(-0.0), |s, t| s + t);",
                        e.dual
                    ),
                );
            }
            59 => {
                // Scaled squares summed in a loop from a live start (a spring energy): one
                // direction defers the squares' factors 2 into the sum, carries them
                // through the loop and applies them after it.
                let mut inner = s.clone();
                inner.scalars.push("x[i]".into());
                let (init, a, k) = (g.expr(&s, 2), g.expr(&inner, 2), g.expr(&s, 1));
                out.line(
                    format!(
                        "    let mut {v} = {};\n    for i in 0..x.len() {{\n        let d = x[i] - {};\n        let r = (d * d + x[0] * x[0]).sqrt() - 0.5;\n        {v} += 0.5 * {} * r * r;\n    }}",
                        init.plain, a.plain, k.plain
                    ),
                    format!(
                        "    let mut {v} = {};\n    for i in 0..x.len() {{\n        let d = x[i] - {};\n        let r = (d * d + x[0] * x[0]).sqrt() - D::from(0.5);\n        {v} += D::from(0.5) * {} * r * r;\n    }}",
                        init.dual, a.dual, k.dual
                    ),
                );
            }
            60 => {
                // A root that one arm of an `if` does not read, whose tangent is NaN where
                // the arm is taken: `√(e − f)` below 0, replaced by another value when it
                // is NaN (`if a.is_nan() { w } else { a·u }`). Batches multiplied the
                // root's NaN tangent by the arm's zero coefficient (one direction never
                // met it); about half the points take that arm.
                let mut inner = s.clone();
                inner.closures.clear();
                let (e, f, w, u) = (
                    g.expr(&inner, 2),
                    g.expr(&inner, 2),
                    g.expr(&inner, 1),
                    g.expr(&inner, 1),
                );
                kept.push(v.clone());
                out.line(
                    format!(
                        "    let a{v} = (({}) - ({})).sqrt();\n    let {v} = if a{v}.is_nan() {{\n        {}\n    }} else {{\n        a{v} * {}\n    }};",
                        e.plain, f.plain, w.plain, u.plain
                    ),
                    format!(
                        "    let a{v} = (({}) - ({})).sqrt();\n    let {v} = if a{v}.re().is_nan() {{\n        {}\n    }} else {{\n        a{v} * {}\n    }};",
                        e.dual, f.dual, w.dual, u.dual
                    ),
                );
            }
            61 => {
                // A scan whose loop body ends in an `if` or a `match` none of whose arms
                // reaches its end (each `continue`s or `break`s): the body's end is dead
                // (it was an internal error, the body yielding no carried values).
                let init = g.expr(&s, 2);
                let c = *g.rng.pick(FACTORS);
                let mut inner = s.clone();
                inner.index = Some("i".into());
                inner.scalars.push(v.clone());
                inner.closures.clear();
                let (e, thr) = (g.expr(&inner, 2), g.expr(&s, 1));
                let (plain, dual) = if g.rng.chance(50) {
                    (
                        format!(
                            "    let mut {v} = {};\n    let mut i{v} = 0;\n    while i{v} < x.len() {{\n        let i = i{v};\n        let t = {};\n        i{v} += 1;\n        if t > {} {{\n            {v} = {v} * {c} + t;\n            continue;\n        }} else if i % 2 == 0 {{\n            {v} -= 0.5 * t;\n            continue;\n        }} else {{\n            break;\n        }}\n    }}",
                            init.plain, e.plain, thr.plain
                        ),
                        format!(
                            "    let mut {v} = {};\n    let mut i{v} = 0;\n    while i{v} < x.len() {{\n        let i = i{v};\n        let t = {};\n        i{v} += 1;\n        if t.re() > ({}).re() {{\n            {v} = {v} * D::from({c}) + t;\n            continue;\n        }} else if i % 2 == 0 {{\n            {v} -= D::from(0.5) * t;\n            continue;\n        }} else {{\n            break;\n        }}\n    }}",
                            init.dual, e.dual, thr.dual
                        ),
                    )
                } else {
                    (
                        format!(
                            "    let mut {v} = {};\n    for i in 0..x.len() {{\n        let t = {};\n        match i % 3 {{\n            0 => {{\n                {v} = {v} * {c} + t;\n                continue;\n            }}\n            1 if t > {} => break,\n            _ => {{\n                {v} -= 0.5 * t;\n                continue;\n            }}\n        }}\n    }}",
                            init.plain, e.plain, thr.plain
                        ),
                        format!(
                            "    let mut {v} = {};\n    for i in 0..x.len() {{\n        let t = {};\n        match i % 3 {{\n            0 => {{\n                {v} = {v} * D::from({c}) + t;\n                continue;\n            }}\n            1 if t.re() > ({}).re() => break,\n            _ => {{\n                {v} -= D::from(0.5) * t;\n                continue;\n            }}\n        }}\n    }}",
                            init.dual, e.dual, thr.dual
                        ),
                    )
                };
                out.line(plain, dual);
            }
            62 => {
                // Nine readings, some NaN, sorted by a comparator that sends NaN to
                // `Equal` (`partial_cmp(..).unwrap_or(Equal)`, no total order), then the
                // finite ones weighted by their place: the order is `std`'s own (it was
                // another: the rule's merge sort).
                let e = g.expr(&s, 2);
                let c = *g.rng.pick(FACTORS);
                let so = format!("so{vars}");
                kept.push(v.clone());
                out.line(
                    format!(
                        "    let mut {so} = Vec::new();\n    for k in 0..9 {{\n        let t = x[k % x.len()] * {c} + (k as f64) * 0.375 + {};\n        if (t * 3.0).sin() > 0.25 {{\n            {so}.push(f64::NAN);\n        }} else {{\n            {so}.push(t);\n        }}\n    }}\n    {so}.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));\n    let mut {v} = 0.0;\n    for (k, a) in {so}.iter().enumerate() {{\n        if !a.is_nan() {{\n            {v} += (k as f64 + 1.0) * a;\n        }}\n    }}",
                        e.plain
                    ),
                    format!(
                        "    let mut {so} = Vec::new();\n    for k in 0..9 {{\n        let t = x[k % x.len()] * D::from({c}) + D::from((k as f64) * 0.375) + {};\n        if (t.re() * 3.0).sin() > 0.25 {{\n            {so}.push(D::from(f64::NAN));\n        }} else {{\n            {so}.push(t);\n        }}\n    }}\n    {so}.sort_by(|a, b| a.re().partial_cmp(&b.re()).unwrap_or(std::cmp::Ordering::Equal));\n    let mut {v} = D::from(0.0);\n    for (k, a) in {so}.iter().enumerate() {{\n        if !a.re().is_nan() {{\n            {v} += D::from(k as f64 + 1.0) * *a;\n        }}\n    }}",
                        e.dual
                    ),
                );
            }
            63 => {
                // A chain whose `map` closure advances a captured state, then `skip` and
                // `step_by` (a Markov chain's burn-in and thinning): `std` runs the
                // closure on the items they pass over (the rule's index model did not).
                let init = g.expr(&s, 2);
                let c = *g.rng.pick(FACTORS);
                let mut inner = s.clone();
                inner.closures.clear();
                let e = g.expr(&inner, 1);
                let st = format!("st{v}");
                let (src, item) = if g.rng.chance(50) {
                    ("(0..9)", "x[k % x.len()]".to_string())
                } else {
                    ("x.iter()", "t".to_string())
                };
                let arg = if src == "x.iter()" { "&t" } else { "k" };
                let mut adaptors = String::new();
                match g.rng.below(3) {
                    0 => write!(adaptors, ".skip({})", 1 + g.rng.below(3)).unwrap(),
                    1 => write!(adaptors, ".step_by({})", 2 + g.rng.below(2)).unwrap(),
                    _ => write!(
                        adaptors,
                        ".skip({}).step_by({})",
                        1 + g.rng.below(2),
                        2 + g.rng.below(2)
                    )
                    .unwrap(),
                }
                kept.push(v.clone());
                out.line(
                    format!(
                        "    let mut {st} = {};
    let {v} = {src}
        .map(|{arg}| {{
            {st} = {st} * {c} + {item} * {};
            {st} * {st}
        }})
        {adaptors}
        .sum::<f64>()
        + {st};",
                        init.plain, e.plain
                    ),
                    format!(
                        "    let mut {st} = {};
    let {v} = {src}
        .map(|{arg}| {{
            {st} = {st} * D::from({c}) + {item} * {};
            {st} * {st}
        }})
        {adaptors}
        .fold(D::from(-0.0), |s, t| s + t)
        + {st};",
                        init.dual, e.dual
                    ),
                );
            }
            64 => {
                // Trait objects boxed from the inputs in the body (`Vec<Box<dyn Stepper>>`
                // of a `Lin` and a `V2`), stepped by a `&mut self` method through
                // `iter_mut` (or one of them through an index), maybe swapped, then read
                // with their places as weights. The reference steps the two values alone.
                let mut inner = s.clone();
                inner.closures.clear();
                let (a, b, c, t) = (
                    g.expr(&inner, 2),
                    g.expr(&inner, 2),
                    g.expr(&inner, 2),
                    g.expr(&inner, 2),
                );
                let steps = 1 + g.rng.below(3);
                let swap = g.rng.chance(50);
                let by_index = g.rng.chance(30);
                let bx = format!("bx{v}");
                let step = if by_index {
                    format!(
                        "        {bx}[1].advance({});\n        {bx}[0].advance({});\n",
                        t.plain, t.plain
                    )
                } else {
                    format!("        for b in {bx}.iter_mut() {{\n            b.advance({});\n        }}\n", t.plain)
                };
                let (w0, w1) = if swap { ("lb", "la") } else { ("la", "lb") };
                kept.push(v.clone());
                out.line(
                    format!(
                        "    let mut {bx}: Vec<Box<dyn Stepper>> = vec![\n        Box::new(Lin {{ k: {} }}),\n        Box::new(V2 {{ x: {}, y: {} }}),\n    ];\n    for _ in 0..{steps} {{\n{step}    }}\n{}    let {v} = {bx}\n        .iter()\n        .enumerate()\n        .map(|(i, b)| (i as f64 + 1.0) * b.read())\n        .sum::<f64>();",
                        a.plain,
                        b.plain,
                        c.plain,
                        if swap { format!("    {bx}.swap(0, 1);\n") } else { String::new() }
                    ),
                    format!(
                        "    let mut la{v} = LinNd {{ k: {} }};\n    let mut lb{v} = V2Nd {{ x: {}, y: {} }};\n    for _ in 0..{steps} {{\n        {}\n        {}\n    }}\n    let {v} = {w0}{v}.read() + D::from(2.0) * {w1}{v}.read();",
                        a.dual,
                        b.dual,
                        c.dual,
                        if by_index { format!("lb{v}.advance({});", t.dual) } else { format!("la{v}.advance({});", t.dual) },
                        if by_index { format!("la{v}.advance({});", t.dual) } else { format!("lb{v}.advance({});", t.dual) },
                    ),
                );
            }
            65 if n >= 2 && g.rng.chance(50) => {
                // A cursor of pieces held in a `let mut` (`chunks`, `chunks_exact`,
                // `windows`) read by `next()`, then the same name bound to a cursor of
                // another kind read by `while let` to its end (or by a `for` loop or a chain
                // over the rest): the second cursor's pieces are its own.
                let kinds = ["chunks", "chunks_exact", "windows"];
                let first = g.rng.below(3);
                let second = (first + 1 + g.rng.below(2)) % 3;
                let (k1, k2) = (1 + g.rng.below(n.min(3)), 1 + g.rng.below(n.min(3)));
                let c = *g.rng.pick(FACTORS);
                let mut inner = s.clone();
                inner.closures.clear();
                inner
                    .scalars
                    .extend(["h[0]".to_string(), "h[h.len() - 1]".to_string()]);
                let e = g.expr(&inner, 2);
                let mut inner2 = s.clone();
                inner2.closures.clear();
                inner2
                    .scalars
                    .extend(["p[0]".to_string(), "p[p.len() - 1]".to_string()]);
                let e2 = g.expr(&inner2, 2);
                let it = format!("it{v}");
                let (k1s, k2s) = (kinds[first], kinds[second]);
                let read = match g.rng.below(3) {
                    0 => (
                        format!("    while let Some(p) = {it}.next() {{\n        {v} = {v} * {c} + {};\n    }}", e2.plain),
                        format!("    while let Some(p) = {it}.next() {{\n        {v} = {v} * D::from({c}) + {};\n    }}", e2.dual),
                    ),
                    1 => (
                        format!("    {it}.next();\n    for p in {it} {{\n        {v} = {v} * {c} + {};\n    }}", e2.plain),
                        format!("    {it}.next();\n    for p in {it} {{\n        {v} = {v} * D::from({c}) + {};\n    }}", e2.dual),
                    ),
                    _ => (
                        format!("    {it}.next();\n    {v} += {it}.map(|p| {}).sum::<f64>();", e2.plain),
                        format!("    {it}.next();\n    {v} += {it}.map(|p| {}).fold(D::from(-0.0), |s, t| s + t);", e2.dual),
                    ),
                };
                kept.push(v.clone());
                out.line(
                    format!(
                        "    let mut {it} = x.{k1s}({k1});\n    let h = {it}.next().unwrap();\n    let mut {v} = {};\n    let mut {it} = x.{k2s}({k2});\n{}",
                        e.plain, read.0
                    ),
                    format!(
                        "    let mut {it} = x.{k1s}({k1});\n    let h = {it}.next().unwrap();\n    let mut {v} = {};\n    let mut {it} = x.{k2s}({k2});\n{}",
                        e.dual, read.1
                    ),
                );
            }
            65 => {
                // A list of closures written in the body (boxed in a `vec!`, or an array
                // of `Box::new(..) as Box<dyn Fn>`), walked by a chain zipped with the
                // inputs and summed: `zip` stops at the shorter side, and the sum starts
                // at `-0.0` as `std`'s does. The reference calls each closure by name.
                let mut inner = s.clone();
                inner.closures.clear();
                inner.slices.clear();
                inner.index = None;
                // Not a part of a local collection (`ps0[0].y`): the `move` closures would
                // take the collection, which the program reads again.
                inner
                    .scalars
                    .retain(|v| !v.contains('[') || v.starts_with("x["));
                inner.scalars.push("t".into());
                let m = 2 + g.rng.below(3);
                let bodies: Vec<Expr> = (0..m).map(|_| g.expr(&inner, 2)).collect();
                let arg = g.expr(&s, 2);
                let fl = format!("fl{v}");
                let boxed = g.rng.chance(50);
                let (mut plain, mut dual) = (String::new(), String::new());
                if boxed {
                    writeln!(plain, "    let {fl}: Vec<Box<dyn Fn(f64) -> f64>> = vec![").unwrap();
                    for b in &bodies {
                        writeln!(plain, "        Box::new(move |t| {}),", b.plain).unwrap();
                    }
                    plain.push_str("    ];\n");
                } else {
                    plain.push_str(&format!("    let {fl} = [\n"));
                    for (k, b) in bodies.iter().enumerate() {
                        let cast = if k == 0 {
                            " as Box<dyn Fn(f64) -> f64>"
                        } else {
                            ""
                        };
                        writeln!(plain, "        Box::new(move |t: f64| {}){cast},", b.plain)
                            .unwrap();
                    }
                    plain.push_str("    ];\n");
                }
                for (k, b) in bodies.iter().enumerate() {
                    writeln!(dual, "    let f{k}{v} = move |t: D| {};", b.dual).unwrap();
                }
                let refs: Vec<String> = (0..m).map(|k| format!("&f{k}{v}")).collect();
                writeln!(
                    dual,
                    "    let {fl}: [&dyn Fn(D) -> D; {m}] = [{}];",
                    refs.join(", ")
                )
                .unwrap();
                let weights = if g.rng.chance(50) { "x" } else { "&x[1..]" };
                writeln!(
                    plain,
                    "    let a{v} = {};\n    let {v} = {fl}.iter().zip({weights}).map(|(f, w)| w * f(a{v})).sum::<f64>();",
                    arg.plain
                )
                .unwrap();
                writeln!(
                    dual,
                    "    let a{v} = {};\n    let {v} = {fl}.iter().zip({weights}).map(|(f, w)| *w * f(a{v})).fold(D::from(-0.0), |s, t| s + t);",
                    arg.dual
                )
                .unwrap();
                kept.push(v.clone());
                out.line(plain.trim_end(), dual.trim_end());
            }
            66 => {
                // Trait objects boxed from constants in the body (a `Lin` and a `V2`, in a
                // `let` naming `Vec<Box<dyn Stepper>>`), stepped once or twice by a
                // derived function taking them through `&mut [Box<dyn Stepper>]`, then
                // read; or a fixed list of models built by a plain function
                // (`model_scene()`) read by a helper declaring it `inactive(..)`, with a
                // differentiated argument. The reference steps and reads the two values
                // alone.
                let mut inner = s.clone();
                inner.closures.clear();
                let (t1, t2) = (g.expr(&inner, 2), g.expr(&inner, 2));
                let sc = format!("sc{v}");
                let (k0, x0, y0) = SCENE;
                kept.push(v.clone());
                if g.rng.chance(70) {
                    let twice = g.rng.chance(50);
                    let (p2, d2) = match twice {
                        true => (
                            format!("    step_all(&mut {sc}, {});\n", t2.plain),
                            format!(
                                "    la{v}.advance({});\n    lb{v}.advance({});\n",
                                t2.dual, t2.dual
                            ),
                        ),
                        false => (String::new(), String::new()),
                    };
                    out.line(
                        format!(
                            "    let mut {sc}: Vec<Box<dyn Stepper>> = vec![\n        Box::new(Lin {{ k: {k0} }}),\n        Box::new(V2 {{ x: {x0}, y: {y0} }}),\n    ];\n    step_all(&mut {sc}, {});\n{p2}    let {v} = {sc}\n        .iter()\n        .enumerate()\n        .map(|(i, b)| (i as f64 + 1.0) * b.read())\n        .sum::<f64>();",
                            t1.plain
                        ),
                        format!(
                            "    let (mut la{v}, mut lb{v}) = stepper_scene_nd::<D>();\n    la{v}.advance({});\n    lb{v}.advance({});\n{d2}    let {v} = la{v}.read() + D::from(2.0) * lb{v}.read();",
                            t1.dual, t1.dual
                        ),
                    );
                } else {
                    out.line(
                        format!("    let {v} = fixed_models(&model_scene(), {});", t1.plain),
                        format!("    let {v} = fixed_models_nd({});", t1.dual),
                    );
                }
            }
            67 => {
                // Operators on values of the user's type a derived file function returned
                // (`let a = flow(V2::new(..), t); (a + flow(a * c, t) - b).dot(&a)`), an
                // untyped `Option` local's `take()` in a loop over the inputs.
                let mut inner = s.clone();
                inner.closures.clear();
                let (e1, e2, t1, t2) = (
                    g.expr(&inner, 2),
                    g.expr(&inner, 2),
                    g.expr(&inner, 2),
                    g.expr(&inner, 2),
                );
                let c = *g.rng.pick(FACTORS);
                kept.push(v.clone());
                match g.rng.below(2) {
                    0 => out.line(
                        format!(
                            "    let a{v} = flow(V2::new({}, {}), {});\n    let b{v} = flow(a{v} * {c}, {});\n    let {v} = (a{v} + b{v} - flow(-a{v}, {})).dot(&b{v}) + flow(b{v}, {}).x;",
                            e1.plain, e2.plain, t1.plain, t2.plain, t1.plain, t2.plain
                        ),
                        format!(
                            "    let a{v} = flow_nd(V2Nd::new({}, {}), {});\n    let b{v} = flow_nd(a{v} * D::from({c}), {});\n    let {v} = (a{v} + b{v} - flow_nd(-a{v}, {})).dot(&b{v}) + flow_nd(b{v}, {}).x;",
                            e1.dual, e2.dual, t1.dual, t2.dual, t1.dual, t2.dual
                        ),
                    ),
                    _ => {
                        // `p` typed where it is bound: a method of it (`p.cbrt()`) comes
                        // before the `Some(..)` that gives the `Option` its type (E0282).
                        let mut lp = s.clone();
                        lp.closures.clear();
                        lp.scalars.extend(["p".to_string(), "t".to_string()]);
                        let body = g.expr(&lp, 2);
                        let mut lt = s.clone();
                        lt.closures.clear();
                        lt.scalars.push("t".to_string());
                        let next = g.expr(&lt, 2);
                        out.line(
                            format!(
                                "    let mut o{v} = None;\n    let mut {v} = 0.0;\n    for &t in x {{\n        if let Some(p) = o{v}.take() {{\n            let p: f64 = p;\n            {v} = {v} * {c} + {};\n        }}\n        o{v} = Some({});\n    }}\n    {v} += o{v}.unwrap_or(0.0);",
                                body.plain, next.plain
                            ),
                            format!(
                                "    let mut o{v} = None;\n    let mut {v} = D::from(0.0);\n    for &t in x {{\n        if let Some(p) = o{v}.take() {{\n            let p: D = p;\n            {v} = {v} * D::from({c}) + {};\n        }}\n        o{v} = Some({});\n    }}\n    {v} += o{v}.unwrap_or(D::from(0.0));",
                                body.dual, next.dual
                            ),
                        );
                    }
                }
            }
            68 => {
                // A closure held in a struct's field (`Integ { f: |t: f64| .., a, b, n }`),
                // capturing a differentiated local and a constant, a field written after
                // the literal (`q.b = q.a + w`), a `&self` method calling another
                // (`ends` calls `mid`) and the field's closure called directly.
                let mut inner = s.clone();
                inner.closures.clear();
                let (e1, e2, e3) = (g.expr(&inner, 2), g.expr(&inner, 2), g.expr(&inner, 2));
                let cv = format!("c{v}");
                let body = g.expr(
                    &Scope {
                        scalars: vec!["t".into(), cv.clone()],
                        helpers: s.helpers,
                        n: 1,
                        ..Scope::default()
                    },
                    2,
                );
                let w = *g.rng.pick(FACTORS);
                let n = 1 + g.rng.below(5);
                kept.push(v.clone());
                out.line(
                    format!(
                        "    let {cv} = {};\n    let mut q{v} = Integ {{\n        f: |t: f64| {},\n        a: {},\n        b: 0.0,\n        n: {n},\n    }};\n    q{v}.b = q{v}.a + {w};\n    let {v} = q{v}.ends() + (q{v}.f)({});",
                        e1.plain, body.plain, e2.plain, e3.plain
                    ),
                    format!(
                        "    let {cv} = {};\n    let f{v} = |t: D| {};\n    let qa{v} = {};\n    let qb{v} = qa{v} + D::from({w});\n    let {v} = integ_ends_nd(&f{v}, qa{v}, qb{v}, {n}) + f{v}({});",
                        e1.dual, body.dual, e2.dual, e3.dual
                    ),
                );
            }
            53 => {
                // A sorted copy.
                let e = g.expr(&s, 2);
                let so = format!("so{vars}");
                out.line(
                    format!(
                        "    let mut {so} = x.to_vec();\n    {so}.sort_by(|a, b| a.total_cmp(b));\n    let {v} = {so}[0] * {} + {so}[{so}.len() - 1];",
                        e.plain
                    ),
                    format!(
                        "    let mut {so} = x.to_vec();\n    {so}.sort_by(|a, b| a.re().total_cmp(&b.re()));\n    let {v} = {so}[0] * {} + {so}[{so}.len() - 1];",
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
    let kept: String = kept.iter().map(|k| format!(" + {k}")).collect();
    out.line(
        format!("    {last} + {}{kept}\n}}\n", e.plain),
        format!("    {last} + {}{kept}\n}}\n", e.dual),
    );
    (out.plain, out.dual, loose)
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

/// The reference's bound on its number type. (Its sums fold from `-0.0`, as `f64`'s `Sum`
/// does: an empty sum is `-0.0`.)
const ND: &str = "D: DualNum<Primitive = f64> + Copy";

/// The items programs use besides the scalar helpers, written the way users write them:
/// a `Differentiable` struct `V2` with derived operators and `&self`/`&mut self` methods,
/// an enum with data and a function matching on it, a trait with a default method
/// implemented for two types and called through a generic parameter and `&dyn`, helpers
/// taking closures (`F: Fn`, `&dyn Fn`), one returning an `Option`, `&mut` outputs, helpers
/// generic over `T: Float` and one over `f32`. Each has its num-dual twin (`..Nd`, `.._nd`).
fn user_items(g: &mut Gen, helpers: usize, src: &mut String) {
    let sc = |names: &[&str], helpers: usize| Scope {
        scalars: names.iter().map(|s| s.to_string()).collect(),
        helpers,
        n: 1,
        ..Scope::default()
    };

    // A 2-vector with operators and methods.
    src.push_str(
        "#[derive(Clone, Copy, Debug, Differentiable)]\npub struct V2 {\n    pub x: f64,\n    pub y: f64,\n}\n\n\
         #[derive(Clone, Copy, Debug)]\npub struct V2Nd<D> {\n    pub x: D,\n    pub y: D,\n}\n\n",
    );
    for (tr, f, op) in [("Add", "add", "+"), ("Sub", "sub", "-")] {
        writeln!(
            src,
            "#[derive_frule]\nimpl std::ops::{tr} for V2 {{\n    type Output = V2;\n    fn {f}(self, o: V2) -> V2 {{\n        \
             V2 {{\n            x: self.x {op} o.x,\n            y: self.y {op} o.y,\n        }}\n    }}\n}}\n\n\
             impl<{ND}> std::ops::{tr} for V2Nd<D> {{\n    type Output = V2Nd<D>;\n    fn {f}(self, o: V2Nd<D>) -> V2Nd<D> {{\n        \
             V2Nd {{\n            x: self.x {op} o.x,\n            y: self.y {op} o.y,\n        }}\n    }}\n}}\n"
        )
        .unwrap();
    }
    src.push_str(
        "#[derive_frule]\nimpl std::ops::Mul<f64> for V2 {\n    type Output = V2;\n    fn mul(self, k: f64) -> V2 {\n        \
         V2 {\n            x: self.x * k,\n            y: self.y * k,\n        }\n    }\n}\n\n\
         impl<D: DualNum<Primitive = f64> + Copy> std::ops::Mul<D> for V2Nd<D> {\n    type Output = V2Nd<D>;\n    fn mul(self, k: D) -> V2Nd<D> {\n        \
         V2Nd {\n            x: self.x * k,\n            y: self.y * k,\n        }\n    }\n}\n\n\
         #[derive_frule]\nimpl std::ops::Neg for V2 {\n    type Output = V2;\n    fn neg(self) -> V2 {\n        \
         V2 {\n            x: -self.x,\n            y: -self.y,\n        }\n    }\n}\n\n\
         impl<D: DualNum<Primitive = f64> + Copy> std::ops::Neg for V2Nd<D> {\n    type Output = V2Nd<D>;\n    fn neg(self) -> V2Nd<D> {\n        \
         V2Nd {\n            x: -self.x,\n            y: -self.y,\n        }\n    }\n}\n\n",
    );
    let shape = g.expr(&sc(&["self.x", "self.y"], helpers), 3);
    let sx = g.expr(&sc(&["self.x", "self.y", "k"], helpers), 2);
    let sy = g.expr(&sc(&["self.x", "self.y", "k"], helpers), 2);
    writeln!(
        src,
        "#[derive_frule]\nimpl V2 {{\n    pub fn new(x: f64, y: f64) -> V2 {{\n        V2 {{ x, y }}\n    }}\n\n    \
         pub fn dot(&self, o: &V2) -> f64 {{\n        self.x * o.x + self.y * o.y\n    }}\n\n    \
         pub fn shape(&self) -> f64 {{\n        {}\n    }}\n\n    \
         pub fn step(&mut self, k: f64) {{\n        self.x = {};\n        self.y = {};\n    }}\n}}\n\n\
         impl<{ND}> V2Nd<D> {{\n    pub fn new(x: D, y: D) -> V2Nd<D> {{\n        V2Nd {{ x, y }}\n    }}\n\n    \
         pub fn dot(&self, o: &V2Nd<D>) -> D {{\n        self.x * o.x + self.y * o.y\n    }}\n\n    \
         pub fn shape(&self) -> D {{\n        {}\n    }}\n\n    \
         pub fn step(&mut self, k: D) {{\n        self.x = {};\n        self.y = {};\n    }}\n}}\n",
        shape.plain, sx.plain, sy.plain, shape.dual, sx.dual, sy.dual
    )
    .unwrap();

    // An enum with data, matched by value or through the reference.
    src.push_str(
        "#[derive(Clone, Copy, Debug, Differentiable)]\npub enum Shape {\n    Circle { r: f64 },\n    Rect { w: f64, h: f64 },\n    Pt(f64),\n}\n\n\
         #[derive(Clone, Copy, Debug)]\npub enum ShapeNd<D> {\n    Circle { r: D },\n    Rect { w: D, h: D },\n    Pt(D),\n}\n\n",
    );
    let by_ref = g.rng.chance(50);
    let (r, w, h, p) = if by_ref {
        ("(*r)", "(*w)", "(*h)", "(*p)")
    } else {
        ("r", "w", "h", "p")
    };
    let arms = [
        g.expr(&sc(&[r, "k"], helpers), 3),
        g.expr(&sc(&[w, h, "k"], helpers), 3),
        g.expr(&sc(&[p, "k"], helpers), 3),
    ];
    let (scrut, scrut_nd) = if by_ref { ("s", "s") } else { ("*s", "*s") };
    writeln!(
        src,
        "#[derive_frule]\npub fn area(s: &Shape, k: f64) -> f64 {{\n    match {scrut} {{\n        Shape::Circle {{ r }} => {},\n        \
         Shape::Rect {{ w, h }} => {},\n        Shape::Pt(p) => {},\n    }}\n}}\n\n\
         pub fn area_nd<{ND}>(s: &ShapeNd<D>, k: D) -> D {{\n    match {scrut_nd} {{\n        ShapeNd::Circle {{ r }} => {},\n        \
         ShapeNd::Rect {{ w, h }} => {},\n        ShapeNd::Pt(p) => {},\n    }}\n}}\n",
        arms[0].plain, arms[1].plain, arms[2].plain, arms[0].dual, arms[1].dual, arms[2].dual
    )
    .unwrap();

    // A trait with a default method, two implementations, a generic and a `dyn` user.
    let twice = g.expr(
        &sc(&["self.eval(t)", "self.eval(0.5 * t)", "t"], helpers),
        2,
    );
    let twice_nd = twice
        .dual
        .replace("self.eval(0.5 * t)", "self.eval(D::from(0.5) * t)");
    let ev_v2 = g.expr(&sc(&["self.x", "self.y", "t"], helpers), 3);
    let ev_lin = g.expr(&sc(&["self.k", "t"], helpers), 3);
    let tw_lin = g.expr(&sc(&["self.k", "self.eval(t)", "t"], helpers), 2);
    writeln!(
        src,
        "#[derive_frule]\npub trait Model {{\n    fn eval(&self, t: f64) -> f64;\n    fn twice(&self, t: f64) -> f64 {{\n        {}\n    }}\n}}\n\n\
         pub trait ModelNd<{ND}> {{\n    fn eval(&self, t: D) -> D;\n    fn twice(&self, t: D) -> D {{\n        {twice_nd}\n    }}\n}}\n\n\
         #[derive(Clone, Copy, Debug, Differentiable)]\npub struct Lin {{\n    pub k: f64,\n}}\n\n\
         #[derive(Clone, Copy, Debug)]\npub struct LinNd<D> {{\n    pub k: D,\n}}\n\n\
         #[derive_frule]\nimpl Model for V2 {{\n    fn eval(&self, t: f64) -> f64 {{\n        {}\n    }}\n}}\n\n\
         impl<{ND}> ModelNd<D> for V2Nd<D> {{\n    fn eval(&self, t: D) -> D {{\n        {}\n    }}\n}}\n\n\
         #[derive_frule]\nimpl Model for Lin {{\n    fn eval(&self, t: f64) -> f64 {{\n        {}\n    }}\n    fn twice(&self, t: f64) -> f64 {{\n        {}\n    }}\n}}\n\n\
         impl<{ND}> ModelNd<D> for LinNd<D> {{\n    fn eval(&self, t: D) -> D {{\n        {}\n    }}\n    fn twice(&self, t: D) -> D {{\n        {}\n    }}\n}}\n\n\
         #[derive_frule]\npub fn run_model<M: Model>(m: &M, t: f64) -> f64 {{\n    m.twice(t) + m.eval(0.5 * t)\n}}\n\n\
         pub fn run_model_nd<{ND}, M: ModelNd<D>>(m: &M, t: D) -> D {{\n    m.twice(t) + m.eval(D::from(0.5) * t)\n}}\n\n\
         #[derive_frule]\npub fn run_dyn(m: &dyn Model, t: f64) -> f64 {{\n    0.5 * m.twice(t) - m.eval(t)\n}}\n\n\
         pub fn run_dyn_nd<{ND}>(m: &dyn ModelNd<D>, t: D) -> D {{\n    D::from(0.5) * m.twice(t) - m.eval(t)\n}}\n",
        twice.plain,
        ev_v2.plain,
        ev_v2.dual,
        ev_lin.plain,
        tw_lin.plain,
        ev_lin.dual,
        tw_lin.dual
    )
    .unwrap();

    // A trait with a `&mut self` method, implemented for `Lin` and `V2`, whose objects the
    // programs box from their inputs and step through `iter_mut` (case 64).
    let adv_lin = g.expr(&sc(&["self.k", "t"], helpers), 2);
    let adv_x = g.expr(&sc(&["self.x", "self.y", "t"], helpers), 2);
    let adv_y = g.expr(&sc(&["self.x", "self.y", "t"], helpers), 2);
    let rd_v2 = g.expr(&sc(&["self.x", "self.y"], helpers), 2);
    let (c1, c2) = (*g.rng.pick(FACTORS), *g.rng.pick(FACTORS));
    writeln!(
        src,
        "#[derive_frule]\npub trait Stepper {{\n    fn advance(&mut self, t: f64);\n    fn read(&self) -> f64;\n}}\n\n\
         pub trait StepperNd<{ND}> {{\n    fn advance(&mut self, t: D);\n    fn read(&self) -> D;\n}}\n\n\
         #[derive_frule]\nimpl Stepper for Lin {{\n    fn advance(&mut self, t: f64) {{\n        self.k = self.k * {c1} + {};\n    }}\n    fn read(&self) -> f64 {{\n        self.k\n    }}\n}}\n\n\
         impl<{ND}> StepperNd<D> for LinNd<D> {{\n    fn advance(&mut self, t: D) {{\n        self.k = self.k * D::from({c1}) + {};\n    }}\n    fn read(&self) -> D {{\n        self.k\n    }}\n}}\n\n\
         #[derive_frule]\nimpl Stepper for V2 {{\n    fn advance(&mut self, t: f64) {{\n        let x = self.x * {c2} + {};\n        self.y = self.y * {c2} + {};\n        self.x = x;\n    }}\n    fn read(&self) -> f64 {{\n        {}\n    }}\n}}\n\n\
         impl<{ND}> StepperNd<D> for V2Nd<D> {{\n    fn advance(&mut self, t: D) {{\n        let x = self.x * D::from({c2}) + {};\n        self.y = self.y * D::from({c2}) + {};\n        self.x = x;\n    }}\n    fn read(&self) -> D {{\n        {}\n    }}\n}}\n",
        adv_lin.plain, adv_lin.dual, adv_x.plain, adv_y.plain, rd_v2.plain, adv_x.dual, adv_y.dual, rd_v2.dual
    )
    .unwrap();

    // Case 66: steppers boxed in the program, stepped by a derived function through
    // `&mut [Box<dyn Stepper>]` (the reference's pair of the same values), and models
    // built by a plain function, read through a helper declaring them `inactive(..)`.
    let (k0, x0, y0) = SCENE;
    writeln!(
        src,
        "pub fn stepper_scene_nd<{ND}>() -> (LinNd<D>, V2Nd<D>) {{\n    (\n        LinNd {{ k: D::from({k0}) }},\n        V2Nd {{ x: D::from({x0}), y: D::from({y0}) }},\n    )\n}}\n\n\
         #[derive_frule]\npub fn step_all(ss: &mut [Box<dyn Stepper>], t: f64) {{\n    for s in ss.iter_mut() {{\n        s.advance(t);\n    }}\n}}\n\n\
         pub fn model_scene() -> Vec<Box<dyn Model>> {{\n    vec![\n        Box::new(Lin {{ k: {k0} }}),\n        Box::new(V2 {{ x: {x0}, y: {y0} }}),\n    ]\n}}\n\n\
         #[derive_frule(inactive(ms))]\npub fn fixed_models(ms: &[Box<dyn Model>], t: f64) -> f64 {{\n    ms.iter().map(|m| m.eval(t)).sum::<f64>() + ms[1].twice(0.5 * t)\n}}\n\n\
         pub fn fixed_models_nd<{ND}>(t: D) -> D {{\n    let (a, b) = (\n        LinNd {{ k: D::from({k0}) }},\n        V2Nd {{ x: D::from({x0}), y: D::from({y0}) }},\n    );\n    \
         a.eval(t) + b.eval(t) + b.twice(D::from(0.5) * t)\n}}\n"
    )
    .unwrap();

    // Case 67: a derived function returning the user's `V2`.
    let fx = g.expr(&sc(&["p.x", "p.y", "t"], helpers), 2);
    let fy = g.expr(&sc(&["p.x", "p.y", "t"], helpers), 2);
    writeln!(
        src,
        "#[derive_frule]\npub fn flow(p: V2, t: f64) -> V2 {{\n    V2 {{\n        x: {},\n        y: {},\n    }}\n}}\n\n\
         pub fn flow_nd<{ND}>(p: V2Nd<D>, t: D) -> V2Nd<D> {{\n    V2Nd {{\n        x: {},\n        y: {},\n    }}\n}}\n",
        fx.plain, fy.plain, fx.dual, fy.dual
    )
    .unwrap();

    // Case 68: a struct holding a closure, with `&self` methods, one calling the other.
    writeln!(
        src,
        "pub struct Integ<F: Fn(f64) -> f64> {{\n    pub f: F,\n    pub a: f64,\n    pub b: f64,\n    pub n: usize,\n}}\n\n\
         #[derive_frule]\nimpl<F: Fn(f64) -> f64> Integ<F> {{\n    pub fn mid(&self) -> f64 {{\n        let h = (self.b - self.a) / self.n as f64;\n        let mut s = 0.0;\n        for i in 0..self.n {{\n            s += (self.f)(self.a + (i as f64 + 0.5) * h);\n        }}\n        s * h\n    }}\n    pub fn ends(&self) -> f64 {{\n        (self.f)(self.a) + (self.f)(self.b) * self.mid()\n    }}\n}}\n\n\
         pub fn integ_mid_nd<{ND}, F: Fn(D) -> D>(f: &F, a: D, b: D, n: usize) -> D {{\n    let h = (b - a) / D::from(n as f64);\n    let mut s = D::from(0.0);\n    for i in 0..n {{\n        s += f(a + D::from(i as f64 + 0.5) * h);\n    }}\n    s * h\n}}\n\n\
         pub fn integ_ends_nd<{ND}, F: Fn(D) -> D>(f: &F, a: D, b: D, n: usize) -> D {{\n    f(a) + f(b) * integ_mid_nd(f, a, b, n)\n}}\n"
    )
    .unwrap();

    // Helpers taking closures.
    let ap = g.expr(&sc(&["f(a)", "f(b)", "f(a * b)", "a"], helpers), 2);
    writeln!(
        src,
        "#[derive_frule]\npub fn apply2<F: Fn(f64) -> f64>(f: F, a: f64, b: f64) -> f64 {{\n    {}\n}}\n\n\
         pub fn apply2_nd<{ND}, F: Fn(D) -> D>(f: F, a: D, b: D) -> D {{\n    {}\n}}\n\n\
         #[derive_frule]\npub fn midpoint(f: &dyn Fn(f64) -> f64, a: f64, b: f64) -> f64 {{\n    let h = (b - a) / 4.0;\n    \
         let mut s = 0.0;\n    for i in 0..4 {{\n        s += f(a + (i as f64 + 0.5) * h);\n    }}\n    s * h\n}}\n\n\
         pub fn midpoint_nd<{ND}>(f: &dyn Fn(D) -> D, a: D, b: D) -> D {{\n    let h = (b - a) * D::from(0.25);\n    \
         let mut s = D::from(0.0);\n    for i in 0..4 {{\n        s += f(a + D::from(i as f64 + 0.5) * h);\n    }}\n    s * h\n}}\n",
        ap.plain, ap.dual
    )
    .unwrap();

    // A helper returning an `Option`.
    let c = *g.rng.pick(&["0.0", "0.5", "-0.5"]);
    let some = g.expr(&sc(&["a"], helpers), 3);
    writeln!(
        src,
        "#[derive_frule]\npub fn try_at(a: f64) -> Option<f64> {{\n    if a > {c} {{\n        Some({})\n    }} else {{\n        None\n    }}\n}}\n\n\
         pub fn try_at_nd<{ND}>(a: D) -> Option<D> {{\n    if a.re() > {c} {{\n        Some({})\n    }} else {{\n        None\n    }}\n}}\n",
        some.plain, some.dual
    )
    .unwrap();

    // Outputs through `&mut`: a slice written in a loop, and a scalar accumulator.
    let sm = g.expr(
        &sc(&["inp[i]", "inp[(i + 1) % n]", "k", "out[i]"], helpers),
        2,
    );
    let ac = g.expr(&sc(&["t", "(*acc)"], helpers), 2);
    writeln!(
        src,
        "#[derive_frule]\npub fn smooth(out: &mut [f64], inp: &[f64], k: f64) {{\n    let n = inp.len();\n    \
         for i in 0..out.len().min(n) {{\n        out[i] = {};\n    }}\n}}\n\n\
         pub fn smooth_nd<{ND}>(out: &mut [D], inp: &[D], k: D) {{\n    let n = inp.len();\n    \
         for i in 0..out.len().min(n) {{\n        out[i] = {};\n    }}\n}}\n\n\
         #[derive_frule]\npub fn accum(acc: &mut f64, t: f64) {{\n    *acc += {};\n}}\n\n\
         pub fn accum_nd<{ND}>(acc: &mut D, t: D) {{\n    *acc += {};\n}}\n",
        sm.plain, sm.dual, ac.plain, ac.dual
    )
    .unwrap();

    // Generic float helpers: `g0` smooth (it is also called at `f32`), `g1` any, and a
    // fold over a slice of `T`.
    let e0 = g.with(Flavor::Generic, true, |g| g.expr(&sc(&["a", "b"], 0), 3));
    let e1 = g.with(Flavor::Generic, false, |g| g.expr(&sc(&["a", "b"], 0), 3));
    let es = g.with(Flavor::Generic, true, |g| g.expr(&sc(&["t", "k"], 0), 2));
    writeln!(
        src,
        "#[derive_frule]\npub fn g0<T: Float>(a: T, b: T) -> T {{\n    {}\n}}\n\n\
         pub fn g0_nd<{ND}>(a: D, b: D) -> D {{\n    {}\n}}\n\n\
         #[derive_frule]\npub fn g1<T: Float>(a: T, b: T) -> T {{\n    {}\n}}\n\n\
         pub fn g1_nd<{ND}>(a: D, b: D) -> D {{\n    {}\n}}\n\n\
         #[derive_frule]\npub fn gsum<T: Float>(x: &[T], k: T) -> T {{\n    x.iter().fold(T::zero(), |s, &t| s + {})\n}}\n\n\
         pub fn gsum_nd<{ND}>(x: &[D], k: D) -> D {{\n    x.iter().fold(D::from(0.0), |s, &t| s + {})\n}}\n",
        e0.plain, e0.dual, e1.plain, e1.dual, es.plain, es.dual
    )
    .unwrap();

    // An `f32` helper calling the generic one at `f32`. Its reference computes in `f64`;
    // the program takes the plain function's value (`fwdad_fuzz::fix`) and compares
    // derivatives to `F32_TOL`.
    let e32 = g.with(Flavor::F32, true, |g| {
        g.expr(&sc(&["a", "b", "g0(a, b)"], 0), 3)
    });
    let e32_nd = e32.dual.replace("g0(a, b)", "g0_nd(a, b)");
    writeln!(
        src,
        "#[derive_frule]\npub fn s32(a: f32, b: f32) -> f32 {{\n    {}\n}}\n\n\
         pub fn s32_nd<{ND}>(a: D, b: D) -> D {{\n    {e32_nd}\n}}\n",
        e32.plain
    )
    .unwrap();

    // A helper calling an `FnMut` on each element, and a generic one taking a closure.
    let gm = g.with(Flavor::Generic, false, |g| {
        g.expr(&sc(&["f(a)", "f(b)", "a", "b"], 0), 2)
    });
    writeln!(
        src,
        "#[derive_frule]\npub fn each<F: FnMut(f64)>(x: &[f64], mut f: F) {{\n    for &t in x {{\n        f(t);\n    }}\n}}\n\n\
         pub fn each_nd<{ND}, F: FnMut(D)>(x: &[D], mut f: F) {{\n    for &t in x {{\n        f(t);\n    }}\n}}\n\n\
         #[derive_frule]\npub fn gmid<T: Float, F: Fn(T) -> T>(f: F, a: T, b: T) -> T {{\n    {}\n}}\n\n\
         pub fn gmid_nd<{ND}, F: Fn(D) -> D>(f: F, a: D, b: D) -> D {{\n    {}\n}}\n",
        gm.plain, gm.dual
    )
    .unwrap();

    // More of what users write on their types: `+=` and indexing on `V2`, a `&mut self`
    // method of the enum matching on `self`, a struct with an array field, a trait with
    // a constructor (`L::make(k)`, not dyn compatible), `?` on `Option`s, a generic
    // helper writing `&mut [T]`.
    src.push_str(
        "#[derive_frule]\nimpl std::ops::AddAssign for V2 {\n    fn add_assign(&mut self, o: V2) {\n        self.x += o.x;\n        self.y += o.y;\n    }\n}\n\n\
         impl<D: DualNum<Primitive = f64> + Copy> std::ops::AddAssign for V2Nd<D> {\n    fn add_assign(&mut self, o: V2Nd<D>) {\n        self.x += o.x;\n        self.y += o.y;\n    }\n}\n\n\
         #[derive_frule]\nimpl std::ops::Index<usize> for V2 {\n    type Output = f64;\n    fn index(&self, i: usize) -> &f64 {\n        if i == 0 {\n            &self.x\n        } else {\n            &self.y\n        }\n    }\n}\n\n\
         impl<D: DualNum<Primitive = f64> + Copy> std::ops::Index<usize> for V2Nd<D> {\n    type Output = D;\n    fn index(&self, i: usize) -> &D {\n        if i == 0 {\n            &self.x\n        } else {\n            &self.y\n        }\n    }\n}\n\n",
    );
    let sr = g.expr(&sc(&["(*r)", "k"], helpers), 2);
    let sw = g.expr(&sc(&["(*w)", "(*h)", "k"], helpers), 2);
    writeln!(
        src,
        "#[derive_frule]\nimpl Shape {{\n    pub fn scale(&mut self, k: f64) {{\n        match self {{\n            Shape::Circle {{ r }} => *r = {},\n            \
         Shape::Rect {{ w, h }} => {{\n                *w *= k;\n                *h = {};\n            }}\n            Shape::Pt(p) => *p -= k,\n        }}\n    }}\n}}\n\n\
         impl<{ND}> ShapeNd<D> {{\n    pub fn scale(&mut self, k: D) {{\n        match self {{\n            ShapeNd::Circle {{ r }} => *r = {},\n            \
         ShapeNd::Rect {{ w, h }} => {{\n                *w *= k;\n                *h = {};\n            }}\n            ShapeNd::Pt(p) => *p -= k,\n        }}\n    }}\n}}\n",
        sr.plain, sw.plain, sr.dual, sw.dual
    )
    .unwrap();
    let c0 = g.expr(&sc(&["x[0]", "x[x.len() - 1]"], helpers), 2);
    writeln!(
        src,
        "#[derive(Clone, Copy, Debug, Differentiable)]\npub struct Poly {{\n    pub c: [f64; 3],\n}}\n\n\
         #[derive(Clone, Copy, Debug)]\npub struct PolyNd<D> {{\n    pub c: [D; 3],\n}}\n\n\
         #[derive_frule]\nimpl Poly {{\n    pub fn eval(&self, t: f64) -> f64 {{\n        let mut s = 0.0;\n        for &c in self.c.iter().rev() {{\n            s = s * t + c;\n        }}\n        s\n    }}\n}}\n\n\
         impl<{ND}> PolyNd<D> {{\n    pub fn eval(&self, t: D) -> D {{\n        let mut s = D::from(0.0);\n        for &c in self.c.iter().rev() {{\n            s = s * t + c;\n        }}\n        s\n    }}\n}}\n\n\
         #[derive_frule]\npub fn fit(x: &[f64]) -> Poly {{\n    Poly {{\n        c: [{}, x.iter().sum::<f64>() * 0.25, 0.5],\n    }}\n}}\n\n\
         pub fn fit_nd<{ND}>(x: &[D]) -> PolyNd<D> {{\n    PolyNd {{\n        c: [{}, x.iter().fold(D::from(-0.0), |s, &t| s + t) * D::from(0.25), D::from(0.5)],\n    }}\n}}\n",
        c0.plain, c0.dual
    )
    .unwrap();
    let at = g.expr(&sc(&["self.k", "t"], helpers), 2);
    let mk = g.expr(&sc(&["k"], helpers), 2);
    writeln!(
        src,
        "#[derive_frule]\npub trait Law: Sized {{\n    fn make(k: f64) -> Self;\n    fn at(&self, t: f64) -> f64;\n}}\n\n\
         pub trait LawNd<{ND}>: Sized {{\n    fn make(k: D) -> Self;\n    fn at(&self, t: D) -> D;\n}}\n\n\
         #[derive_frule]\nimpl Law for Lin {{\n    fn make(k: f64) -> Self {{\n        Lin {{ k: {} }}\n    }}\n    fn at(&self, t: f64) -> f64 {{\n        {}\n    }}\n}}\n\n\
         impl<{ND}> LawNd<D> for LinNd<D> {{\n    fn make(k: D) -> Self {{\n        LinNd {{ k: {} }}\n    }}\n    fn at(&self, t: D) -> D {{\n        {}\n    }}\n}}\n\n\
         #[derive_frule]\npub fn build<L: Law>(k: f64, t: f64) -> f64 {{\n    L::make(k).at(t)\n}}\n\n\
         pub fn build_nd<{ND}, L: LawNd<D>>(k: D, t: D) -> D {{\n    L::make(k).at(t)\n}}\n",
        mk.plain, at.plain, mk.dual, at.dual
    )
    .unwrap();
    let gf = g.with(Flavor::Generic, false, |g| g.expr(&sc(&["a", "w"], 0), 2));
    writeln!(
        src,
        "#[derive_frule]\npub fn chain_at(a: f64) -> Option<f64> {{\n    let t = try_at(a)?;\n    Some(t * 0.5 + try_at(t)?)\n}}\n\n\
         pub fn chain_at_nd<{ND}>(a: D) -> Option<D> {{\n    let t = try_at_nd(a)?;\n    Some(t * D::from(0.5) + try_at_nd(t)?)\n}}\n\n\
         #[derive_frule]\npub fn gfill<T: Float>(out: &mut [T], a: T) {{\n    for (i, o) in out.iter_mut().enumerate() {{\n        let w = T::from(i).unwrap();\n        *o = {};\n    }}\n}}\n\n\
         pub fn gfill_nd<{ND}>(out: &mut [D], a: D) {{\n    for (i, o) in out.iter_mut().enumerate() {{\n        let w = D::from(i as f64);\n        *o = {};\n    }}\n}}\n",
        gf.plain, gf.dual
    )
    .unwrap();

    // By-value `self` returning `Self`, a method returning a pair, a tuple struct, a
    // function taking `&impl Model`.
    let sk = g.expr(&sc(&["self.x", "self.y", "k"], helpers), 2);
    let pe = g.expr(&sc(&["self.0", "self.1", "t"], helpers), 2);
    writeln!(
        src,
        "#[derive_frule]\nimpl V2 {{\n    pub fn scaled(self, k: f64) -> V2 {{\n        V2 {{\n            x: self.x * k,\n            y: {},\n        }}\n    }}\n\n    \
         pub fn split(&self) -> (f64, f64) {{\n        (self.x + self.y, self.x - self.y)\n    }}\n}}\n\n\
         impl<{ND}> V2Nd<D> {{\n    pub fn scaled(self, k: D) -> V2Nd<D> {{\n        V2Nd {{\n            x: self.x * k,\n            y: {},\n        }}\n    }}\n\n    \
         pub fn split(&self) -> (D, D) {{\n        (self.x + self.y, self.x - self.y)\n    }}\n}}\n\n\
         #[derive(Clone, Copy, Debug, Differentiable)]\npub struct Pair(pub f64, pub f64);\n\n\
         #[derive(Clone, Copy, Debug)]\npub struct PairNd<D>(pub D, pub D);\n\n\
         #[derive_frule]\nimpl Model for Pair {{\n    fn eval(&self, t: f64) -> f64 {{\n        {}\n    }}\n}}\n\n\
         impl<{ND}> ModelNd<D> for PairNd<D> {{\n    fn eval(&self, t: D) -> D {{\n        {}\n    }}\n}}\n\n\
         #[derive_frule]\npub fn run_impl(m: &impl Model, t: f64) -> f64 {{\n    m.eval(t) - 0.5 * m.twice(t)\n}}\n\n\
         pub fn run_impl_nd<{ND}>(m: &impl ModelNd<D>, t: D) -> D {{\n    m.eval(t) - D::from(0.5) * m.twice(t)\n}}\n",
        sk.plain, sk.dual, pe.plain, pe.dual
    )
    .unwrap();
}
