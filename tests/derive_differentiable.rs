//! `#[derive(Differentiable)]`: the tangent structs it generates (named, tuple, generic,
//! nested, with non-differentiable fields), their tangent-space and testing operations,
//! and hand-written rules over struct arguments checked by `test_frule` in every mode.

use fwdad::prelude::*;
use fwdad::{Hyper, Mode, ScalarTangent, TangentSpace};
use std::marker::PhantomData;

/// Compile-time type equality: `same::<A, B>()` compiles only if `A` and `B` are one type.
trait Same<T> {}
impl<T> Same<T> for T {}
fn same<A: Same<B>, B>() {}

// --- The types under test -------------------------------------------------------------

/// A spring: stiffness and rest length, and a count that carries no tangent.
#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Spring {
    pub k: f64,
    pub rest: f64,
    pub n: usize,
}

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Pair(pub f64, pub f64);

#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Generic<T> {
    pub x: T,
    pub y: f64,
}

/// A generic parameter with the struct's own bounds, and one only in a `PhantomData`.
#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Bounded<T: Copy + Default, U> {
    pub xs: Vec<T>,
    pub w: f64,
    pub marker: PhantomData<U>,
}

/// Nested structs and every syntactically mapped container.
#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Model {
    pub spring: Spring,
    pub springs: Vec<Spring>,
    pub pos: [f64; 3],
    pub pair: (f64, usize),
    pub offset: Option<f64>,
    pub boxed: Box<f64>,
    pub name: String,
    pub label: &'static str,
}

#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Grid {
    pub nx: usize,
    pub periodic: bool,
    pub title: String,
}

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Unit;

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct Counter(pub u32);

#[derive(Differentiable, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Euler,
    Rk4,
}

#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Sized<const N: usize> {
    pub a: [f64; N],
    pub idx: [usize; N],
}

#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Mixed {
    pub a: f64,
    pub b: f32,
}

/// A field that is constant under differentiation by choice.
#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct WithSkip {
    pub k: f64,
    #[differentiable(skip)]
    pub table: Vec<f64>,
}

/// A struct that already has a parameter named `S`: the mode parameter is renamed.
#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Named<S> {
    pub s: S,
    pub x: f64,
}

/// A borrowing struct: `Differentiable` and a borrowing tangent, no zero/random tangent.
#[derive(Differentiable)]
pub struct View<'a> {
    pub x: &'a [f64],
    pub scale: f64,
}

/// Not `Clone`: derives, without `TestTangent` (which needs `Clone + Debug`).
#[derive(Differentiable)]
pub struct NotClone {
    pub k: f64,
}

#[derive(Differentiable, Clone, Debug, PartialEq)]
#[differentiable(tangent = SpringDirection)]
pub struct Renamed {
    pub k: f64,
}

mod reexported {
    pub use fwdad as ad;
}

#[derive(reexported::ad::Differentiable, Clone, Debug, PartialEq)]
#[differentiable(crate = reexported::ad)]
pub struct ThroughPath {
    pub k: f64,
}

mod private_fields {
    /// Private fields stay private in the tangent.
    #[derive(fwdad::Differentiable, Clone, Debug, PartialEq)]
    pub struct Hidden {
        pub public: f64,
        secret: f64,
    }

    impl Hidden {
        pub fn new() -> Self {
            Hidden {
                public: 1.0,
                secret: 2.0,
            }
        }
        pub fn tangent(secret: f64) -> HiddenTangent {
            HiddenTangent {
                public: 0.0,
                secret,
            }
        }
        pub fn secret_of(t: &HiddenTangent) -> f64 {
            t.secret
        }
    }
}

/// A recursive struct, written with `Self` and by name.
#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Chain {
    pub value: f64,
    pub next: Option<Box<Self>>,
    pub rest: Vec<Chain>,
}

/// A user type named like the mode parameter: the mode is renamed so as not to shadow it.
#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct S {
    pub x: f64,
}
#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct HoldsS {
    pub s: S,
    pub y: f64,
}

/// Generic through another derived generic struct, with a default parameter.
#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Wrapped<T = f64> {
    pub inner: Generic<T>,
    pub scale: f64,
}

/// Generic and recursive.
#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Tree<T> {
    pub value: T,
    pub children: Vec<Tree<T>>,
}

/// Generic and borrowing, with a lifetime bound.
#[derive(Differentiable)]
pub struct Window<'a, 'b: 'a, T> {
    pub xs: &'a [T],
    pub ys: &'b mut [f64],
    pub w: f64,
}

// --- Tangent types --------------------------------------------------------------------

