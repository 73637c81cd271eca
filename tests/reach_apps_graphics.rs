//! Graphics code as renderer and animation programmers write it with glam's `f64` types,
//! annotated unmodified: signed distance functions and a sphere tracer, Phong and GGX
//! shading, a look-at camera with a perspective projection, quaternion slerp, linear
//! blend skinning, Bézier and Catmull-Rom splines, sRGB ↔ linear colour conversions (in
//! `f64` and `f32`). Each is checked against central finite differences of the plain
//! function in every mode (`check_modes!`) or against a closed form, primals bit for bit.
//!
//! Run with `cargo test --features glam --test reach_apps_graphics`.

mod common;

use common::modes::{assert_close, fd_gradient};
use fwdad::prelude::*;
use fwdad::Const;
use glam::{DMat4, DQuat, DVec2, DVec3, DVec4, Vec3Swizzles};

// ---------------------------------------------------------------- SDFs and ray marching

#[derive_frule]
fn sd_sphere(p: DVec3, r: f64) -> f64 {
    p.length() - r
}

#[derive_frule]
fn sd_box(p: DVec3, b: DVec3) -> f64 {
    let q = p.abs() - b;
    q.max(DVec3::ZERO).length() + q.x.max(q.y.max(q.z)).min(0.0)
}

#[derive_frule]
fn sd_torus(p: DVec3, t: DVec2) -> f64 {
    let q = DVec2::new(p.xz().length() - t.x, p.y);
    q.length() - t.y
}

/// Polynomial smooth minimum (Quílez).
#[derive_frule]
fn smin(a: f64, b: f64, k: f64) -> f64 {
    let h = (0.5 + 0.5 * (b - a) / k).clamp(0.0, 1.0);
    b * (1.0 - h) + a * h - k * h * (1.0 - h)
}

/// A sphere blended into a box, the box turned about y.
#[derive_frule]
fn scene(p: DVec3, center: DVec3, radius: f64, turn: f64) -> f64 {
    let sphere = sd_sphere(p - center, radius);
    let local = DQuat::from_rotation_y(-turn) * (p - DVec3::new(1.2, 0.0, 0.0));
    let cube = sd_box(local, DVec3::new(0.4, 0.3, 0.5));
    smin(sphere, cube, 0.25)
}

/// Sphere tracing: the distance along the ray to the first hit.
#[derive_frule]
fn march(ro: DVec3, rd: DVec3, center: DVec3, radius: f64, turn: f64) -> f64 {
    let mut t = 0.0;
    for _ in 0..128 {
        let d = scene(ro + rd * t, center, radius, turn);
        if d < 1e-9 {
            break;
        }
        t += d;
        if t > 100.0 {
            break;
        }
    }
    t
}

/// The hit distance of a ray through the scene, as a function of its parameters
/// `[cx, cy, cz, radius, turn]`.
#[derive_frule]
fn hit_distance(params: &[f64]) -> f64 {
    let center = DVec3::new(params[0], params[1], params[2]);
    let ro = DVec3::new(-3.0, 0.2, 0.1);
    let rd = DVec3::new(1.0, -0.05, 0.02).normalize();
    march(ro, rd, center, params[3], params[4])
}

/// The surface normal by central differences of the SDF (the usual tetrahedron-free
/// version), shaded with a directional light.
#[derive_frule]
fn sdf_normal(p: DVec3, center: DVec3, radius: f64) -> DVec3 {
    let e = 1e-4;
    let dx = DVec3::new(e, 0.0, 0.0);
    let dy = DVec3::new(0.0, e, 0.0);
    let dz = DVec3::new(0.0, 0.0, e);
    DVec3::new(
        sd_sphere(p + dx - center, radius) - sd_sphere(p - dx - center, radius),
        sd_sphere(p + dy - center, radius) - sd_sphere(p - dy - center, radius),
        sd_sphere(p + dz - center, radius) - sd_sphere(p - dz - center, radius),
    )
    .normalize()
}

