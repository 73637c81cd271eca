//! Structs in derived bodies: parameters by value and by reference, field reads (scalars and
//! buffers, without moving), struct literals with `..base`, field writes through `&mut`,
//! and returned structs. The `Differentiable` impls here are written by hand, following
//! the contract `#[derive(Differentiable)]` implements (`Name` → `NameTangent`, same fields).
use fwdad::prelude::*;
use fwdad::{Mode, ZeroTangent};

#[derive(Clone, Debug, PartialEq)]
pub struct Spring {
    pub k: f64,
    pub rest: f64,
    pub n: usize,
    pub w: Vec<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SpringTangent<S = f64> {
    pub k: S,
    pub rest: S,
    pub n: NoTangent,
    pub w: Vec<S>,
}

impl Differentiable for Spring {
    type Tangent = SpringTangent;
    type TangentIn<S: Mode> = SpringTangent<S>;
}

impl ZeroTangent for Spring {
    fn zero_tangent(&self) -> SpringTangent {
        SpringTangent {
            k: 0.0,
            rest: 0.0,
            n: NoTangent,
            w: vec![0.0; self.w.len()],
        }
    }
    fn zero_tangent_in<S: Mode>(&self) -> SpringTangent<S> {
        SpringTangent {
            k: S::zero(),
            rest: S::zero(),
            n: NoTangent,
            w: vec![S::zero(); self.w.len()],
        }
    }
}

/// Reads scalar fields, indexes a `Vec` field in place, loops over an integer field.
#[derive_frule]
fn energy(s: &Spring, x: f64) -> f64 {
    let d = x - s.rest;
    let mut e = 0.5 * s.k * d * d;
    for i in 0..s.n {
        e += s.w[i] * x.powi(i as i32 + 1);
    }
    e + s.w.len() as f64
}

/// Builds a struct from active values and with `..base`, and returns it.
#[derive_frule]
fn stiffen(s: &Spring, factor: f64) -> Spring {
    let doubled = Spring {
        k: s.k * factor,
        rest: s.rest,
        n: s.n,
        w: s.w.clone(),
    };
    Spring {
        rest: doubled.rest + 1.0,
        ..doubled
    }
}

/// Writes fields and a buffer field through `&mut`.
#[derive_frule]
fn relax(s: &mut Spring, x: f64) {
    s.rest = 0.5 * (s.rest + x);
    s.k *= 1.0 + x * x;
    s.w[0] = s.k * s.rest;
}

fn spring() -> Spring {
    Spring {
        k: 2.0,
        rest: 0.5,
        n: 2,
        w: vec![0.25, -0.1],
    }
}

#[test]
fn energy_reads_fields() {
    let s = spring();
    let t = SpringTangent {
        k: 0.0,
        rest: 0.0,
        n: NoTangent,
        w: vec![0.0, 0.0],
    };
    let d = energy_frule(Dual::new(&s, &t), Dual::new(1.5, 1.0));
    assert_eq!(d.primal, energy(&s, 1.5));
    // dE/dx = k(x − rest) + w₀ + 2·w₁·x
    assert_eq!(d.tangent, 2.0 * 1.0 + 0.25 + 2.0 * -0.1 * 1.5);
    let t = SpringTangent {
        k: 1.0,
        rest: 0.0,
        n: NoTangent,
        w: vec![0.0, 0.0],
    };
    let d = energy_frule(Dual::new(&s, &t), Dual::new(1.5, 0.0));
    assert_eq!(d.tangent, 0.5 * 1.0 * 1.0); // dE/dk = d²/2
}

#[test]
fn struct_literals_and_returned_structs() {
    let s = spring();
    let t = SpringTangent {
        k: 1.0,
        rest: 1.0,
        n: NoTangent,
        w: vec![1.0, 2.0],
    };
    let d = stiffen_frule(Dual::new(&s, &t), Dual::new(3.0, 0.5));
    assert_eq!(d.primal, stiffen(&s, 3.0));
    // k' = k·f: dk' = dk·f + k·df = 3 + 1; rest' = rest + 1: drest' = 1; w copied.
    assert_eq!(
        d.tangent,
        SpringTangent {
            k: 4.0,
            rest: 1.0,
            n: NoTangent,
            w: vec![1.0, 2.0]
        }
    );
}

#[test]
fn field_writes_through_mut() {
    let mut s = spring();
    let mut t = SpringTangent {
        k: 0.0,
        rest: 0.0,
        n: NoTangent,
        w: vec![0.0, 0.0],
    };
    relax_frule(Dual::new(&mut s, &mut t), Dual::new(2.0, 1.0));
    let mut s_ref = spring();
    relax(&mut s_ref, 2.0);
    assert_eq!(s, s_ref);
    // rest' = (rest + x)/2 → 0.5; k' = k(1 + x²) → 2·2x = 8; w₀' = k'·rest'.
    assert_eq!((t.rest, t.k), (0.5, 8.0));
    assert_eq!(t.w[0], 8.0 * s.rest + s.k * 0.5);
}

/// Assigning a field of a local tuple in place.
#[derive_frule]
fn tuple_field(x: f64) -> f64 {
    let mut p = (x, 1.0);
    p.1 = x * x;
    p.0 + p.1
}

#[test]
fn tuple_field_assignment() {
    let d = tuple_field_frule(Dual::new(3.0, 1.0));
    assert_eq!((d.primal, d.tangent), (tuple_field(3.0), 1.0 + 6.0));
}

/// `..base` with a constant, non-`Copy` base (helper hunt J: it was moved twice).
#[derive_frule]
fn from_constant_base(x: f64) -> f64 {
    let base = Spring {
        k: 1.0,
        rest: 0.5,
        n: 3,
        w: vec![3.0, -1.0],
    };
    let s = Spring { k: x * 2.0, ..base };
    s.k + s.w[0] * x + s.rest
}

#[test]
fn functional_update_of_a_constant_base() {
    // f = 2x + 3x + 0.5: f' = 5.
    let d = from_constant_base_frule(Dual::new(0.5, 1.0));
    assert_eq!((d.primal, d.tangent), (from_constant_base(0.5), 5.0));
}

/// A struct with a field that carries no tangent (`skip`) and an integer field, built by
/// a literal in derived code: the skip field is given a float vector (whose tangent is
/// dropped), a tuple struct and a generic struct too.
mod literals_with_tangentless_fields {
    use fwdad::prelude::*;

