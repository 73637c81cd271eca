//! Graphics code as game and renderer programmers write it, with glam's `f32` types
//! (`Vec2`, `Vec3`, `Vec3A`, `Vec4`, `Quat`, `Mat3`, `Mat4`, `Affine3A`) and `f32` scalars, annotated
//! unmodified: SDFs and a sphere tracer, Phong, Blinn-Phong and GGX shading, a look-at
//! camera with a perspective projection, quaternion and matrix skinning, Bézier and
//! Catmull-Rom splines, a spring-damper camera follow, particles and a mass-spring cloth
//! step stepped with `dt: f32`, and a transform hierarchy of `Affine3A`s.
//!
//! Each function is written once (`graphics!`) and compiled twice: derived, with glam's
//! `f32` types, and plain, with `f32` and glam's `f32` names standing for `f64` and the
//! `f64` types. The rule's primal is the `f32` function's bit for bit; its derivatives, in
//! one direction, in a batch of four and at second order, are checked against central
//! differences of the `f64` copy at the same point. The tolerances are f32's: a relative
//! 2e-5 of first derivatives, 1e-4 of second ones (f32's unit roundoff is 6e-8; the
//! largest errors seen are 3e-6 and 8e-6, in GGX, whose `max(1e-4)` guards and fifth
//! powers lose two digits).
//!
//! Run with `cargo test --features glam-f32 --test reach_apps_graphics_f32`.

mod common;

use common::modes::{fd_gradient, fd_hessian};
use fwdad::prelude::*;
use fwdad::{Batch, Hyper};