#[derive_frule]
fn lit_point(c: &[f64]) -> f64 {
    let p = DVec3::new(0.9, 0.3, -0.2);
    let center = DVec3::new(c[0], c[1], c[2]);
    let n: DVec3 = sdf_normal(p, center, 1.0);
    let light = DVec3::new(0.3, 1.0, 0.5).normalize();
    n.dot(light).max(0.0)
}

// ---------------------------------------------------------------- shading

#[derive_frule]
fn phong(n: DVec3, l: DVec3, v: DVec3, shininess: f64) -> f64 {
    let n = n.normalize();
    let l = l.normalize();
    let diffuse = n.dot(l).max(0.0);
    let r = (-l).reflect(n);
    let specular = r.dot(v.normalize()).max(0.0).powf(shininess);
    0.1 + 0.7 * diffuse + 0.4 * specular
}

/// Cook-Torrance with the GGX distribution, Smith-Schlick geometry and Schlick's
/// Fresnel, as a real-time renderer evaluates it for one light.
#[derive_frule]
fn ggx(n: DVec3, v: DVec3, l: DVec3, roughness: f64, f0: DVec3) -> DVec3 {
    let h = (v + l).normalize();
    let n_dot_v = n.dot(v).max(1e-4);
    let n_dot_l = n.dot(l).max(0.0);
    let n_dot_h = n.dot(h).max(0.0);
    let v_dot_h = v.dot(h).max(0.0);
    let a = roughness * roughness;
    let a2 = a * a;
    let denom = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
    let d = a2 / (std::f64::consts::PI * denom * denom);
    let k = (roughness + 1.0).powi(2) / 8.0;
    let g = (n_dot_v / (n_dot_v * (1.0 - k) + k)) * (n_dot_l / (n_dot_l * (1.0 - k) + k));
    let f = f0 + (DVec3::ONE - f0) * (1.0 - v_dot_h).powi(5);
    f * (d * g / (4.0 * n_dot_v * n_dot_l).max(1e-4)) * n_dot_l
}

#[derive_frule]
fn ggx_luminance(x: &[f64]) -> f64 {
    let n = DVec3::new(0.0, 1.0, 0.0);
    let v = DVec3::new(x[0], 1.0, 0.2).normalize();
    let l = DVec3::new(-0.4, 1.0, x[1]).normalize();
    let rgb: DVec3 = ggx(n, v, l, x[2], DVec3::new(x[3], 0.5, 0.3));
    rgb.dot(DVec3::new(0.2126, 0.7152, 0.0722))
}

// ---------------------------------------------------------------- camera

/// The pixel a world point lands on, through a look-at camera and a perspective
/// projection (`[eye_x, eye_y, eye_z, fov]`), written into `out`.
#[derive_frule]
fn project_to_pixel(cam: &[f64], point: DVec3, out: &mut [f64]) {
    let eye = DVec3::new(cam[0], cam[1], cam[2]);
    let view = DMat4::look_at_rh(eye, DVec3::ZERO, DVec3::Y);
    let proj = DMat4::perspective_rh(cam[3], 16.0 / 9.0, 0.1, 100.0);
    let ndc = (proj * view).project_point3(point);
    out[0] = (ndc.x + 1.0) * 0.5 * 1920.0;
    out[1] = (1.0 - ndc.y) * 0.5 * 1080.0;
}

/// The same through clip space, with `DVec4` and the perspective divide by hand.
#[derive_frule]
fn clip_depth(cam: &[f64]) -> f64 {
    let eye = DVec3::new(cam[0], cam[1], cam[2]);
    let view = DMat4::look_at_rh(eye, DVec3::new(0.0, 0.5, 0.0), DVec3::Y);
    let proj = DMat4::perspective_rh(cam[3], 1.5, 0.1, 50.0);
    let clip = proj * view * DVec4::new(0.3, 0.2, -0.4, 1.0);
    clip.z / clip.w
}

// ---------------------------------------------------------------- animation

