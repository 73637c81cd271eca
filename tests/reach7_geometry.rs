//! Geometry and graphics code as it is written, annotated unmodified: a triangle mesh's
//! area and enclosed volume over index triangles `&[[usize; 3]]` (vertex arrays
//! destructured in `for &[a, b, c] in tris`), barycentric interpolation returning
//! `Option` and read through `?`, a centripetal Catmull-Rom spline as a struct with a
//! builder, sampled through `windows(2)` for its arc length, and a Möller–Trumbore
//! ray-triangle intersection with early returns and `const` tolerances. Each is checked
//! in every mode against central differences (`check_modes!`, primals bit for bit) and
//! against closed forms.
#![allow(clippy::needless_range_loop)]

mod common;

use common::modes::assert_close;
use fwdad::prelude::*;

type V3 = [f64; 3];

#[derive_frule]
fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

#[derive_frule]
fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[derive_frule]
fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[derive_frule]
fn norm(a: V3) -> f64 {
    dot(a, a).sqrt()
}

// ---------------------------------------------------------------------------------------
// Mesh area and volume.

/// Total surface area of an indexed triangle mesh.
#[derive_frule]
pub fn surface_area(vertices: &[V3], triangles: &[[usize; 3]]) -> f64 {
    let mut area = 0.0;
    for &[a, b, c] in triangles {
        let e1 = sub(vertices[b], vertices[a]);
        let e2 = sub(vertices[c], vertices[a]);
        area += 0.5 * norm(cross(e1, e2));
    }
    area
}

/// Enclosed volume by the divergence theorem (signed tetrahedra to the origin).
#[derive_frule]
pub fn enclosed_volume(vertices: &[V3], triangles: &[[usize; 3]]) -> f64 {
    triangles
        .iter()
        .map(|t| dot(vertices[t[0]], cross(vertices[t[1]], vertices[t[2]])) / 6.0)
        .sum()
}

const CUBE_TRIS: [[usize; 3]; 12] = [
    [0, 2, 1],
    [0, 3, 2],
    [4, 5, 6],
    [4, 6, 7],
    [0, 1, 5],
    [0, 5, 4],
    [1, 2, 6],
    [1, 6, 5],
    [2, 3, 7],
    [2, 7, 6],
    [3, 0, 4],
    [3, 4, 7],
];

/// A box with corners at the origin and `(w, d, h)`, perturbed by a shear `s` of the top
/// face, scored by volume and area.
#[derive_frule]
pub fn box_score(p: &[f64]) -> f64 {
    let (w, d, h, s) = (p[0], p[1], p[2], p[3]);
    let verts: Vec<V3> = vec![
        [0.0, 0.0, 0.0],
        [w, 0.0, 0.0],
        [w, d, 0.0],
        [0.0, d, 0.0],
        [s, 0.0, h],
        [w + s, 0.0, h],
        [w + s, d, h],
        [s, d, h],
    ];
    enclosed_volume(&verts, &CUBE_TRIS) + 0.1 * surface_area(&verts, &CUBE_TRIS)
}

fn box_score_plain(p: &[f64]) -> f64 {
    box_score(p)
}

#[test]
fn mesh_volume_and_area_in_every_mode() {
    let p = [1.2, 0.8, 1.5, 0.3];
    check_modes!(bind(box_score {}, (Wrt,)), box_score_plain, p);
    // Closed form: a sheared box keeps its volume w d h.
    #[derive_frule]
    fn vol(p: &[f64]) -> f64 {
        let (w, d, h, s) = (p[0], p[1], p[2], p[3]);
        let verts = [
            [0.0, 0.0, 0.0],
            [w, 0.0, 0.0],
            [w, d, 0.0],
            [0.0, d, 0.0],
            [s, 0.0, h],
            [w + s, 0.0, h],
            [w + s, d, h],
            [s, d, h],
        ];
        enclosed_volume(&verts, &CUBE_TRIS)
    }
    let (v, g) = gradient(vol {}, &p);
    assert_close(v, p[0] * p[1] * p[2], 1e-14, "volume");
    assert_close(g[0], p[1] * p[2], 1e-13, "dV/dw");
    assert_close(g[1], p[0] * p[2], 1e-13, "dV/dd");
    assert_close(g[2], p[0] * p[1], 1e-13, "dV/dh");
    assert!(g[3].abs() < 1e-13, "shear keeps the volume: {}", g[3]);
}

// A mesh struct of borrowed slices (`struct Mesh<'a> { vertices: &'a [V3], triangles:
// &'a [[usize; 3]] }`) as a parameter, a wall when this was written, works since:
// tests/reach8_walls.rs.

// ---------------------------------------------------------------------------------------
// Barycentric interpolation.