#[test]
fn tangent_types_per_mode() {
    same::<<Spring as Differentiable>::Tangent, SpringTangent>();
    same::<SpringTangent, SpringTangent<f64>>();
    same::<<Spring as Differentiable>::TangentIn<f64>, SpringTangent>();
    same::<<Spring as Differentiable>::TangentIn<Batch<f64, 4>>, SpringTangent<Batch<f64, 4>>>();
    same::<<Spring as Differentiable>::TangentIn<Hyper<f64, f64>>, SpringTangent<Hyper<f64, f64>>>(
    );
    same::<<Pair as Differentiable>::Tangent, PairTangent>();
    same::<<Generic<f64> as Differentiable>::Tangent, GenericTangent<f64>>();
    same::<
        <Generic<Spring> as Differentiable>::TangentIn<Batch<f64, 2>>,
        GenericTangent<Spring, Batch<f64, 2>>,
    >();
    same::<<Bounded<f64, String> as Differentiable>::Tangent, BoundedTangent<f64>>();
    same::<<Sized<3> as Differentiable>::Tangent, SizedTangent<3>>();
    same::<
        <Named<f64> as Differentiable>::TangentIn<Batch<f64, 2>>,
        NamedTangent<f64, Batch<f64, 2>>,
    >();
    same::<<Renamed as Differentiable>::Tangent, SpringDirection>();
    same::<<Chain as Differentiable>::Tangent, ChainTangent>();
    same::<<HoldsS as Differentiable>::TangentIn<Batch<f64, 2>>, HoldsSTangent<Batch<f64, 2>>>();
    same::<<Wrapped as Differentiable>::Tangent, WrappedTangent<f64, f64>>();
    same::<WrappedTangent, WrappedTangent<f64, f64>>();
    same::<<View<'static> as Differentiable>::Tangent, ViewTangent<'static>>();
    // Non-differentiable structs and fieldless enums: named fields keep their names in a
    // tangent struct of `NoTangent`s; tuple and unit structs have tangent `NoTangent`.
    same::<<Grid as Differentiable>::Tangent, GridTangent>();
    same::<<Grid as Differentiable>::TangentIn<Batch<f64, 8>>, GridTangent<Batch<f64, 8>>>();
    let gt = GridTangent::<Batch<f64, 8>>::default();
    let _: (NoTangent, NoTangent, NoTangent) = (gt.nx, gt.periodic, gt.title);
    assert_eq!(std::mem::size_of::<GridTangent<Batch<f64, 8>>>(), 0);
    same::<<Counter as Differentiable>::Tangent, NoTangent>();
    same::<<Unit as Differentiable>::Tangent, NoTangent>();
    same::<<Method as Differentiable>::Tangent, NoTangent>();
    // Field types: mapped syntactically, equal to the runtime's tangents.
    let t = ModelTangent::<Batch<f64, 2>>::default();
    let _: SpringTangent<Batch<f64, 2>> = t.spring;
    let _: Vec<SpringTangent<Batch<f64, 2>>> = t.springs;
    let _: [Batch<f64, 2>; 3] = t.pos;
    let _: (Batch<f64, 2>, NoTangent) = t.pair;
    let _: Option<Batch<f64, 2>> = t.offset;
    let _: Box<Batch<f64, 2>> = t.boxed;
    let _: NoTangent = t.name;
    let _: NoTangent = t.label;
    let m = MixedTangent::<Batch<f64, 2>>::default();
    let _: Batch<f32, 2> = m.b;
    let s = SizedTangent::<2> {
        a: [1.0, 2.0],
        idx: [NoTangent; 2],
    };
    let _: [f64; 2] = s.a;
}