/// The items once with glam's `f32` types, derived (`mod g32`), and once as plain code
/// over `f64` under the same names (`mod g64`), for the finite differences.
macro_rules! graphics {
    ($($(#[doc = $doc:literal])* #[derive_frule] $item:item)*) => {
        #[allow(clippy::too_many_arguments, clippy::assign_op_pattern)]
        mod g32 {
            #![allow(dead_code)]
            use fwdad::prelude::*;
            use glam::{vec2, vec3, Affine3A, Mat3, Mat4, Quat, Vec2, Vec3, Vec3A, Vec4, Vec3Swizzles, Vec4Swizzles};
            use std::f32::consts::PI;
            $($(#[doc = $doc])* #[derive_frule] $item)*
        }
        #[allow(clippy::too_many_arguments, clippy::unnecessary_cast, clippy::assign_op_pattern)]
        mod g64 {
            #![allow(dead_code, non_camel_case_types)]
            type f32 = f64;
            use glam::{
                dvec2 as vec2, dvec3 as vec3, DAffine3 as Affine3A, DMat3 as Mat3, DMat4 as Mat4, DQuat as Quat,
                DVec2 as Vec2, DVec3 as Vec3, DVec3 as Vec3A, DVec4 as Vec4, Vec3Swizzles, Vec4Swizzles,
            };
            use std::f64::consts::PI;
            $($(#[doc = $doc])* $item)*
        }
    };
}

graphics! {
    // ------------------------------------------------------------ SDFs and sphere tracing

    #[derive_frule]
    pub fn sd_sphere(p: Vec3, r: f32) -> f32 {
        p.length() - r
    }

    #[derive_frule]
    pub fn sd_box(p: Vec3, b: Vec3) -> f32 {
        let q = p.abs() - b;
        q.max(Vec3::ZERO).length() + q.x.max(q.y.max(q.z)).min(0.0)
    }

    #[derive_frule]
    pub fn sd_torus(p: Vec3, t: Vec2) -> f32 {
        let q = vec2(p.xz().length() - t.x, p.y);
        q.length() - t.y
    }

    /// Polynomial smooth minimum (Quílez).
    #[derive_frule]
    pub fn smin(a: f32, b: f32, k: f32) -> f32 {
        let h = (0.5 + 0.5 * (b - a) / k).clamp(0.0, 1.0);
        b * (1.0 - h) + a * h - k * h * (1.0 - h)
    }

    /// A sphere blended into a box turned about y, and a torus beside them.
    #[derive_frule]
    pub fn scene(p: Vec3, center: Vec3, radius: f32, turn: f32) -> f32 {
        let sphere = sd_sphere(p - center, radius);
        let local = Quat::from_rotation_y(-turn) * (p - Vec3::new(1.2, 0.0, 0.0));
        let cube = sd_box(local, Vec3::new(0.4, 0.3, 0.5));
        let ring = sd_torus(p - vec3(0.0, -1.5, 0.0), Vec2::new(1.0, 0.2));
        smin(sphere, cube, 0.25).min(ring)
    }

    /// Sphere tracing: the distance along the ray to the first hit.
    #[derive_frule]
    pub fn march(ro: Vec3, rd: Vec3, center: Vec3, radius: f32, turn: f32) -> f32 {
        let mut t = 0.0;
        for _ in 0..96 {
            let d = scene(ro + rd * t, center, radius, turn);
            if d < 1e-5 {
                break;
            }
            t += d;
            if t > 50.0 {
                break;
            }
        }
        t
    }

    #[derive_frule]
    pub fn hit_distance(params: &[f32]) -> f32 {
        let center = Vec3::new(params[0], params[1], params[2]);
        let ro = Vec3::new(-3.0, 0.2, 0.1);
        let rd = Vec3::new(1.0, -0.05, 0.02).normalize();
        march(ro, rd, center, params[3], params[4])
    }

    // ------------------------------------------------------------ shading

    #[derive_frule]
    pub fn phong(n: Vec3, l: Vec3, v: Vec3, shininess: f32) -> f32 {
        let n = n.normalize();
        let l = l.normalize();
        let diffuse = n.dot(l).max(0.0);
        let r = (-l).reflect(n);
        let specular = r.dot(v.normalize()).max(0.0).powf(shininess);
        0.1 + 0.7 * diffuse + 0.4 * specular
    }

    #[derive_frule]
    pub fn phong_of(x: &[f32]) -> f32 {
        let n = Vec3::new(x[0], 1.0, x[1]);
        let l = Vec3::new(0.5, 1.0, -0.3);
        let v = Vec3::new(-0.2, 1.0, x[2]);
        phong(n, l, v, x[3])
    }

    /// Blinn-Phong with SIMD-friendly `Vec3A`s, as a CPU rasteriser keeps its normals.
    #[derive_frule]
    pub fn blinn_phong(n: Vec3A, l: Vec3A, v: Vec3A, gloss: f32) -> f32 {
        let n = n.normalize();
        let h = (l.normalize() + v.normalize()).normalize();
        let lambert = n.dot(l.normalize()).max(0.0);
        lambert + n.dot(h).max(0.0).powf(gloss) * (gloss + 8.0) / (8.0 * PI)
    }

    #[derive_frule]
    pub fn blinn_phong_of(x: &[f32]) -> f32 {
        let n = Vec3A::new(x[0], 1.0, 0.1);
        let l = Vec3A::new(-0.3, 0.8, x[1]);
        let v = Vec3A::new(0.2, 1.0, 0.4);
        blinn_phong(n, l, v, x[2])
    }

    /// Cook-Torrance with the GGX distribution, Smith-Schlick geometry and Schlick's
    /// Fresnel, for one light.
    #[derive_frule]
    pub fn ggx(n: Vec3, v: Vec3, l: Vec3, roughness: f32, f0: Vec3) -> Vec3 {
        let h = (v + l).normalize();
        let n_dot_v = n.dot(v).max(1e-4);
        let n_dot_l = n.dot(l).max(0.0);
        let n_dot_h = n.dot(h).max(0.0);
        let v_dot_h = v.dot(h).max(0.0);
        let a = roughness * roughness;
        let a2 = a * a;
        let denom = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
        let d = a2 / (PI * denom * denom);
        let k = (roughness + 1.0).powi(2) / 8.0;
        let g = (n_dot_v / (n_dot_v * (1.0 - k) + k)) * (n_dot_l / (n_dot_l * (1.0 - k) + k));
        let f = f0 + (Vec3::ONE - f0) * (1.0 - v_dot_h).powi(5);
        f * (d * g / (4.0 * n_dot_v * n_dot_l).max(1e-4)) * n_dot_l
    }

    #[derive_frule]
    pub fn ggx_luminance(x: &[f32]) -> f32 {
        let n = Vec3::Y;
        let v = Vec3::new(x[0], 1.0, 0.2).normalize();
        let l = Vec3::new(-0.4, 1.0, x[1]).normalize();
        let rgb: Vec3 = ggx(n, v, l, x[2], Vec3::new(x[3], 0.5, 0.3));
        let rgb = rgb.clamp(Vec3::ZERO, Vec3::splat(4.0));
        rgb.dot(Vec3::new(0.2126, 0.7152, 0.0722))
    }

    // ------------------------------------------------------------ camera

    /// World point to pixel: view, projection, perspective divide, viewport.
    #[derive_frule]
    pub fn project_to_pixel(eye: Vec3, target: Vec3, fov_y: f32, p: Vec3) -> Vec2 {
        let view = Mat4::look_at_rh(eye, target, Vec3::Y);
        let proj = Mat4::perspective_rh(fov_y, 16.0 / 9.0, 0.1, 100.0);
        let clip = proj * view * p.extend(1.0);
        let ndc = clip.truncate() / clip.w;
        let size = vec2(1920.0, 1080.0);
        (ndc.xy() * vec2(0.5, -0.5) + 0.5) * size
    }

    #[derive_frule]
    pub fn pixel_x(x: &[f32]) -> f32 {
        let eye = Vec3::new(x[0], x[1], x[2]);
        let pixel: Vec2 = project_to_pixel(eye, Vec3::ZERO, x[3], vec3(0.3, 0.2, -0.4));
        pixel.x
    }

    /// The same through `project_point3`, a camera turned by a quaternion.
    #[derive_frule]
    pub fn clip_depth(x: &[f32]) -> f32 {
        let turn = Quat::from_axis_angle(Vec3::Y, x[0]);
        let eye = turn * Vec3::new(0.0, 1.0, 4.0);
        let view_proj = Mat4::perspective_rh(x[1], 1.5, 0.5, 20.0) * Mat4::look_at_rh(eye, Vec3::ZERO, Vec3::Y);
        view_proj.project_point3(Vec3::new(0.2, x[2], -0.3)).z
    }

    // ------------------------------------------------------------ skinning

    /// Linear blend skinning with two bones posed by quaternions (as a glTF skin).
    #[derive_frule]
    pub fn skin_vertex(angles: &[f32], rest: Vec3, weights: Vec2) -> Vec3 {
        let root = Mat4::from_rotation_translation(Quat::from_rotation_z(angles[0]), Vec3::ZERO);
        let elbow = Quat::from_axis_angle(Vec3::new(0.0, 0.6, 0.8), angles[1]);
        let child = root * Mat4::from_rotation_translation(elbow, Vec3::new(1.0, 0.0, 0.0));
        let twist = Mat4::from_rotation_x(0.25 * angles[1]) * Mat4::from_rotation_y(-0.1);
        let inverse_bind = twist * Mat4::from_translation(Vec3::new(-1.0, 0.0, 0.0));
        let a = root.transform_point3(rest);
        let b = (child * inverse_bind).transform_point3(rest);
        a * weights.x + b * weights.y
    }

    #[derive_frule]
    pub fn skinned_y(x: &[f32]) -> f32 {
        let skinned: Vec3 = skin_vertex(x, Vec3::new(1.3, 0.1, 0.05), Vec2::new(0.35, 0.65));
        skinned.y
    }

    /// Dual-quaternion-free skinning of a normal: the blended rotation by nlerp, as a
    /// Mat3 for the normal.
    #[derive_frule]
    pub fn skinned_normal_z(x: &[f32]) -> f32 {
        let a = Quat::from_rotation_x(x[0]);
        let b = Quat::from_rotation_y(x[1]) * Quat::from_rotation_z(0.3);
        let blend = a.lerp(b, 0.4);
        let normal_matrix = Mat3::from_quat(blend);
        (normal_matrix * Vec3::new(0.0, 0.6, 0.8)).z
    }

    /// A joint turned between two key poses by slerp.
    #[derive_frule]
    pub fn slerp_rotate(angles: &[f32], t: f32) -> Vec3 {
        let a = Quat::from_rotation_z(angles[0]);
        let b = Quat::from_rotation_z(angles[1]);
        a.slerp(b, t).mul_vec3(Vec3::X)
    }

    // ------------------------------------------------------------ transform hierarchy

    /// A transform hierarchy as an engine keeps it (bevy's `GlobalTransform` is an
    /// `Affine3A`): a parent's transform times a child's, a point taken to the world, seen
    /// by a look-at camera, and taken back by the inverses.
    #[derive_frule]
    pub fn world_point_depth(x: &[f32]) -> f32 {
        let parent = Affine3A::from_scale_rotation_translation(
            Vec3::splat(1.5),
            Quat::from_rotation_y(x[0]),
            Vec3::new(x[1], 0.0, -2.0),
        );
        let child = Affine3A::from_rotation_translation(Quat::from_rotation_z(x[2]), Vec3::new(0.5, 1.0, 0.0));
        let global = parent * child;
        let p = global.transform_point3(Vec3::new(0.2, 0.1, x[3]));
        let view = Affine3A::look_at_rh(Vec3::new(3.0, 2.0, 6.0), Vec3::ZERO, Vec3::Y);
        let cam = view.transform_point3(p);
        let back = view.inverse().transform_point3(cam);
        let tilt = Mat3::from_axis_angle(Vec3::new(0.0, 0.6, 0.8), x[0]) * Vec3::X;
        -cam.z + 0.1 * back.y + global.inverse().transform_vector3(tilt).y
    }

    // ------------------------------------------------------------ curves

    /// A cubic Bézier by de Casteljau's construction.
    #[derive_frule]
    pub fn bezier(p0: Vec2, p1: Vec2, p2: Vec2, p3: Vec2, t: f32) -> Vec2 {
        let a = p0.lerp(p1, t);
        let b = p1.lerp(p2, t);
        let c = p2.lerp(p3, t);
        let d = a.lerp(b, t);
        let e = b.lerp(c, t);
        d.lerp(e, t)
    }

    #[derive_frule]
    pub fn bezier_of(x: &[f32]) -> f32 {
        let p: Vec2 = bezier(Vec2::ZERO, vec2(x[0], x[1]), vec2(2.0, x[2]), Vec2::new(3.0, 0.0), x[3]);
        p.x * p.y
    }

    /// Uniform Catmull-Rom, in its matrix form.
    #[derive_frule]
    pub fn catmull_rom(p0: Vec3, p1: Vec3, p2: Vec3, p3: Vec3, t: f32) -> Vec3 {
        let t2 = t * t;
        let t3 = t2 * t;
        0.5 * ((2.0 * p1)
            + (-p0 + p2) * t
            + (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3) * t2
            + (-p0 + 3.0 * p1 - 3.0 * p2 + p3) * t3)
    }

    #[derive_frule]
    pub fn catmull_rom_of(x: &[f32]) -> f32 {
        let p: Vec3 = catmull_rom(
            Vec3::ZERO,
            Vec3::new(1.0, x[0], 0.0),
            Vec3::new(2.0, 1.0, x[1]),
            Vec3::new(3.0, 0.0, 1.0),
            x[2],
        );
        p.length()
    }

    // ------------------------------------------------------------ dynamics

    /// A third-person camera following its target with a critically damped spring.
    #[derive_frule]
    pub fn follow_camera(start: Vec3, target: Vec3, stiffness: f32, dt: f32) -> Vec3 {
        let damping = 2.0 * stiffness.sqrt();
        let offset = Vec3::new(0.0, 2.0, 5.0);
        let mut pos = start;
        let mut vel = Vec3::ZERO;
        for _ in 0..30 {
            let goal = target + offset;
            let accel = (goal - pos) * stiffness - vel * damping;
            vel += accel * dt;
            pos += vel * dt;
        }
        pos
    }

    #[derive_frule]
    pub fn follow_of(x: &[f32]) -> f32 {
        let cam: Vec3 = follow_camera(Vec3::new(x[0], 0.5, 8.0), Vec3::new(1.0, 0.0, x[1]), x[2], 1.0 / 60.0);
        cam.distance(Vec3::new(1.0, 2.0, 4.0))
    }

    /// Particles under gravity and quadratic drag bouncing off the ground, semi-implicit
    /// Euler with `dt: f32`.
    #[derive_frule]
    pub fn particle_height(v0: Vec3, drag: f32, dt: f32) -> f32 {
        let gravity = Vec3::new(0.0, -9.81, 0.0);
        let mut p = Vec3::new(0.0, 1.0, 0.0);
        let mut v = v0;
        for _ in 0..40 {
            let a = gravity - v * v.length() * drag;
            v += a * dt;
            p += v * dt;
            if p.y < 0.0 {
                p.y = 0.0;
                v.y = -0.8 * v.y;
            }
        }
        p.y + 0.1 * p.x
    }

    #[derive_frule]
    pub fn particle_of(x: &[f32]) -> f32 {
        particle_height(Vec3::new(x[0], x[1], 0.5), x[2], 1.0 / 50.0)
    }

    /// One explicit step of a 3×3 mass-spring cloth pinned at two corners, then its
    /// potential energy.
    #[derive_frule]
    pub fn cloth_energy(x: &[f32]) -> f32 {
        let k = x[0];
        let dt = 0.01;
        let rest = 0.5;
        let mut pos = [Vec3::ZERO; 9];
        let mut vel = [Vec3::ZERO; 9];
        for j in 0..3 {
            for i in 0..3 {
                pos[j * 3 + i] = Vec3::new(i as f32 * 0.55, 0.0, j as f32 * 0.5 + x[1] * i as f32);
            }
        }
        let mut force = [Vec3::new(0.0, -9.81 * 0.1, 0.0); 9];
        for j in 0..3 {
            for i in 0..3 {
                let a = j * 3 + i;
                if i < 2 {
                    let d = pos[a + 1] - pos[a];
                    let f = d.normalize() * (k * (d.length() - rest));
                    force[a] += f;
                    force[a + 1] -= f;
                }
                if j < 2 {
                    let d = pos[a + 3] - pos[a];
                    let f = d.normalize() * (k * (d.length() - rest));
                    force[a] += f;
                    force[a + 3] -= f;
                }
            }
        }
        let mut energy = 0.0;
        for a in 0..9 {
            if a != 0 && a != 2 {
                vel[a] += force[a] * (dt / 0.1);
                pos[a] += vel[a] * dt;
            }
            energy += 0.1 * 9.81 * pos[a].y;
        }
        for j in 0..3 {
            for i in 0..2 {
                let a = j * 3 + i;
                let stretch = pos[a].distance(pos[a + 1]) - rest;
                energy += 0.5 * k * stretch * stretch;
            }
        }
        energy
    }

    /// A homogeneous point through a model matrix, its `w` kept (`Vec4` arithmetic).
    #[derive_frule]
    pub fn homogeneous(x: &[f32]) -> f32 {
        let model = Mat4::from_scale_rotation_translation(
            Vec3::splat(x[0]),
            Quat::from_rotation_y(x[1]),
            Vec3::new(0.0, 0.5, -2.0),
        );
        let p = model * Vec4::new(0.3, x[2], 0.1, 1.0);
        let q = Vec4::new(1.0, 2.0, 3.0, 4.0).normalize();
        p.dot(q) + p.xyz().length_squared()
    }

    /// A billboard's corner turned from the world's up to the ground's normal
    /// (`Quat::from_rotation_arc`), offset along x as a `Vec3A`, and projected.
    #[derive_frule]
    pub fn billboard_corner(p: &[f32]) -> f32 {
        let n = Vec3::new(p[0], 1.0, p[1]).normalize();
        let tilt = Quat::from_rotation_arc(Vec3::Y, n);
        let c = tilt * Vec3::new(0.5, 1.0, 0.0);
        let corner = Vec3A::new(c.x + p[2], c.y, c.z);
        let view = Mat4::look_at_rh(Vec3::new(0.0, 2.0, 6.0), Vec3::ZERO, Vec3::Y);
        let proj = Mat4::perspective_rh(0.8, 1.5, 0.1, 20.0);
        let q = (proj * view).project_point3(Vec3::new(corner.x, corner.y, corner.z));
        q.y + corner.length()
    }
}

// ---------------------------------------------------------------- the checks

/// f32's tolerances (see the module docs).
const TOL1: f64 = 2e-5;
const TOL2: f64 = 1e-4;

fn close(got: f32, want: f64, tol: f64, what: &str) {
    let got = f64::from(got);
    assert!(
        (got - want).abs() <= tol * (1.0 + want.abs()),
        "{what}: {got} against {want}"
    );
}

/// Checks the rule of the `&[f32] -> f32` function `$name` at `$x`, in one direction per
/// input, in a batch of four and at second order, against central differences of its
/// `f64` copy; each primal bit for bit with the plain `f32` function.
macro_rules! check_f32 {
    ($name:ident, $x:expr) => {{
        let x: Vec<f32> = $x.to_vec();
        let x64: Vec<f64> = x.iter().map(|v| f64::from(*v)).collect();
        let n = x.len();
        let y = g32::$name(&x);
        let g = fd_gradient(&|v: &[f64]| g64::$name(v), &x64);
        let h = fd_hessian(&|v: &[f64]| g64::$name(v), &x64);
        assert!(
            g.iter().any(|d| *d != 0.0),
            "a test point with a zero gradient"
        );
        let what = stringify!($name);
        // One direction.
        for k in 0..n {
            let mut e = vec![0.0f32; n];
            e[k] = 1.0;
            let d =
                <g32::$name as Frule<_, f64>>::frule(&g32::$name {}, (Dual::new(&x[..], &e[..]),));
            assert_eq!(d.primal.to_bits(), y.to_bits(), "{what}: primal");
            close(d.tangent, g[k], TOL1, &format!("{what}: d/dx{k}"));
        }
        // A batch of four directions (the first four inputs).
        let e: Vec<Batch<f32, 4>> = (0..n)
            .map(|i| Batch(core::array::from_fn(|l| f32::from(u8::from(l == i)))))
            .collect();
        let d = <g32::$name as Frule<_, Batch<f64, 4>>>::frule(
            &g32::$name {},
            (Dual::new(&x[..], &e[..]),),
        );
        assert_eq!(d.primal.to_bits(), y.to_bits(), "{what}: batch primal");
        for k in 0..n.min(4) {
            close(
                d.tangent.0[k],
                g[k],
                TOL1,
                &format!("{what}: batch d/dx{k}"),
            );
        }
        // Second order, one pair of directions at a time.
        for i in 0..n {
            for j in 0..n {
                let e: Vec<Hyper<f32, f32>> = (0..n)
                    .map(|k| Hyper {
                        d1: f32::from(u8::from(k == i)),
                        d2: f32::from(u8::from(k == j)),
                        d12: 0.0,
                    })
                    .collect();
                let d = <g32::$name as Frule<_, Hyper<f64, f64>>>::frule(
                    &g32::$name {},
                    (Dual::new(&x[..], &e[..]),),
                );
                assert_eq!(
                    d.primal.to_bits(),
                    y.to_bits(),
                    "{what}: second-order primal"
                );
                close(
                    d.tangent.d1,
                    g[i],
                    TOL1,
                    &format!("{what}: second order d/dx{i}"),
                );
                close(
                    d.tangent.d12,
                    h[i][j],
                    TOL2,
                    &format!("{what}: d2/dx{i}dx{j}"),
                );
            }
        }
    }};
}

use glam::{Vec2, Vec3, Vec3A};

#[test]
fn sdfs_match_their_closed_forms() {
    // ∇(|p − c| − r) = (p − c)/|p − c|; ∂/∂r = −1.
    let p = Vec3::new(0.3, -0.4, 1.2);
    let d = g32::sd_sphere_frule(Dual::new(p, [1.0, 0.0, 0.0]), Dual::new(0.5f32, 0.0));
    assert_eq!(d.primal.to_bits(), g32::sd_sphere(p, 0.5).to_bits());
    close(d.tangent, f64::from(p.x / p.length()), 1e-6, "∂sd/∂px");
    // Outside a box along a face the distance is |p_x| − b_x: ∂/∂px = 1.
    let b = Vec3::new(0.4, 0.3, 0.5);
    let q = Vec3::new(1.0, 0.1, 0.1);
    let d = g32::sd_box_frule(Dual::new(q, [1.0, 0.0, 0.0]), Dual::new(b, [0.0; 3]));
    assert_eq!(d.primal.to_bits(), g32::sd_box(q, b).to_bits());
    assert_eq!(d.tangent, 1.0);
    // Torus: ∂/∂t.y = −1; ∂/∂t.x along the ring's plane is −(|p.xz| − t.x)/|q|.
    let t = Vec2::new(1.0, 0.25);
    let d = g32::sd_torus_frule(Dual::new(p, [0.0; 3]), Dual::new(t, [0.0, 1.0]));
    assert_eq!(d.primal.to_bits(), g32::sd_torus(p, t).to_bits());
    assert_eq!(d.tangent, -1.0);
}

#[test]
fn sphere_tracing_in_every_mode() {
    check_f32!(hit_distance, [0.0f32, 0.0, 0.0, 1.0, 0.3]);
    // Growing the radius by dr moves the hit along the ray by dr / (d·n), n the outward
    // normal there (closed form, up to the marcher's tolerance).
    let x = [-1.0f32, 0.0, 0.0, 0.5, 0.0];
    let mut e = [0.0f32; 5];
    e[3] = 1.0;
    let d = g32::hit_distance_frule(Dual::new(&x[..], &e[..]));
    let rd = Vec3::new(1.0, -0.05, 0.02).normalize();
    let n = (Vec3::new(-3.0, 0.2, 0.1) + rd * d.primal - Vec3::new(-1.0, 0.0, 0.0)).normalize();
    close(d.tangent, f64::from(1.0 / rd.dot(n)), 1e-3, "∂t/∂r");
}

#[test]
fn shading_in_every_mode() {
    check_f32!(phong_of, [0.1f32, 0.2, 0.6, 16.0]);
    check_f32!(blinn_phong_of, [0.2f32, 0.3, 24.0]);
    check_f32!(ggx_luminance, [0.3f32, 0.2, 0.45, 0.04]);
    // The shading functions on glam values directly: primal bit for bit.
    let (n, l, v) = (
        Vec3A::new(0.1, 1.0, 0.2),
        Vec3A::new(0.5, 1.0, -0.3),
        Vec3A::Y,
    );
    let z = [0.0f32; 3];
    let d = g32::blinn_phong_frule(
        Dual::new(n, [1.0, 0.0, 0.0]),
        Dual::new(l, z),
        Dual::new(v, z),
        Dual::new(32.0f32, 0.0),
    );
    assert_eq!(
        d.primal.to_bits(),
        g32::blinn_phong(n, l, v, 32.0).to_bits()
    );
}

#[test]
fn camera_in_every_mode() {
    check_f32!(pixel_x, [2.0f32, 1.5, 4.0, 0.9]);
    check_f32!(clip_depth, [0.4f32, 1.1, 0.25]);
    // The projected pixel of the look-at target is the screen's centre, and stays there
    // as the eye moves: ∂pixel/∂eye = 0 there.
    let eye = Vec3::new(2.0, 1.5, 4.0);
    let z = [0.0f32; 3];
    let d = g32::project_to_pixel_frule(
        Dual::new(eye, [1.0, 0.3, -0.2]),
        Dual::new(Vec3::ZERO, z),
        Dual::new(0.9f32, 0.0),
        Dual::new(Vec3::ZERO, z),
    );
    assert_eq!(
        d.primal,
        g32::project_to_pixel(eye, Vec3::ZERO, 0.9, Vec3::ZERO)
    );
    assert!((d.primal.x - 960.0).abs() < 1e-3 && (d.primal.y - 540.0).abs() < 1e-3);
    assert!(
        d.tangent[0].abs() < 1e-3 && d.tangent[1].abs() < 1e-3,
        "{:?}",
        d.tangent
    );
}

#[test]
fn rotation_arc_in_every_mode() {
    check_f32!(billboard_corner, [0.2f32, -0.1, 0.3]);
}

#[test]
fn transform_hierarchy_in_every_mode() {
    check_f32!(world_point_depth, [0.4f32, -0.3, 0.9, 0.7]);
}

#[test]
fn skinning_in_every_mode() {
    check_f32!(skinned_y, [0.4f32, -0.7]);
    check_f32!(skinned_normal_z, [0.5f32, -0.3]);
}

#[test]
fn slerp_follows_the_arc() {
    // Slerp about one axis turns by φ = a + t (b − a): x = cos φ, ∂x/∂t = −sin φ (b − a).
    let (a, b, t) = (0.2f32, 1.4f32, 0.35f32);
    let d = g32::slerp_rotate_frule(Dual::new(&[a, b][..], &[0.0f32; 2][..]), Dual::new(t, 1.0));
    let phi = f64::from(a) + f64::from(t) * f64::from(b - a);
    // glam's f32 slerp takes its own acos and (SSE2) sine approximations: the mirror's
    // primal is the exact formula's, within a few ulps of glam's.
    let plain = g32::slerp_rotate(&[a, b], t);
    assert!(
        (d.primal - plain).abs().max_element() < 1e-6,
        "{:?} vs {plain:?}",
        d.primal
    );
    close(d.primal.x, phi.cos(), 1e-6, "x");
    close(d.tangent[0], -phi.sin() * f64::from(b - a), 1e-5, "∂x/∂t");
    close(d.tangent[1], phi.cos() * f64::from(b - a), 1e-5, "∂y/∂t");
}

#[test]
fn curves_in_every_mode() {
    check_f32!(bezier_of, [1.0f32, 2.0, -1.0, 0.3]);
    check_f32!(catmull_rom_of, [0.5f32, 1.5, 0.4]);
    // A Catmull-Rom segment passes through p1 at t = 0 with velocity (p2 − p0)/2.
    let p = [
        Vec3::ZERO,
        Vec3::new(1.0, 2.0, 0.0),
        Vec3::new(2.0, 1.0, 0.5),
        Vec3::new(3.0, 0.0, 1.0),
    ];
    let z = [0.0f32; 3];
    let d = g32::catmull_rom_frule(
        Dual::new(p[0], z),
        Dual::new(p[1], z),
        Dual::new(p[2], z),
        Dual::new(p[3], z),
        Dual::new(0.0f32, 1.0),
    );
    assert_eq!(d.primal, p[1]);
    assert_eq!(d.tangent, [1.0, 0.5, 0.25]);
    // A Bézier's end tangent is 3 (p3 − p2).
    let q = [
        Vec2::ZERO,
        Vec2::new(1.0, 2.0),
        Vec2::new(2.0, -1.0),
        Vec2::new(3.0, 0.0),
    ];
    let z = [0.0f32; 2];
    let d = g32::bezier_frule(
        Dual::new(q[0], z),
        Dual::new(q[1], z),
        Dual::new(q[2], z),
        Dual::new(q[3], z),
        Dual::new(1.0f32, 1.0),
    );
    assert_eq!(d.primal, g32::bezier(q[0], q[1], q[2], q[3], 1.0));
    assert_eq!(d.tangent, [3.0, 3.0]);
}

#[test]
fn dynamics_in_every_mode() {
    check_f32!(follow_of, [0.5f32, -0.5, 30.0]);
    check_f32!(particle_of, [1.5f32, 2.0, 0.05]);
    check_f32!(cloth_energy, [40.0f32, 0.05]);
    check_f32!(homogeneous, [1.2f32, 0.4, -0.3]);
    // The follow camera as a function of glam values: primal bit for bit, and the
    // spring's response to the target is the same for each axis (a linear system).
    let (start, target) = (Vec3::new(0.5, 0.5, 8.0), Vec3::new(1.0, 0.0, -0.5));
    let z = [0.0f32; 3];
    let d = g32::follow_camera_frule(
        Dual::new(start, z),
        Dual::new(target, [1.0, 1.0, 1.0]),
        Dual::new(30.0f32, 0.0),
        Dual::new(1.0f32 / 60.0, 0.0),
    );
    assert_eq!(
        d.primal,
        g32::follow_camera(start, target, 30.0, 1.0 / 60.0)
    );
    assert!(
        (d.tangent[0] - d.tangent[1]).abs() < 1e-6 && (d.tangent[1] - d.tangent[2]).abs() < 1e-6
    );
    assert!(d.tangent[0] > 0.0 && d.tangent[0] < 1.0);
}

/// The drivers at `f32` points, as a graphics programmer calls them: `gradient_f32` of
/// the camera and shading functions against central differences of their `f64` copies,
/// `derivative_f32` of the smooth minimum in its blend radius; primals bit for bit.
#[test]
fn f32_drivers_on_graphics_code() {
    macro_rules! gradient_check {
        ($name:ident, $x:expr) => {{
            let x: Vec<f32> = $x.to_vec();
            let (v, g) = gradient_f32(g32::$name {}, &x);
            let what = stringify!($name);
            assert_eq!(v.to_bits(), g32::$name(&x).to_bits(), "{what}: primal");
            let x64: Vec<f64> = x.iter().map(|v| f64::from(*v)).collect();
            let want = fd_gradient(&|v: &[f64]| g64::$name(v), &x64);
            for k in 0..x.len() {
                close(g[k], want[k], TOL1, &format!("{what}: d/dx{k}"));
            }
        }};
    }
    gradient_check!(pixel_x, [2.0f32, 1.5, 4.0, 0.9]);
    gradient_check!(ggx_luminance, [0.3f32, 0.2, 0.45, 0.04]);
    gradient_check!(homogeneous, [1.2f32, 0.4, -0.3]);
    // Five inputs: passes of 8 directions.
    gradient_check!(hit_distance, [0.0f32, 0.0, 0.0, 1.0, 0.3]);
    let (a, b, k) = (0.4f32, 0.5, 0.3);
    let (y, dk) = derivative_f32(bind(g32::smin {}, (a, b, Wrt)), k);
    assert_eq!(y.to_bits(), g32::smin(a, b, k).to_bits());
    let h = 1e-6;
    let (a, b, k) = (f64::from(a), f64::from(b), f64::from(k));
    let want = (g64::smin(a, b, k + h) - g64::smin(a, b, k - h)) / (2.0 * h);
    close(dk, want, TOL1, "smin: d/dk");
}
