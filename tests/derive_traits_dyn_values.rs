//! Methods called through `dyn Trait` that take and return the user's own types, float
//! arrays, tuples and slices of them: a camera model `trait Lens { fn project(&self, p: V3)
//! -> [f64; 2]; }` as a user writes it, called through `&dyn Lens`, `Box<dyn Lens>` and a
//! `Vec<Box<dyn Lens>>` rig, and residual models writing into `&mut [f64]`. Each in one
//! direction, in batches and at second order, against central differences of the plain
//! functions, each primal bit for bit.

mod common;

use fwdad::prelude::*;
use fwdad::Const;

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct V3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

/// A camera: a point in its frame to pixel coordinates.
#[derive_frule]
pub trait Lens {
    fn project(&self, p: V3) -> [f64; 2];
    /// The ray through a pixel (its direction, not normalised), and the pixel's footprint.
    fn back_project(&self, uv: (f64, f64)) -> (V3, f64) {
        let _ = uv;
        (
            V3 {
                x: 0.0,
                y: 0.0,
                z: 1.0,
            },
            1.0,
        )
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Pinhole {
    pub f: f64,
    pub cx: f64,
    pub cy: f64,
}

/// Brown–Conrady radial distortion with two coefficients.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Radial {
    pub f: f64,
    pub k1: f64,
    pub k2: f64,
}

/// Equidistant fisheye, `r = f θ`.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Fisheye {
    pub f: f64,
}

#[derive_frule]
impl Lens for Pinhole {
    fn project(&self, p: V3) -> [f64; 2] {
        [self.f * p.x / p.z + self.cx, self.f * p.y / p.z + self.cy]
    }
    fn back_project(&self, uv: (f64, f64)) -> (V3, f64) {
        let (u, v) = uv;
        let d = V3 {
            x: (u - self.cx) / self.f,
            y: (v - self.cy) / self.f,
            z: 1.0,
        };
        (d, 1.0 / (self.f * self.f))
    }
}

#[derive_frule]
impl Lens for Radial {
    fn project(&self, p: V3) -> [f64; 2] {
        let (u, v) = (p.x / p.z, p.y / p.z);
        let r2 = u * u + v * v;
        let d = 1.0 + self.k1 * r2 + self.k2 * r2 * r2;
        [self.f * u * d, self.f * v * d]
    }
}

#[derive_frule]
impl Lens for Fisheye {
    fn project(&self, p: V3) -> [f64; 2] {
        let rho = (p.x * p.x + p.y * p.y).sqrt();
        let theta = rho.atan2(p.z);
        let s = self.f * theta / rho;
        [s * p.x, s * p.y]
    }
}

/// The squared reprojection error of points (`x, y, z` triples) against observed pixels.
#[derive_frule]
pub fn reprojection(lens: &dyn Lens, pts: &[f64], obs: &[f64]) -> f64 {
    let mut e = 0.0;
    for i in 0..pts.len() / 3 {
        let p = V3 {
            x: pts[3 * i],
            y: pts[3 * i + 1],
            z: pts[3 * i + 2],
        };
        let [u, v] = lens.project(p);
        let (du, dv) = (u - obs[2 * i], v - obs[2 * i + 1]);
        e += du * du + dv * dv;
    }
    e
}

/// Every camera of a rig sees the same point; the spread of what they see.
#[derive_frule]
pub fn rig_spread(rig: &[Box<dyn Lens>], p: &[f64]) -> f64 {
    let q = V3 {
        x: p[0],
        y: p[1],
        z: p[2],
    };
    let mut s = 0.0;
    for (i, lens) in rig.iter().enumerate() {
        let uv = lens.project(q);
        s += (i as f64 + 1.0) * (uv[0] * uv[0] + 0.5 * uv[1]);
    }
    s
}

/// One boxed camera, and the ray back through the pixel it gives.
#[derive_frule]
pub fn round_trip(lens: Box<dyn Lens>, p: &[f64]) -> f64 {
    let [u, v] = lens.project(V3 {
        x: p[0],
        y: p[1],
        z: p[2],
    });
    let (ray, area) = lens.back_project((u, v));
    ray.x * p[2] - p[0] + (ray.y * ray.y + area) * p[1]
}