#[test]
fn tangents_by_hand_infer_without_annotations() {
    let t = SpringTangent {
        k: 1.0,
        rest: 0.0,
        n: NoTangent,
    };
    let d = Dual::new(
        Spring {
            k: 2.0,
            rest: 1.0,
            n: 3,
        },
        t,
    );
    assert_eq!(d.tangent.k, 1.0);
    // `Dual<Spring>` is `Copy` (both parts are), so fields read by value.
    let e = d;
    assert_eq!((d.primal.k, e.tangent.rest), (2.0, 0.0));
    let pair = Dual::new(Pair(1.0, 2.0), PairTangent(0.5, -0.5));
    assert_eq!(pair.tangent.1, -0.5);
    // A generic tangent is parameterized by the primal's parameters, which its fields
    // (`T::TangentIn<S>`) do not determine: name them, or let `Dual<Generic<f64>>` do it.
    let g = Dual::new(
        Generic { x: 1.0, y: 2.0 },
        GenericTangent::<f64> { x: 1.0, y: 0.0 },
    );
    let h: Dual<Generic<f64>> = Dual::new(
        Generic { x: 1.0, y: 2.0 },
        GenericTangent { x: 1.0, y: 0.0 },
    );
    assert_eq!(g.tangent, h.tangent);
    let m = ModelTangent {
        pos: [1.0, 0.0, 0.0],
        ..Default::default()
    };
    assert_eq!(m.pos[0], 1.0);
    let batched = SpringTangent {
        k: Batch::unit(1),
        rest: Batch([0.0; 4]),
        n: NoTangent,
    };
    let d4: Dual<Spring, SpringTangent<Batch<f64, 4>>> = Dual::new(d.primal, batched);
    assert_eq!(d4.tangent.k.0, [0.0, 1.0, 0.0, 0.0]);
    let v = [1.0, 2.0];
    let dv = [0.5, 0.0];
    let view = Dual::new(
        View { x: &v, scale: 2.0 },
        ViewTangent { x: &dv, scale: 0.0 },
    );
    assert_eq!(view.tangent.x[0], 0.5);
    let h = private_fields::Hidden::new();
    let dh = private_fields::Hidden::tangent(3.0);
    assert_eq!(
        private_fields::Hidden::secret_of(&Dual::new(h, dh).tangent),
        3.0
    );
    let _ = Dual::new(Renamed { k: 1.0 }, SpringDirection { k: 1.0 });
    let _ = Dual::new(ThroughPath { k: 1.0 }, ThroughPathTangent { k: 1.0 });
    let _ = Dual::new(NotClone { k: 1.0 }, NotCloneTangent { k: 1.0 });
    let _ = Dual::new(
        WithSkip {
            k: 1.0,
            table: vec![1.0],
        },
        WithSkipTangent {
            k: 1.0,
            table: NoTangent,
        },
    );
}

#[test]
fn tangent_struct_traits() {
    fn copy<T: Copy>(_: T) {}
    copy(SpringTangent::<Hyper<f64, Batch<f64, 2>>>::default_hyper());
    copy(SizedTangent::<4, Batch<f64, 2>>::default());
    copy(Dual::new(
        Spring {
            k: 1.0,
            rest: 0.0,
            n: 0,
        },
        SpringTangent::<Batch<f64, 4>>::default(),
    ));
    let t = SpringTangent {
        k: 1.5,
        rest: -2.0,
        n: NoTangent,
    };
    assert_eq!(
        format!("{t:?}"),
        "SpringTangent { k: 1.5, rest: -2.0, n: NoTangent }"
    );
    assert_eq!(
        format!("{:?}", PairTangent(1.0, 2.0)),
        "PairTangent(1.0, 2.0)"
    );
    assert_eq!(
        SpringTangent::default(),
        SpringTangent {
            k: 0.0,
            rest: 0.0,
            n: NoTangent
        }
    );
    assert_ne!(t, SpringTangent::default());
    let m: ModelTangent = Default::default();
    assert_eq!(m.clone(), m);
}

/// `Default` needs every field tangent to be `Default`, which `Hyper` is not: build it by hand.
trait DefaultHyper {
    fn default_hyper() -> Self;
}
impl DefaultHyper for SpringTangent<Hyper<f64, Batch<f64, 2>>> {
    fn default_hyper() -> Self {
        let z = <Hyper<f64, Batch<f64, 2>> as ScalarTangent<f64>>::zero();
        SpringTangent {
            k: z,
            rest: z,
            n: NoTangent,
        }
    }
}

#[test]
fn tangent_space_is_fieldwise() {
    let mut a = SpringTangent {
        k: 1.0,
        rest: 2.0,
        n: NoTangent,
    };
    let b = SpringTangent {
        k: 0.5,
        rest: -1.0,
        n: NoTangent,
    };
    a.increment(&b);
    assert_eq!(
        a,
        SpringTangent {
            k: 1.5,
            rest: 1.0,
            n: NoTangent
        }
    );
    a.scale_by(2.0);
    assert_eq!(
        a,
        SpringTangent {
            k: 3.0,
            rest: 2.0,
            n: NoTangent
        }
    );
    assert_eq!(a.dot(&b), 3.0 * 0.5 - 2.0);

    let mut m = ModelTangent {
        spring: SpringTangent {
            k: 1.0,
            rest: 0.0,
            n: NoTangent,
        },
        springs: vec![SpringTangent {
            k: 2.0,
            rest: 1.0,
            n: NoTangent,
        }],
        pos: [1.0, 2.0, 3.0],
        pair: (4.0, NoTangent),
        offset: Some(5.0),
        boxed: Box::new(6.0),
        name: NoTangent,
        label: NoTangent,
    };
    let n = m.clone();
    // 1 + (4 + 1) + (1 + 4 + 9) + 16 + 25 + 36
    assert_eq!(m.dot(&n), 97.0);
    m.increment(&n);
    m.scale_by(0.5);
    assert_eq!(m, n);

    let mut batch = SpringTangent {
        k: Batch([1.0, 2.0]),
        rest: Batch([0.0, 1.0]),
        n: NoTangent,
    };
    batch.scale_by(3.0);
    assert_eq!(batch.k.0, [3.0, 6.0]);
    assert_eq!(batch.dot(&batch), 9.0 + 36.0 + 9.0);

    let mut g = GenericTangent::<Vec<f64>> {
        x: vec![1.0, 2.0],
        y: 3.0,
    };
    g.increment(&GenericTangent {
        x: vec![1.0, 1.0],
        y: 1.0,
    });
    assert_eq!(
        g,
        GenericTangent {
            x: vec![2.0, 3.0],
            y: 4.0
        }
    );
}