/// A point rotated by the slerp of two orientations.
#[derive_frule]
fn slerp_rotate(angles: &[f64], t: f64) -> DVec3 {
    let a = DQuat::from_axis_angle(DVec3::new(0.0, 0.0, 1.0), angles[0]);
    let b = DQuat::from_axis_angle(DVec3::new(0.0, 0.0, 1.0), angles[1]);
    a.slerp(b, t) * DVec3::new(1.0, 0.0, 0.0)
}

/// The rotated point's coordinates, for the Jacobian.
#[derive_frule]
fn slerp_xyz(x: &[f64]) -> Vec<f64> {
    let p: DVec3 = slerp_rotate(&x[..2], x[2]);
    vec![p.x, p.y, p.z]
}

#[derive_frule]
fn slerp_x(x: &[f64]) -> f64 {
    let p: DVec3 = slerp_rotate(&x[..2], x[2]);
    p.x + 0.3 * p.y
}

/// Linear blend skinning of one vertex by a two-bone chain (joint angles about z).
#[derive_frule]
fn skin_vertex(angles: &[f64], rest: DVec3, weights: &[f64]) -> DVec3 {
    let root = DMat4::from_rotation_translation(DQuat::from_rotation_z(angles[0]), DVec3::ZERO);
    let elbow = root
        * DMat4::from_rotation_translation(
            DQuat::from_rotation_z(angles[1]),
            DVec3::new(1.0, 0.0, 0.0),
        );
    // Inverse bind matrices: the bones' rest poses are at the origin and at x = 1.
    let bones = [
        root,
        elbow * DMat4::from_translation(DVec3::new(-1.0, 0.0, 0.0)),
    ];
    let mut out = DVec3::ZERO;
    for (m, w) in bones.iter().zip(weights) {
        out += m.transform_point3(rest) * *w;
    }
    out
}

#[derive_frule]
fn skinned_x(angles: &[f64]) -> f64 {
    let v: DVec3 = skin_vertex(angles, DVec3::new(1.5, 0.1, 0.0), &[0.3, 0.7]);
    v.x - 0.5 * v.y
}

/// A cubic Bézier curve by de Casteljau's algorithm.
#[derive_frule]
fn bezier(ctrl: &[DVec2], t: f64) -> DVec2 {
    let mut pts = ctrl.to_vec();
    let n = pts.len();
    for level in 1..n {
        for i in 0..n - level {
            pts[i] = pts[i].lerp(pts[i + 1], t);
        }
    }
    pts[0]
}

#[derive_frule]
fn bezier_of(x: &[f64]) -> f64 {
    let ctrl = [
        DVec2::new(0.0, 0.0),
        DVec2::new(x[0], x[1]),
        DVec2::new(2.0, x[2]),
        DVec2::new(3.0, 0.0),
    ];
    let p: DVec2 = bezier(&ctrl, x[3]);
    p.x * p.y
}

/// A uniform Catmull-Rom segment between `p1` and `p2`.
#[derive_frule]
fn catmull_rom(p0: DVec3, p1: DVec3, p2: DVec3, p3: DVec3, t: f64) -> DVec3 {
    let t2 = t * t;
    let t3 = t2 * t;
    0.5 * ((2.0 * p1)
        + (-p0 + p2) * t
        + (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3) * t2
        + (-p0 + 3.0 * p1 - 3.0 * p2 + p3) * t3)
}

#[derive_frule]
fn catmull_rom_of(x: &[f64]) -> f64 {
    let p: DVec3 = catmull_rom(
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(1.0, x[0], 0.0),
        DVec3::new(2.0, x[1], 0.5),
        DVec3::new(3.0, 0.0, 1.0),
        x[2],
    );
    p.length()
}

// ---------------------------------------------------------------- colour