fn rig() -> Vec<Box<dyn Lens>> {
    vec![
        Box::new(Pinhole {
            f: 1.2,
            cx: 0.1,
            cy: -0.05,
        }),
        Box::new(Radial {
            f: 1.1,
            k1: -0.2,
            k2: 0.05,
        }),
        Box::new(Fisheye { f: 0.9 }),
    ]
}

#[test]
fn a_lens_projecting_a_struct_to_an_array_through_dyn_in_every_mode() {
    let pts = [0.1, -0.2, 2.0, 0.4, 0.3, 3.0, -0.5, 0.1, 1.5];
    let obs = [0.12, -0.2, 0.3, 0.1, -0.35, 0.02];
    let lenses: [&dyn Lens; 3] = [
        &Pinhole {
            f: 1.2,
            cx: 0.1,
            cy: -0.05,
        },
        &Radial {
            f: 1.1,
            k1: -0.2,
            k2: 0.05,
        },
        &Fisheye { f: 0.9 },
    ];
    for lens in lenses {
        check_modes!(
            bind(reprojection {}, (Const(lens), Wrt, &obs[..])),
            |x: &[f64]| reprojection(lens, x, &obs),
            pts
        );
    }
}

#[test]
fn a_rig_of_boxed_lenses_in_every_mode() {
    let rig = rig();
    let p = [0.3, -0.2, 2.5];
    check_modes!(
        bind(rig_spread {}, (&rig[..], Wrt)),
        |x: &[f64]| rig_spread(&rig, x),
        p
    );
}

#[test]
fn a_tuple_in_and_a_struct_and_float_out_through_a_box_in_every_mode() {
    let p = [0.3, -0.2, 2.5];
    #[derive_frule]
    fn pinhole_round_trip(p: &[f64]) -> f64 {
        round_trip(
            Box::new(Pinhole {
                f: 1.2,
                cx: 0.1,
                cy: -0.05,
            }),
            p,
        )
    }
    check_modes!(pinhole_round_trip {}, pinhole_round_trip, p);
}

/// A force law that moves a particle in place, accumulates into a force buffer and says
/// how far it stretched, if at all: `&mut V3`, `&mut [f64]` read before written, an
/// `Option` result, and parameters named like the dispatch's own locals (`k`, `r`).
#[derive_frule]
pub trait Tether {
    fn pull(&self, k: f64, p: &mut V3, r: &mut [f64], anchors: &[V3]) -> Option<f64>;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Elastic {
    pub rest: f64,
}

#[derive_frule]
impl Tether for Elastic {
    fn pull(&self, k: f64, p: &mut V3, r: &mut [f64], anchors: &[V3]) -> Option<f64> {
        let mut stretch = None;
        for a in anchors {
            let (dx, dy, dz) = (a.x - p.x, a.y - p.y, a.z - p.z);
            let d = (dx * dx + dy * dy + dz * dz).sqrt();
            if d > self.rest {
                let f = k * (d - self.rest) / d;
                r[0] += f * dx;
                r[1] += f * dy;
                r[2] += f * dz;
                stretch = Some(d - self.rest);
            }
        }
        p.x += 0.1 * r[0];
        p.y += 0.1 * r[1];
        p.z *= 1.0 + 0.1 * r[2];
        stretch
    }
}

#[derive_frule]
pub fn tethered(t: &dyn Tether, x: &[f64]) -> f64 {
    let anchors = [
        V3 {
            x: 1.0,
            y: 0.0,
            z: 0.5,
        },
        V3 {
            x: -0.5,
            y: 1.2,
            z: 0.0,
        },
    ];
    let mut p = V3 {
        x: x[0],
        y: x[1],
        z: x[2],
    };
    let mut force = vec![0.2 * x[2], 0.1, -0.3];
    let s = t.pull(x[3], &mut p, &mut force, &anchors).unwrap_or(0.0);
    let s2 = t
        .pull(x[3], &mut p, &mut force, &anchors[1..])
        .unwrap_or(0.0);
    s * s2 + p.x * p.y + p.z + force[0] * force[1] - force[2]
}

#[test]
fn mut_struct_and_accumulated_buffer_through_dyn_in_every_mode() {
    let e = Elastic { rest: 0.3 };
    let x = [0.1, 0.2, 0.3, 1.7];
    check_modes!(
        bind(tethered {}, (Const(&e as &dyn Tether), Wrt)),
        |x: &[f64]| tethered(&e, x),
        x
    );
}