#[test]
fn zero_tangents_are_sized_from_the_primal() {
    let s = Spring {
        k: 2.0,
        rest: 1.0,
        n: 3,
    };
    assert_eq!(Dual::constant(s).tangent, SpringTangent::default());
    let model = model();
    let z = model.zero_tangent();
    assert_eq!(z.springs.len(), 2);
    assert_eq!(z.offset, Some(0.0));
    let zb: ModelTangent<Batch<f64, 3>> = model.zero_tangent_in::<Batch<f64, 3>>();
    assert_eq!(zb.pos, [Batch([0.0; 3]); 3]);
    let g = Generic {
        x: vec![1.0, 2.0, 3.0],
        y: 0.0,
    };
    assert_eq!(g.zero_tangent().x, vec![0.0; 3]);
    let h = Spring {
        k: 1.0,
        rest: 2.0,
        n: 0,
    }
    .zero_tangent_in::<Hyper<f64, f64>>();
    assert_eq!(h.k.d12, 0.0);
    assert_eq!(
        Grid {
            nx: 1,
            periodic: true,
            title: String::new()
        }
        .zero_tangent(),
        GridTangent {
            nx: NoTangent,
            periodic: NoTangent,
            title: NoTangent
        }
    );
    assert_eq!(Dual::constant(Method::Rk4).tangent, NoTangent);
    let sk = WithSkip {
        k: 1.0,
        table: vec![1.0; 5],
    };
    assert_eq!(
        sk.zero_tangent(),
        WithSkipTangent {
            k: 0.0,
            table: NoTangent
        }
    );
}

fn model() -> Model {
    Model {
        spring: Spring {
            k: 2.0,
            rest: 1.0,
            n: 3,
        },
        springs: vec![
            Spring {
                k: 1.0,
                rest: 0.5,
                n: 1,
            },
            Spring {
                k: 3.0,
                rest: 0.1,
                n: 2,
            },
        ],
        pos: [0.1, 0.2, 0.3],
        pair: (1.5, 7),
        offset: Some(0.25),
        boxed: Box::new(-1.0),
        name: "m".to_string(),
        label: "label",
    }
}

// --- Hand-written rules over struct arguments ------------------------------------------

/// The energy of a spring stretched to length `x`, ½·k·(x − rest)², `n` times.
fn energy(p: &Spring, x: f64) -> f64 {
    let d = x - p.rest;
    p.n as f64 * 0.5 * p.k * d * d
}

/// Its rule, written once for every mode: fields are read out of the struct dual.
fn energy_frule<S: Mode>(p: Dual<&Spring, &SpringTangent<S>>, x: Dual<f64, S>) -> Dual<f64, S> {
    let k = Dual::new(p.primal.k, p.tangent.k);
    let rest = Dual::new(p.primal.rest, p.tangent.rest);
    let d = x - rest;
    p.primal.n as f64 * 0.5 * k * d * d
}

#[test]
fn second_order_through_a_struct() {
    // d²E/dx² = n·k and d²E/(dx dk) = n·(x − rest), from one Hyper pass each.
    let p = Spring {
        k: 2.0,
        rest: 1.0,
        n: 3,
    };
    let x = 1.7;
    let zero = <Hyper<f64, f64> as ScalarTangent<f64>>::zero();
    let seed = Hyper {
        d1: 1.0,
        d2: 1.0,
        d12: 0.0,
    };
    let dp = p.zero_tangent_in::<Hyper<f64, f64>>();
    let out = energy_frule(Dual::new(&p, &dp), Dual::new(x, seed));
    assert_eq!(out.primal, energy(&p, x));
    approx::assert_relative_eq!(out.tangent.d12, 3.0 * 2.0, max_relative = 1e-14);
    let dp = SpringTangent {
        k: Hyper {
            d1: 0.0,
            d2: 1.0,
            d12: 0.0,
        },
        rest: zero,
        n: NoTangent,
    };
    let out = energy_frule(
        Dual::new(&p, &dp),
        Dual::new(
            x,
            Hyper {
                d1: 1.0,
                d2: 0.0,
                d12: 0.0,
            },
        ),
    );
    approx::assert_relative_eq!(out.tangent.d12, 3.0 * (x - 1.0), max_relative = 1e-14);
}

