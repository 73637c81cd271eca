//! Function values in derived rules (issue #28): the dual form of a closure passed to a
//! function of the user's reaches a `&dyn Fn`, `&mut dyn FnMut` or `Box<dyn Fn>`
//! parameter as Rust's call coercions would take it there (`&closure` to `&dyn Fn`).

use crate::frule::CoerceTo;

macro_rules! fn_object_coercions {
    ($($A:ident)*) => {
        impl<'a, C, R, $($A,)*> CoerceTo<&'a (dyn Fn($($A),*) -> R + 'a)> for &'a C
        where
            C: Fn($($A),*) -> R + 'a,
        {
            #[inline(always)]
            fn coerce(self) -> &'a (dyn Fn($($A),*) -> R + 'a) {
                self
            }
        }
        impl<'a, C, R, $($A,)*> CoerceTo<&'a mut (dyn FnMut($($A),*) -> R + 'a)> for &'a mut C
        where
            C: FnMut($($A),*) -> R + 'a,
        {
            #[inline(always)]
            fn coerce(self) -> &'a mut (dyn FnMut($($A),*) -> R + 'a) {
                self
            }
        }
        impl<'a, C, R, $($A,)*> CoerceTo<Box<dyn Fn($($A),*) -> R + 'a>> for Box<C>
        where
            C: Fn($($A),*) -> R + 'a,
        {
            #[inline(always)]
            fn coerce(self) -> Box<dyn Fn($($A),*) -> R + 'a> {
                self
            }
        }
    };
}

fn_object_coercions!(A);
fn_object_coercions!(A B);
fn_object_coercions!(A B C2);
fn_object_coercions!(A B C2 D);
