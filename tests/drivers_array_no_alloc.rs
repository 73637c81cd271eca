//! `jacobian_array`, `hessian_array` and `hvp_array` allocate nothing: a global allocator
//! counts this thread's allocations around each call (and, so that the count is seen to
//! work, around `jacobian` at a slice, which allocates its buffers). In its own test binary:
//! the allocator is the whole program's.

use fwdad::drivers::{hessian_array, hvp_array, jacobian_array};
use fwdad::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

std::thread_local! {
    /// Allocations made by this thread (a const-initialised cell: reading it allocates
    /// nothing).
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations `f` makes on this thread, and its result.
fn allocations<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = ALLOCATIONS.with(Cell::get);
    let r = std::hint::black_box(f());
    (ALLOCATIONS.with(Cell::get) - before, r)
}

/// Forward kinematics of a planar arm of three links: position and heading of the tip.
#[derive_frule]
fn arm3(q: &[f64; 3], lengths: &[f64; 3]) -> [f64; 3] {
    let mut angle = 0.0;
    let (mut x, mut y) = (0.0, 0.0);
    for i in 0..3 {
        angle += q[i];
        x += lengths[i] * angle.cos();
        y += lengths[i] * angle.sin();
    }
    [x, y, angle]
}

#[derive_frule]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        s += 100.0 * (x[i + 1] - x[i] * x[i]).powi(2) + (1.0 - x[i]).powi(2);
    }
    s
}

/// A recurrence through 40 stages: past the one-pass limit, so the Jacobian takes chunks.
#[derive_frule]
fn chain40(x: &[f64]) -> [f64; 40] {
    let mut y = [0.0; 40];
    let mut s = 0.0;
    for i in 0..40 {
        s = (0.5 * s + x[i]).sin() + x[i];
        y[i] = s;
    }
    y
}

#[test]
fn the_array_drivers_allocate_nothing() {
    let lengths = [1.0, 0.7, 0.3];
    let q = [0.2, -0.5, 1.1];
    let f = bind(arm3 {}, (Wrt, &lengths));
    // The counter counts: the slice driver allocates its seeds, values and matrix.
    let (n, _) = allocations(|| jacobian(f, &q[..]));
    assert!(n >= 3, "jacobian at a slice made {n} allocations");

    let (n, (p, _)) = allocations(|| jacobian_array(f, &q));
    assert_eq!(n, 0, "jacobian_array, 3 × 3");
    assert_eq!(p, arm3(&q, &lengths));

    let x = [0.5, 1.5, -0.7, 0.2, 1.1, -0.3];
    let (n, (v, _, _)) = allocations(|| hessian_array(rosenbrock {}, &x));
    assert_eq!(n, 0, "hessian_array, 6 inputs");
    assert_eq!(v, rosenbrock(&x));
    let (n, _) = allocations(|| hvp_array(rosenbrock {}, &x, &[1.0; 6]));
    assert_eq!(n, 0, "hvp_array, 6 inputs");

    // Past the one-pass limits: chunks, seeds on the stack.
    let x40: [f64; 40] = core::array::from_fn(|i| 0.1 * i as f64);
    let (n, _) = allocations(|| jacobian_array(chain40 {}, &x40));
    assert_eq!(n, 0, "jacobian_array, 40 × 40 in chunks");
    let x14: [f64; 14] = core::array::from_fn(|i| 0.1 * i as f64);
    let (n, _) = allocations(|| hessian_array(rosenbrock {}, &x14));
    assert_eq!(n, 0, "hessian_array, 14 inputs in chunks");
    let (n, _) = allocations(|| hvp_array(rosenbrock {}, &x14, &[1.0; 14]));
    assert_eq!(n, 0, "hvp_array, 14 inputs in chunks");
}