#[test]
fn recursive_and_renamed_and_nested_generic() {
    let c = chain();
    let z = c.zero_tangent();
    assert_eq!(z.next.as_ref().map(|n| n.value), Some(0.0));
    let mut t = z.clone();
    t.rest[0].value = 2.0;
    assert_eq!(t.dot(&t), 4.0);

    let h = HoldsSTangent {
        s: STangent { x: 1.0 },
        y: 2.0,
    };
    assert_eq!(h.s.x + h.y, 3.0);

    let w = Wrapped {
        inner: Generic { x: 1.0, y: 2.0 },
        scale: 0.5,
    };
    let dw = WrappedTangent::<f64> {
        inner: GenericTangent { x: 1.0, y: 0.0 },
        scale: 0.0,
    };
    let y = prod_frule(Dual::new(&w, &dw));
    assert_eq!((y.primal, y.tangent), (prod(&w), 0.5 * 2.0));
}

fn chain() -> Chain {
    Chain {
        value: 1.0,
        next: Some(Box::new(Chain {
            value: 2.0,
            next: None,
            rest: vec![],
        })),
        rest: vec![Chain {
            value: 3.0,
            next: None,
            rest: vec![],
        }],
    }
}

/// scale · x · y
fn prod(w: &Wrapped) -> f64 {
    w.scale * w.inner.x * w.inner.y
}

fn prod_frule<M: Mode>(w: Dual<&Wrapped, &WrappedTangent<f64, M>>) -> Dual<f64, M> {
    let s = Dual::new(w.primal.scale, w.tangent.scale);
    let x = Dual::new(w.primal.inner.x, w.tangent.inner.x);
    let y = Dual::new(w.primal.inner.y, w.tangent.inner.y);
    s * x * y
}

/// The example of the derive's documentation (`fwdad-macros/src/differentiable.rs`).
#[test]
fn doc_example() {
    #[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
    pub struct Params {
        pub k: f64,
        pub n: usize,
    }

    // Tangents are built by hand, like any struct:
    let p = Dual::new(
        Params { k: 2.0, n: 3 },
        ParamsTangent {
            k: 1.0,
            n: NoTangent,
        },
    );
    assert_eq!(p.tangent.k, 1.0);
    // ... under any mode: here 4 directions at once.
    let b: <Params as Differentiable>::TangentIn<Batch<f64, 4>> = ParamsTangent {
        k: Batch::unit(2),
        n: NoTangent,
    };
    assert_eq!(b.k.0, [0.0, 0.0, 1.0, 0.0]);
    // Zero (sized from the primal), `Default`, and the tangent-space operations, fieldwise.
    assert_eq!(Dual::constant(p.primal).tangent, ParamsTangent::default());
    let mut u = ParamsTangent {
        k: 1.5,
        ..Default::default()
    };
    u.increment(&p.tangent);
    u.scale_by(2.0);
    assert_eq!(u.dot(&p.tangent), 5.0);

    // No field carries a tangent: named fields get a tangent struct of `NoTangent`s (so
    // that methods can name them), other structs and fieldless enums the tangent `NoTangent`.
    #[derive(Differentiable, Clone, Debug)]
    struct Grid {
        nx: usize,
        periodic: bool,
    }
    let g: Dual<Grid, GridTangent> = Dual::constant(Grid {
        nx: 8,
        periodic: true,
    });
    assert!(g.primal.periodic && g.primal.nx == 8);
    assert_eq!(g.tangent.nx, NoTangent);
    #[derive(Differentiable, Clone, Debug)]
    struct Seed(u64);
    let s: Dual<Seed, NoTangent> = Dual::constant(Seed(7));
    assert_eq!(s.primal.0, 7);
}

