//! nalgebra vectors as the drivers' arguments and results (feature `nalgebra`).
//!
//! A parameter marked [`Wrt`](super::Wrt) of type `&Vector3<f64>`, `&SVector<f64, N>`,
//! `&DVector<f64>`, `&Point3<f64>` (or one of these by value) is fed from the drivers' slice, so
//! `gradient(bind(f {}, (Wrt,)), x.as_slice())` and `fwdad::na::gradient(bind(f {},
//! (Wrt,)), &x)` differentiate `fn f(x: &Vector3<f64>) -> f64` with no conversion by hand.
//! A borrowed vector is copied into storage the pass owns and lent from there. A result
//! `SVector<f64, M>` or `DVector<f64>` is read by `jacobian` as a list of reals.

use super::{wrt_array, WrtFrom, WrtInto};
use fwdad_runtime::{Dual, Mode};
use nalgebra::{DVector, Point, SVector};

/// A fixed-size vector, or a point (`&Point3<f64>`: its tangent is its coordinates'
/// vector, see the runtime's `nalgebra_geometry`), borrowed or by value.
macro_rules! wrt_fixed {
    ($($p:ident),*) => {$(
        impl<'a, 'd, S: Mode, const N: usize> WrtFrom<Dual<&'a [f64], &'a [S]>>
            for Dual<&'d $p<f64, N>, &'d SVector<f64, N>>
        {
            type Store = ($p<f64, N>, SVector<S, N>);
            #[inline(always)]
            fn store() -> Self::Store {
                ($p::from(SVector::zeros()), SVector::from_element(S::zero()))
            }
        }
        impl<'z, 'a, 'd, S: Mode, const N: usize> WrtInto<'z, Dual<&'a [f64], &'a [S]>>
            for Dual<&'d $p<f64, N>, &'d SVector<f64, N>>
        {
            type Dual = Dual<&'z $p<f64, N>, &'z SVector<S, N>>;
            #[inline(always)]
            fn convert(x: Dual<&'a [f64], &'a [S]>, store: &'z mut Self::Store) -> Self::Dual {
                store.0 = $p::from(SVector::from(*wrt_array::<f64, N>(x.primal)));
                store.1 = SVector::from(*wrt_array::<S, N>(x.tangent));
                Dual::new(&store.0, &store.1)
            }
        }

        impl<'a, S: Mode, const N: usize> WrtFrom<Dual<&'a [f64], &'a [S]>>
            for Dual<$p<f64, N>, SVector<f64, N>>
        {
            type Store = ();
            #[inline(always)]
            fn store() {}
        }
        impl<'z, 'a, S: Mode, const N: usize> WrtInto<'z, Dual<&'a [f64], &'a [S]>>
            for Dual<$p<f64, N>, SVector<f64, N>>
        {
            type Dual = Dual<$p<f64, N>, SVector<S, N>>;
            #[inline(always)]
            fn convert(x: Dual<&'a [f64], &'a [S]>, _: &'z mut ()) -> Self::Dual {
                Dual::new(
                    $p::from(SVector::from(*wrt_array::<f64, N>(x.primal))),
                    SVector::from(*wrt_array::<S, N>(x.tangent)),
                )
            }
        }
    )*};
}

wrt_fixed!(SVector, Point);

impl<'a, 'd, S: Mode> WrtFrom<Dual<&'a [f64], &'a [S]>>
    for Dual<&'d DVector<f64>, &'d DVector<f64>>
{
    type Store = (DVector<f64>, DVector<S>);
    #[inline(always)]
    fn store() -> Self::Store {
        (DVector::zeros(0), DVector::from_element(0, S::zero()))
    }
}
impl<'z, 'a, 'd, S: Mode> WrtInto<'z, Dual<&'a [f64], &'a [S]>>
    for Dual<&'d DVector<f64>, &'d DVector<f64>>
{
    type Dual = Dual<&'z DVector<f64>, &'z DVector<S>>;
    #[inline(always)]
    fn convert(x: Dual<&'a [f64], &'a [S]>, store: &'z mut Self::Store) -> Self::Dual {
        store.0 = DVector::from_column_slice(x.primal);
        store.1 = DVector::from_column_slice(x.tangent);
        Dual::new(&store.0, &store.1)
    }
}

impl<'a, S: Mode> WrtFrom<Dual<&'a [f64], &'a [S]>> for Dual<DVector<f64>, DVector<f64>> {
    type Store = ();
    #[inline(always)]
    fn store() {}
}
impl<'z, 'a, S: Mode> WrtInto<'z, Dual<&'a [f64], &'a [S]>> for Dual<DVector<f64>, DVector<f64>> {
    type Dual = Dual<DVector<f64>, DVector<S>>;
    #[inline(always)]
    fn convert(x: Dual<&'a [f64], &'a [S]>, _: &'z mut ()) -> Self::Dual {
        Dual::new(
            DVector::from_column_slice(x.primal),
            DVector::from_column_slice(x.tangent),
        )
    }
}

// A nalgebra vector result read as a list of reals (a Jacobian's rows): `fn f(x: ..) ->
// Vector3<f64>`, `SVector<f64, M>`, `DVector<f64>`, and a point, `Point3<f64>`, by its
// coordinates (its tangent, `nalgebra_geometry`'s).
super::flat_output_by_index! {
    [const M: usize] SVector<f64, M>, SVector<S, M>;
    [const M: usize] Point<f64, M>, SVector<S, M>;
    [] DVector<f64>, DVector<S>;
}