#[derive_frule]
fn srgb_to_linear(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

#[derive_frule]
fn linear_to_srgb(c: f64) -> f64 {
    if c <= 0.0031308 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// Relative luminance of an sRGB colour, and a gamma-space blend of two colours.
#[derive_frule]
fn luminance(rgb: DVec3) -> f64 {
    let lin = DVec3::new(
        srgb_to_linear(rgb.x),
        srgb_to_linear(rgb.y),
        srgb_to_linear(rgb.z),
    );
    lin.dot(DVec3::new(0.2126, 0.7152, 0.0722))
}

#[derive_frule]
fn blend_in_linear(x: &[f64]) -> f64 {
    let a = DVec3::new(x[0], x[1], 0.2);
    let b = DVec3::new(0.9, 0.1, x[2]);
    // Decode with glam's componentwise `powf` (the pure gamma-2.2 approximation).
    let mixed = a.powf(2.2).lerp(b.powf(2.2), x[3]);
    let out = mixed.powf(1.0 / 2.2);
    out.x + out.y + out.z + luminance(out)
}

#[derive_frule]
fn srgb_to_linear_f32(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

#[derive_frule]
fn tonemap_f32(rgb: [f32; 3], exposure: f32) -> [f32; 3] {
    let mut out = [0.0f32; 3];
    for i in 0..3 {
        let x = rgb[i] * exposure;
        // ACES filmic approximation (Narkowicz).
        let mapped = (x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14);
        out[i] = linear_to_srgb_f32(mapped.clamp(0.0, 1.0));
    }
    out
}

#[derive_frule]
fn linear_to_srgb_f32(c: f32) -> f32 {
    if c <= 0.0031308 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

// ================================================================ tests

#[test]
fn sdfs_match_their_closed_forms() {
    // ∇|p − c| − r = (p − c)/|p − c|; ∂/∂r = −1.
    let p = DVec3::new(0.3, -0.4, 1.2);
    let d = sd_sphere_frule(Dual::new(p, [1.0, 0.0, 0.0]), Dual::new(0.5, 0.0));
    assert_eq!(d.primal.to_bits(), sd_sphere(p, 0.5).to_bits());
    assert_close(d.tangent, p.x / p.length(), 1e-15, "∂sd/∂px");
    let d = sd_sphere_frule(Dual::new(p, [0.0; 3]), Dual::new(0.5, 1.0));
    assert_eq!(d.tangent, -1.0);
    // Outside a box along a face the distance is |p_x| − b_x: ∂/∂px = 1.
    let b = DVec3::new(0.4, 0.3, 0.5);
    let q = DVec3::new(1.0, 0.1, 0.1);
    let d = sd_box_frule(Dual::new(q, [1.0, 0.0, 0.0]), Dual::new(b, [0.0; 3]));
    assert_eq!(d.primal.to_bits(), sd_box(q, b).to_bits());
    assert_close(d.tangent, 1.0, 1e-15, "∂box/∂px");
    // Inside: the nearest face is y (0.3 − 0.1 = 0.2 is the smallest gap); ∂/∂py = 1.
    let d = sd_box_frule(Dual::new(q * 0.1, [0.0, 1.0, 0.0]), Dual::new(b, [0.0; 3]));
    assert_close(d.tangent, 1.0, 1e-15, "∂box/∂py inside");
    // Torus: ∂/∂t.y = −1.
    let t = DVec2::new(1.0, 0.25);
    let d = sd_torus_frule(Dual::new(p, [0.0; 3]), Dual::new(t, [0.0, 1.0]));
    assert_eq!(d.primal.to_bits(), sd_torus(p, t).to_bits());
    assert_eq!(d.tangent, -1.0);
}

#[test]
fn sphere_tracing_in_every_mode() {
    // The ray hits the blended sphere: the hit distance against finite differences.
    let params = [0.0, 0.0, 0.0, 1.0, 0.3];
    check_modes!(hit_distance {}, |x: &[f64]| hit_distance(x), params);
    // Far from the box the surface hit is the sphere's: growing the radius by dr moves
    // the hit along the ray by dt = dr / (d·n), n the outward normal there (closed form,
    // up to the marcher's tolerance).
    let c = DVec3::new(-1.0, 0.0, 0.0);
    let (t, g) = fwdad::gradient(hit_distance {}, &[c.x, c.y, c.z, 0.5, 0.0]);
    assert!(t > 1.0 && t < 2.0, "hit at {t}");
    let rd = DVec3::new(1.0, -0.05, 0.02).normalize();
    let n = (DVec3::new(-3.0, 0.2, 0.1) + rd * t - c).normalize();
    assert_close(g[3], 1.0 / rd.dot(n), 1e-6, "∂t/∂r");
    // Moving the sphere along the ray moves the hit with it: ∂t/∂c · d = 1.
    assert_close(
        g[0] * rd.x + g[1] * rd.y + g[2] * rd.z,
        1.0,
        1e-6,
        "∂t/∂c along d",
    );
}

#[test]
fn sdf_normal_shading_in_every_mode() {
    check_modes!(lit_point {}, |x: &[f64]| lit_point(x), [0.1, -0.2, 0.05]);
}

#[test]
fn phong_against_finite_differences() {
    let n = DVec3::new(0.1, 1.0, 0.2);
    let l = DVec3::new(0.5, 1.0, -0.3);
    let v = DVec3::new(-0.2, 1.0, 0.6);
    let plain = |x: &[f64]| phong(DVec3::new(x[0], x[1], x[2]), l, v, x[3]);
    let x = [n.x, n.y, n.z, 16.0];
    let g = fd_gradient(&plain, &x);
    let d = phong_frule(
        Dual::new(n, [1.0, 0.0, 0.0]),
        Dual::new(l, [0.0; 3]),
        Dual::new(v, [0.0; 3]),
        Dual::new(16.0, 0.0),
    );
    assert_eq!(d.primal.to_bits(), plain(&x).to_bits());
    assert_close(d.tangent, g[0], 1e-7, "∂phong/∂nx");
    let d = phong_frule(
        Dual::new(n, [0.0; 3]),
        Dual::new(l, [0.0; 3]),
        Dual::new(v, [0.0; 3]),
        Dual::new(16.0, 1.0),
    );
    assert_close(d.tangent, g[3], 1e-7, "∂phong/∂shininess");
}

#[test]
fn ggx_in_every_mode() {
    check_modes!(
        ggx_luminance {},
        |x: &[f64]| ggx_luminance(x),
        [0.3, 0.2, 0.45, 0.04]
    );
}

#[test]
fn camera_projection_jacobian_against_finite_differences() {
    let cam = [2.0, 1.5, 4.0, 0.9];
    let point = DVec3::new(0.3, 0.2, -0.4);
    let (px, jac) = fwdad::jacobian(
        inplace(bind(project_to_pixel {}, (Wrt, Const(point), Out)), 2),
        &cam,
    );
    let mut plain = [0.0; 2];
    project_to_pixel(&cam, point, &mut plain);
    assert_eq!(px, plain);
    for i in 0..2 {
        let g = fd_gradient(
            &|c| {
                let mut out = [0.0; 2];
                project_to_pixel(c, point, &mut out);
                out[i]
            },
            &cam,
        );
        for j in 0..4 {
            assert_close(jac[(i, j)], g[j], 1e-6, &format!("∂pixel{i}/∂cam{j}"));
        }
    }
    check_modes!(clip_depth {}, |x: &[f64]| clip_depth(x), cam);
}

#[test]
fn slerp_follows_the_arc() {
    // Slerp about one axis turns by a + t (b − a): x = cos(a + t (b − a)).
    let x = [0.2, 1.4, 0.35];
    let (p, jac) = fwdad::jacobian(slerp_xyz {}, &x);
    assert_eq!(p, slerp_xyz(&x));
    let phi = x[0] + x[2] * (x[1] - x[0]);
    assert_close(p[0], phi.cos(), 1e-14, "x");
    // ∂x/∂t = −sin φ (b − a); ∂x/∂a = −sin φ (1 − t).
    assert_close(jac[(0, 2)], -phi.sin() * (x[1] - x[0]), 1e-13, "∂x/∂t");
    assert_close(jac[(0, 0)], -phi.sin() * (1.0 - x[2]), 1e-13, "∂x/∂a");
    check_modes!(slerp_x {}, |x: &[f64]| slerp_x(x), x);
}

#[test]
fn skinning_in_every_mode() {
    check_modes!(skinned_x {}, |x: &[f64]| skinned_x(x), [0.4, -0.7]);
}

#[test]
fn splines_in_every_mode() {
    check_modes!(
        bezier_of {},
        |x: &[f64]| bezier_of(x),
        [1.0, 2.0, -1.0, 0.3]
    );
    check_modes!(
        catmull_rom_of {},
        |x: &[f64]| catmull_rom_of(x),
        [0.5, 1.5, 0.4]
    );
    // A Catmull-Rom segment passes through p1 at t = 0 with velocity (p2 − p0)/2.
    let p = [
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(1.0, 2.0, 0.0),
        DVec3::new(2.0, 1.0, 0.5),
        DVec3::new(3.0, 0.0, 1.0),
    ];
    let z = [0.0; 3];
    let d = catmull_rom_frule(
        Dual::new(p[0], z),
        Dual::new(p[1], z),
        Dual::new(p[2], z),
        Dual::new(p[3], z),
        Dual::new(0.0, 1.0),
    );
    assert_eq!(d.primal, p[1]);
    assert_eq!(d.tangent, [1.0, 0.5, 0.25]);
}

#[test]
fn colour_conversions_against_closed_forms() {
    for c in [0.01, 0.04, 0.2, 0.5, 0.9] {
        let d = srgb_to_linear_frule(Dual::new(c, 1.0));
        assert_eq!(d.primal.to_bits(), srgb_to_linear(c).to_bits());
        let want = if c <= 0.04045 {
            1.0 / 12.92
        } else {
            2.4 / 1.055 * ((c + 0.055) / 1.055).powf(1.4)
        };
        assert_close(d.tangent, want, 1e-14, "d linear / d srgb");
        // The two conversions are inverse: their derivatives multiply to one.
        let l = srgb_to_linear(c);
        let e = linear_to_srgb_frule(Dual::new(l, 1.0));
        assert_close(
            e.tangent * d.tangent,
            1.0,
            1e-12,
            "chain rule through the inverse",
        );
        let d32 = srgb_to_linear_f32_frule(Dual::new(c as f32, 1.0f32));
        assert_eq!(d32.primal.to_bits(), srgb_to_linear_f32(c as f32).to_bits());
        assert!(
            (f64::from(d32.tangent) - want).abs() < 1e-5 * want,
            "f32: {} vs {want}",
            d32.tangent
        );
    }
    let rgb = DVec3::new(0.2, 0.5, 0.8);
    let d = luminance_frule(Dual::new(rgb, [0.0, 1.0, 0.0]));
    assert_eq!(d.primal.to_bits(), luminance(rgb).to_bits());
    assert_close(
        d.tangent,
        0.7152 * 2.4 / 1.055 * ((0.5f64 + 0.055) / 1.055).powf(1.4),
        1e-14,
        "∂Y/∂g",
    );
    check_modes!(
        blend_in_linear {},
        |x: &[f64]| blend_in_linear(x),
        [0.3, 0.6, 0.4, 0.25]
    );
}

#[test]
fn tonemapping_in_f32_against_finite_differences() {
    let rgb = [0.4f32, 1.3, 2.5];
    let out = tonemap_f32_frule(Dual::new(rgb, [0.0f32; 3]), Dual::new(1.2f32, 1.0f32));
    assert_eq!(out.primal, tonemap_f32(rgb, 1.2));
    let h = 1e-3f32;
    let (p, m) = (tonemap_f32(rgb, 1.2 + h), tonemap_f32(rgb, 1.2 - h));
    for i in 0..3 {
        let fd = (p[i] - m[i]) / (2.0 * h);
        assert!(
            (out.tangent[i] - fd).abs() < 2e-3 * (1.0 + fd.abs()),
            "channel {i}: {} vs {fd}",
            out.tangent[i]
        );
    }
}