#[test]
fn generic_recursive_and_borrowing_generic() {
    let t = tree();
    same::<<Tree<f64> as Differentiable>::TangentIn<Batch<f64, 2>>, TreeTangent<f64, Batch<f64, 2>>>(
    );
    let mut dz = t.zero_tangent_in::<Batch<f64, 2>>();
    let d = TreeTangent::<f64, Batch<f64, 2>> {
        value: Batch([1.0, 2.0]),
        children: vec![TreeTangent {
            value: Batch([3.0, 4.0]),
            children: vec![],
        }],
    };
    dz.increment(&d);
    assert_eq!(dz, d);

    let xs = [1.0, 2.0];
    let dxs = [0.0, 1.0];
    let mut ys = [0.0; 2];
    let mut dys = [0.0; 2];
    let w: Dual<Window<'_, '_, f64>> = Dual::new(
        Window {
            xs: &xs,
            ys: &mut ys,
            w: 2.0,
        },
        WindowTangent {
            xs: &dxs,
            ys: &mut dys,
            w: 0.0,
        },
    );
    same::<
        <Window<'static, 'static, f32> as Differentiable>::TangentIn<Batch<f64, 2>>,
        WindowTangent<'static, 'static, f32, Batch<f64, 2>>,
    >();
    let Dual { primal, tangent } = w;
    primal.ys[0] = primal.w * primal.xs[1];
    tangent.ys[0] = primal.w * tangent.xs[1] + tangent.w * primal.xs[1];
    assert_eq!((ys, dys), ([4.0, 0.0], [2.0, 0.0]));
}

fn tree() -> Tree<f64> {
    Tree {
        value: 1.0,
        children: vec![Tree {
            value: 2.0,
            children: vec![],
        }],
    }
}

/// `fwdad::testing::TestTangent` on derived structs: the testing operations, and
/// `test_frule` over struct arguments and results, single and batched.
mod testing {
    use super::*;
    use fwdad::testing::{test_frule, test_frule_batched, Precision, TestTangent};
    use rand::SeedableRng;

    fn rng() -> rand::rngs::StdRng {
        rand::rngs::StdRng::seed_from_u64(7)
    }

    #[test]
    fn testing_operations() {
        assert_eq!(Spring::PRECISION, Precision::F64);
        assert_eq!(Mixed::PRECISION, Precision::F32);
        assert_eq!(Grid::PRECISION, Precision::Discrete);
        assert_eq!(Method::PRECISION, Precision::Discrete);
        assert_eq!(Sized::<2>::PRECISION, Precision::F64);

        let m = model();
        let mut r = rng();
        let t = m.randn_tangent(&mut r);
        assert!(m.matches_tangent(&t));
        assert_eq!(t.springs.len(), 2);
        let moved = m.add_to_primal(&t, 0.5);
        assert_eq!((moved.name.as_str(), moved.pair.1), ("m", 7));
        assert!((moved.spring.k - (m.spring.k + 0.5 * t.spring.k)).abs() < 1e-15);
        let d = moved.diff(&m);
        assert!((d.pos[1] - 0.5 * t.pos[1]).abs() < 1e-15);
        assert!(m.bitwise_eq(&m.clone()));
        assert!(!m.bitwise_eq(&moved));
        let mut other_name = m.clone();
        other_name.name.push('!');
        assert!(!m.bitwise_eq(&other_name));
        let mut fewer = t.clone();
        fewer.springs.pop();
        assert!(!m.matches_tangent(&fewer));

        // Batching packs lane k of every leaf from direction k, and `lane` unpacks it.
        let ts = [
            m.randn_tangent(&mut r),
            m.randn_tangent(&mut r),
            m.randn_tangent(&mut r),
        ];
        let b = Model::batch_tangent([&ts[0], &ts[1], &ts[2]]);
        assert_eq!(b.springs[1].rest.0[2], ts[2].springs[1].rest);
        for (k, tk) in ts.iter().enumerate() {
            assert_eq!(&Model::lane::<3>(&b, k), tk);
        }

        let g = Generic {
            x: vec![1.0, 2.0],
            y: 3.0,
        };
        let tg = g.randn_tangent(&mut r);
        assert_eq!(g.add_to_primal(&tg, 1.0).diff(&g).x.len(), 2);
        let gs = Generic {
            x: Spring {
                k: 1.0,
                rest: 2.0,
                n: 1,
            },
            y: 0.0,
        };
        let ts = gs.randn_tangent(&mut r);
        assert_eq!(
            Generic::<Spring>::lane::<1>(&Generic::<Spring>::batch_tangent([&ts]), 0),
            ts
        );

        // Skipped fields and non-differentiable structs are carried unchanged.
        let sk = WithSkip {
            k: 1.0,
            table: vec![1.0, 2.0],
        };
        let tsk = sk.randn_tangent(&mut r);
        assert_eq!(sk.add_to_primal(&tsk, 1.0).table, sk.table);
        let grid = Grid {
            nx: 4,
            periodic: false,
            title: "g".into(),
        };
        assert_eq!(grid.add_to_primal(&GridTangent::default(), 1.0), grid);
        assert!(!grid.bitwise_eq(&Grid {
            nx: 5,
            ..grid.clone()
        }));
        assert!(Method::Euler.bitwise_eq(&Method::Euler));
        assert!(!Method::Euler.bitwise_eq(&Method::Rk4));
    }