    #[derive(Differentiable, Clone, Debug, PartialEq)]
    pub struct WithSkip {
        pub k: f64,
        #[differentiable(skip)]
        pub table: Vec<f64>,
        pub n: usize,
    }

    #[derive(Differentiable, Clone, Debug, PartialEq)]
    pub struct Pair(pub f64, #[differentiable(skip)] pub Vec<f64>);

    #[derive(Differentiable, Clone, Debug, PartialEq)]
    pub struct Gen<T> {
        pub v: T,
        #[differentiable(skip)]
        pub w: Vec<f64>,
    }

    /// A borrowing struct, given fields that coerce (`&[f64; 2]`, `&Vec<f64>` into
    /// `&[f64]`), and a `skip` `Option` given `None`.
    #[derive(Differentiable, Clone, Debug, PartialEq)]
    pub struct View<'a> {
        pub xs: &'a [f64],
        pub k: f64,
        #[differentiable(skip)]
        pub note: Option<f64>,
    }

    #[derive_frule]
    fn coerced(k: f64, v: &Vec<f64>) -> f64 {
        let arr = [k, 2.0 * k];
        let a = View {
            xs: &arr,
            k,
            note: None,
        };
        let b = View {
            xs: v,
            k: a.k,
            note: Some(k),
        };
        a.xs[1] * b.xs[0] + b.k
    }

    #[test]
    fn literal_fields_coerce_as_in_rust() {
        let v = vec![3.0, -1.0];
        let k = 0.5;
        assert_eq!(coerced(k, &v), 2.0 * k * v[0] + k);
        // ∂/∂k = 2·v₀ + 1; ∂/∂v₀ = 2k.
        let d = coerced_frule(Dual::new(k, 1.0), Dual::new(&v, &vec![0.0, 0.0]));
        assert_eq!(d.tangent, 2.0 * v[0] + 1.0);
        let d = coerced_frule(Dual::new(k, 0.0), Dual::new(&v, &vec![1.0, 0.0]));
        assert_eq!(d.tangent, 2.0 * k);
    }

    #[derive_frule]
    fn make(k: f64, xs: &[f64]) -> f64 {
        // The skip field's value depends on the inputs: its tangent is dropped, as `skip`
        // declares; `table` is read as a constant.
        let w = WithSkip {
            k: k * 2.0,
            table: vec![1.0, xs[0]],
            n: 3,
        };
        let p = Pair(w.k * k, vec![xs[1]]);
        let g = Gen {
            v: p.0 + xs[1],
            w: vec![k],
        };
        g.v * w.n as f64
    }

    #[test]
    fn skip_fields_in_literals() {
        let (k, xs) = (1.5, [0.25, -2.0]);
        assert_eq!(make(k, &xs), 3.0 * (2.0 * k * k + xs[1]));
        // f = 3·(2k² + x₁): ∂f/∂k = 12k, ∂f/∂x₁ = 3, ∂f/∂x₀ = 0.
        let d = make_frule(Dual::new(k, 1.0), Dual::new(&xs[..], &[0.0, 0.0][..]));
        assert_eq!(d.primal, make(k, &xs));
        assert_eq!(d.tangent, 12.0 * k);
        let d = make_frule(Dual::new(k, 0.0), Dual::new(&xs[..], &[1.0, 1.0][..]));
        assert_eq!(d.tangent, 3.0);
    }
}

/// A struct borrowing an output buffer (`&'a mut [f64]`), written through its field, and a
/// borrowed input slice field indexed in place.
mod borrowed_slice_fields {
    use fwdad::prelude::*;

    #[derive(Differentiable, Debug)]
    pub struct Out<'a> {
        pub buf: &'a mut [f64],
        pub k: f64,
    }

    #[derive(Differentiable, Clone, Debug)]
    pub struct In<'a> {
        pub xs: &'a [f64],
    }

    #[derive_frule]
    fn square_into(buf: &mut [f64], xs: &[f64]) {
        let i = In { xs };
        let o = Out { buf, k: i.xs[1] };
        o.buf[0] = o.k * i.xs[0];
    }

    #[test]
    fn written_and_read_through_fields() {
        let xs = [0.5, 3.0];
        let (mut b, mut db) = ([0.0], [0.0]);
        square_into_frule(
            Dual::new(&mut b[..], &mut db[..]),
            Dual::new(&xs[..], &[1.0, 2.0][..]),
        );
        // b₀ = x₁·x₀; along (1, 2): x₁ + 2·x₀.
        assert_eq!((b[0], db[0]), (xs[1] * xs[0], xs[1] + 2.0 * xs[0]));
    }
}