/// Barycentric coordinates of `p` in the triangle `abc`, `None` for a degenerate one.
#[derive_frule]
pub fn barycentric(p: [f64; 2], a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> Option<[f64; 3]> {
    let v0 = [b[0] - a[0], b[1] - a[1]];
    let v1 = [c[0] - a[0], c[1] - a[1]];
    let v2 = [p[0] - a[0], p[1] - a[1]];
    let den = v0[0] * v1[1] - v1[0] * v0[1];
    if den.abs() < 1e-12 {
        return None;
    }
    let v = (v2[0] * v1[1] - v1[0] * v2[1]) / den;
    let w = (v0[0] * v2[1] - v2[0] * v0[1]) / den;
    Some([1.0 - v - w, v, w])
}

/// A value at `p` interpolated from the corners' values; `None` outside the triangle.
#[derive_frule]
pub fn interpolate(p: [f64; 2], corners: &[[f64; 2]; 3], values: &[f64; 3]) -> Option<f64> {
    let [u, v, w] = barycentric(p, corners[0], corners[1], corners[2])?;
    if u < 0.0 || v < 0.0 || w < 0.0 {
        return None;
    }
    Some(u * values[0] + v * values[1] + w * values[2])
}

#[derive_frule]
fn interpolated_field(x: &[f64]) -> f64 {
    let corners = [[0.0, 0.0], [x[2], 0.1], [0.2, x[3]]];
    let values = [1.0, x[4], -0.5];
    interpolate([x[0], x[1]], &corners, &values).unwrap_or(0.0)
}

fn interpolated_field_plain(x: &[f64]) -> f64 {
    interpolated_field(x)
}

#[test]
fn barycentric_interpolation_in_every_mode() {
    let x = [0.3, 0.25, 1.1, 0.9, 2.0];
    check_modes!(
        bind(interpolated_field {}, (Wrt,)),
        interpolated_field_plain,
        x
    );
    // A linear field f(x, y) = 1 + 2x − 3y is reproduced exactly, gradient (2, −3).
    #[derive_frule]
    fn linear_at(p: &[f64]) -> f64 {
        let corners = [[0.0, 0.0], [1.0, 0.2], [0.1, 1.0]];
        let f = |q: [f64; 2]| 1.0 + 2.0 * q[0] - 3.0 * q[1];
        let values = [f(corners[0]), f(corners[1]), f(corners[2])];
        interpolate([p[0], p[1]], &corners, &values).unwrap()
    }
    let (v, g) = gradient(linear_at {}, &[0.3, 0.2]);
    assert_close(v, 1.0 + 0.6 - 0.6, 1e-14, "value");
    assert_close(g[0], 2.0, 1e-13, "d/dx");
    assert_close(g[1], -3.0, 1e-13, "d/dy");
}

// ---------------------------------------------------------------------------------------
// A centripetal Catmull-Rom spline.

#[derive(Differentiable, Clone, Debug)]
pub struct CatmullRom {
    points: Vec<[f64; 2]>,
    alpha: f64,
    samples: usize,
}

#[derive_frule]
impl CatmullRom {
    pub fn new(points: Vec<[f64; 2]>) -> Self {
        CatmullRom {
            points,
            alpha: 0.5,
            samples: 16,
        }
    }

    pub fn alpha(mut self, alpha: f64) -> Self {
        self.alpha = alpha;
        self
    }

    fn knot(&self, t: f64, p: [f64; 2], q: [f64; 2]) -> f64 {
        let d = ((q[0] - p[0]).powi(2) + (q[1] - p[1]).powi(2)).sqrt();
        t + d.powf(self.alpha)
    }

    /// The point at parameter `u` in `[0, 1]` of the segment from `points[i + 1]` to
    /// `points[i + 2]` (Barry and Goldman's pyramid).
    pub fn segment_point(&self, i: usize, u: f64) -> [f64; 2] {
        let [p0, p1, p2, p3] = [
            self.points[i],
            self.points[i + 1],
            self.points[i + 2],
            self.points[i + 3],
        ];
        let t0 = 0.0;
        let t1 = self.knot(t0, p0, p1);
        let t2 = self.knot(t1, p1, p2);
        let t3 = self.knot(t2, p2, p3);
        let t = t1 + u * (t2 - t1);
        let lerp = |a: [f64; 2], b: [f64; 2], ta: f64, tb: f64| {
            let wa = (tb - t) / (tb - ta);
            let wb = (t - ta) / (tb - ta);
            [wa * a[0] + wb * b[0], wa * a[1] + wb * b[1]]
        };
        let a1 = lerp(p0, p1, t0, t1);
        let a2 = lerp(p1, p2, t1, t2);
        let a3 = lerp(p2, p3, t2, t3);
        let b1 = lerp(a1, a2, t0, t2);
        let b2 = lerp(a2, a3, t1, t3);
        lerp(b1, b2, t1, t2)
    }

    /// Arc length of the whole curve by a polyline through `samples` points a segment.
    pub fn length(&self) -> f64 {
        let mut pts = Vec::new();
        for i in 0..self.points.len() - 3 {
            for s in 0..self.samples {
                pts.push(self.segment_point(i, s as f64 / self.samples as f64));
            }
        }
        pts.push(self.points[self.points.len() - 2]);
        pts.windows(2)
            .map(|w| ((w[1][0] - w[0][0]).powi(2) + (w[1][1] - w[0][1]).powi(2)).sqrt())
            .sum()
    }
}

#[derive_frule]
fn spline_length(x: &[f64]) -> f64 {
    let points: Vec<[f64; 2]> = x.chunks(2).map(|c| [c[0], c[1]]).collect();
    CatmullRom::new(points).alpha(0.5).length()
}

fn spline_length_plain(x: &[f64]) -> f64 {
    spline_length(x)
}

#[test]
fn catmull_rom_length_in_every_mode() {
    let x = [-1.0, 0.0, 0.0, 0.0, 1.0, 0.8, 2.0, 0.5, 3.1, 1.2];
    check_modes!(bind(spline_length {}, (Wrt,)), spline_length_plain, x);
    // Collinear, evenly spaced points give a straight segment: its length is the distance
    // between the inner points, whose gradient is the unit direction.
    let line = [0.0, 0.0, 1.0, 0.5, 2.0, 1.0, 3.0, 1.5];
    let (v, g) = gradient(spline_length {}, &line);
    let l = 1.25f64.sqrt();
    assert_close(v, l, 1e-12, "straight length");
    assert_close(g[2], -1.0 / l, 1e-9, "d length / d x1");
    assert_close(g[5], 0.5 / l, 1e-9, "d length / d y2");
}

// ---------------------------------------------------------------------------------------
// Möller–Trumbore.

const EPSILON: f64 = 1e-9;

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Ray {
    pub origin: V3,
    pub dir: V3,
}

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Triangle {
    pub v: [V3; 3],
}

/// The distance along the ray to the triangle, if it hits.
#[derive_frule]
pub fn intersect(ray: &Ray, tri: &Triangle) -> Option<f64> {
    let e1 = sub(tri.v[1], tri.v[0]);
    let e2 = sub(tri.v[2], tri.v[0]);
    let pvec = cross(ray.dir, e2);
    let det = dot(e1, pvec);
    if det.abs() < EPSILON {
        return None;
    }
    let inv_det = 1.0 / det;
    let tvec = sub(ray.origin, tri.v[0]);
    let u = dot(tvec, pvec) * inv_det;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let qvec = cross(tvec, e1);
    let v = dot(ray.dir, qvec) * inv_det;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let t = dot(e2, qvec) * inv_det;
    (t > EPSILON).then_some(t)
}

/// The nearest hit among several triangles, as a renderer's closest-hit query.
#[derive_frule]
pub fn closest_hit(ray: &Ray, tris: &[Triangle]) -> Option<(usize, f64)> {
    tris.iter()
        .enumerate()
        .filter_map(|(i, tri)| intersect(ray, tri).map(|t| (i, t)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

#[derive_frule]
fn hit_distance(x: &[f64]) -> f64 {
    let ray = Ray {
        origin: [x[0], x[1], x[2]],
        dir: [x[3], x[4], -1.0],
    };
    let tris = [
        Triangle {
            v: [[-1.0, -1.0, 0.0], [2.0, -1.0, 0.2], [-1.0, 2.0, -0.1]],
        },
        Triangle {
            v: [[-1.0, -1.0, -2.0], [2.0, -1.0, -2.0], [-1.0, 2.0, -2.0]],
        },
    ];
    match closest_hit(&ray, &tris) {
        Some((_, t)) => t,
        None => f64::INFINITY,
    }
}

fn hit_distance_plain(x: &[f64]) -> f64 {
    hit_distance(x)
}

#[test]
fn ray_triangle_in_every_mode() {
    let x = [0.1, 0.2, 1.5, 0.05, -0.1];
    check_modes!(bind(hit_distance {}, (Wrt,)), hit_distance_plain, x);
    // Against the plane z = 0 the distance is o_z / -d_z: t = o_z for d_z = -1.
    #[derive_frule]
    fn flat_hit(x: &[f64]) -> f64 {
        let ray = Ray {
            origin: [x[0], x[1], x[2]],
            dir: [0.0, 0.0, -1.0],
        };
        let tri = Triangle {
            v: [[-1.0, -1.0, 0.0], [2.0, -1.0, 0.0], [-1.0, 2.0, 0.0]],
        };
        intersect(&ray, &tri).unwrap()
    }
    let (t, g) = gradient(flat_hit {}, &[0.1, 0.2, 1.5]);
    assert_close(t, 1.5, 1e-15, "t");
    assert_eq!(g[0], 0.0);
    assert_eq!(g[1], 0.0);
    assert_close(g[2], 1.0, 1e-15, "dt/doz");
}