    /// A rule that returns a struct: the spring after a relaxation step, with its tangent.
    fn relax(p: &Spring, x: f64) -> Spring {
        Spring {
            k: p.k * 0.9,
            rest: p.rest + 0.1 * (x - p.rest),
            n: p.n + 1,
        }
    }

    fn relax_frule<S: Mode>(
        p: Dual<&Spring, &SpringTangent<S>>,
        x: Dual<f64, S>,
    ) -> Dual<Spring, SpringTangent<S>> {
        let k = Dual::new(p.primal.k, p.tangent.k) * 0.9;
        let rest = Dual::new(p.primal.rest, p.tangent.rest);
        let rest = rest + 0.1 * (x - rest);
        Dual::new(
            Spring {
                k: k.primal,
                rest: rest.primal,
                n: p.primal.n + 1,
            },
            SpringTangent {
                k: k.tangent,
                rest: rest.tangent,
                n: NoTangent,
            },
        )
    }

    #[test]
    fn test_frule_takes_struct_arguments() {
        let args = (
            Spring {
                k: 2.0,
                rest: 1.0,
                n: 3,
            },
            1.7,
        );
        test_frule(
            args,
            |a| energy(&a.0, a.1),
            |a, da| energy_frule(Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
        );
        test_frule_batched::<4, _, _>(
            args,
            |a| energy(&a.0, a.1),
            |a, da| energy_frule(Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
        );
    }

    #[test]
    fn test_frule_takes_struct_results() {
        let args = (
            Spring {
                k: 2.0,
                rest: 1.0,
                n: 3,
            },
            1.7,
        );
        test_frule(
            args,
            |a| relax(&a.0, a.1),
            |a, da| relax_frule(Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
        );
        test_frule_batched::<3, _, _>(
            args,
            |a| relax(&a.0, a.1),
            |a, da| relax_frule(Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
        );
    }

    #[test]
    fn test_frule_takes_nested_and_generic_structs() {
        /// Total energy of a model's springs at the model's first position.
        fn total(m: &Model) -> f64 {
            m.springs.iter().map(|s| energy(s, m.pos[0])).sum::<f64>() + energy(&m.spring, m.pos[1])
        }
        fn total_frule<S: Mode>(m: Dual<&Model, &ModelTangent<S>>) -> Dual<f64, S> {
            let x0 = Dual::new(m.primal.pos[0], m.tangent.pos[0]);
            let x1 = Dual::new(m.primal.pos[1], m.tangent.pos[1]);
            let mut acc = energy_frule(Dual::new(&m.primal.spring, &m.tangent.spring), x1);
            for (s, ds) in m.primal.springs.iter().zip(&m.tangent.springs) {
                acc += energy_frule(Dual::new(s, ds), x0);
            }
            acc
        }
        test_frule(
            model(),
            |m| total(m),
            |m, dm| total_frule(Dual::new(&*m, &*dm)),
        );
        test_frule_batched::<2, _, _>(
            model(),
            |m| total(m),
            |m, dm| total_frule(Dual::new(&*m, &*dm)),
        );

        /// Generic over the field type: Σ xᵢ · y.
        fn weighted(g: &Generic<Vec<f64>>) -> f64 {
            g.x.iter().sum::<f64>() * g.y
        }
        fn weighted_frule<S: Mode>(
            g: Dual<&Generic<Vec<f64>>, &GenericTangent<Vec<f64>, S>>,
        ) -> Dual<f64, S> {
            let mut s = Dual::new(0.0, S::zero());
            for (x, dx) in g.primal.x.iter().zip(&g.tangent.x) {
                s += Dual::new(*x, *dx);
            }
            s * Dual::new(g.primal.y, g.tangent.y)
        }
        let g = Generic {
            x: vec![0.5, 1.5, -2.0],
            y: 1.25,
        };
        test_frule(
            g.clone(),
            |g| weighted(g),
            |g, dg| weighted_frule(Dual::new(&*g, &*dg)),
        );
        test_frule_batched::<4, _, _>(
            g,
            |g| weighted(g),
            |g, dg| weighted_frule(Dual::new(&*g, &*dg)),
        );
    }

    #[test]
    fn recursive_and_nested_generic_random_tangents() {
        let c = chain();
        let mut r = rng();
        let t = c.randn_tangent(&mut r);
        assert!(c.matches_tangent(&t));
        assert_eq!(
            t.dot(&t),
            t.value * t.value + t.next.as_ref().unwrap().value.powi(2) + t.rest[0].value.powi(2)
        );

        let w = Wrapped {
            inner: Generic { x: 1.0, y: 2.0 },
            scale: 0.5,
        };
        let tw = w.randn_tangent(&mut r);
        assert_eq!(
            Wrapped::<f64>::lane::<1>(&Wrapped::<f64>::batch_tangent([&tw]), 0),
            tw
        );
        test_frule(
            w.clone(),
            |w| prod(w),
            |w, dw| prod_frule(Dual::new(&*w, &*dw)),
        );
        test_frule_batched::<2, _, _>(w, |w| prod(w), |w, dw| prod_frule(Dual::new(&*w, &*dw)));

        let t = tree();
        let dt = t.randn_tangent(&mut r);
        assert_eq!(dt.children.len(), 1);
        let sum = |t: &TreeTangent<f64>| t.value + t.children[0].value;
        approx::assert_relative_eq!(
            sum(&t.add_to_primal(&dt, 1.0).diff(&t)),
            sum(&dt),
            max_relative = 1e-14
        );
        let mut dz = t.zero_tangent_in::<Batch<f64, 2>>();
        dz.increment(&Tree::batch_tangent([&dt, &dt]));
        assert_eq!(dz.children[0].value.0, [dt.children[0].value; 2]);
    }

    #[test]
    fn test_frule_catches_a_wrong_struct_rule() {
        use fwdad::testing::{check_frule, Check, TestConfig};
        // Forgets the tangent of `rest`.
        fn wrong<M: Mode>(p: Dual<&Spring, &SpringTangent<M>>, x: Dual<f64, M>) -> Dual<f64, M> {
            let k = Dual::new(p.primal.k, p.tangent.k);
            let d = x - p.primal.rest;
            p.primal.n as f64 * 0.5 * k * d * d
        }
        let args = (
            Spring {
                k: 2.0,
                rest: 1.0,
                n: 3,
            },
            1.7,
        );
        let err = check_frule(
            &TestConfig::f64(),
            args,
            |a| energy(&a.0, a.1),
            |a, da| wrong(Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
        )
        .unwrap_err();
        assert_eq!(err.check, Check::OutputTangent);
        // A rule that changes a primal field it must not touch.
        let err = check_frule(
            &TestConfig::f64(),
            args,
            |a| energy(&a.0, a.1),
            |a, da| {
                a.0.n += 1;
                energy_frule(Dual::new(&a.0, &da.0), Dual::new(a.1, da.1))
            },
        )
        .unwrap_err();
        assert_eq!(err.check, Check::ArgumentState);
    }
}

/// A struct whose fields hold integers only in containers (`Vec<usize>`, arrays,
/// `Option`): their tangents (`Vec<NoTangent>`, ...) do not depend on the mode, which the
/// tangent struct still takes. Used as an index set in derived code.
mod integer_containers {
    use fwdad::drivers::{bind, Wrt};
    use fwdad::prelude::*;

    #[derive(Differentiable, Clone, Debug, PartialEq)]
    pub struct Picks {
        pub ids: Vec<usize>,
        pub weights_at: [u32; 2],
        pub last: Option<usize>,
        pub n: usize,
    }

    /// With a borrowed, lifetime-carrying field next to the integer containers.
    #[derive(Differentiable, Clone, Debug, PartialEq)]
    pub struct Labelled<'a> {
        pub ids: Vec<usize>,
        pub label: Option<&'a str>,
    }

    #[derive_frule]
    fn labelled_sum(x: &[f64], l: &Labelled<'_>) -> f64 {
        let mut s = 0.0;
        for &i in &l.ids {
            s += x[i];
        }
        s
    }

    #[test]
    fn integer_containers_with_a_lifetime() {
        let l = Labelled {
            ids: vec![1, 1, 0],
            label: Some("pair"),
        };
        let (v, g) = gradient(bind(labelled_sum {}, (Wrt, &l)), &[0.5, 2.0]);
        assert_eq!((v, g), (4.5, [1.0, 2.0]));
    }

    #[derive_frule]
    fn picked_squares(x: &[f64], p: &Picks) -> f64 {
        let mut s = 0.0;
        for k in 0..p.n {
            s += x[p.ids[k]] * x[p.ids[k]];
        }
        s + x[p.weights_at[1] as usize]
    }

    #[test]
    fn integer_only_containers_derive_and_differentiate() {
        let p = Picks {
            ids: vec![2, 0, 2],
            weights_at: [0, 1],
            last: Some(1),
            n: 3,
        };
        let x = [1.5, -2.0, 0.5];
        let (v, g) = gradient(bind(picked_squares {}, (Wrt, &p)), &x);
        assert_eq!(v, picked_squares(&x, &p));
        // s = 2·x₂² + x₀² + x₁.
        assert_eq!(g, [2.0 * x[0], 1.0, 4.0 * x[2]]);
        let t = <Picks as ZeroTangent>::zero_tangent(&p);
        assert_eq!(t.ids.len(), 3);
    }
}
