//! A value of a non-`Copy` enum (a variant holds a `Vec`) matched without moving it and
//! read again: `matches!(s, Shape::Circle { .. })`, `if let Shape::Rect { w, h } = s`, after
//! `s.area()` and before `s.perimeter()`. Rust's `match` of a place moves nothing the arms
//! do not bind by value; the derived rule's split of the dual moved it (E0382 in the
//! expansion). A newcomer's CAD program, annotated unmodified; every mode against central
//! differences, primal bit for bit.
#![allow(clippy::needless_range_loop)]

mod common;

use fwdad::prelude::*;
use std::f64::consts::PI;

#[derive(Clone, Debug, Differentiable)]
pub enum Shape {
    Circle { r: f64 },
    Rect { w: f64, h: f64 },
    Polygon(Vec<(f64, f64)>),
    Annulus(f64, f64),
}

#[derive_frule]
impl Shape {
    pub fn area(&self) -> f64 {
        match self {
            Shape::Circle { r } => PI * r * r,
            Shape::Rect { w, h } => w * h,
            Shape::Polygon(pts) => {
                let n = pts.len();
                let mut s = 0.0;
                for i in 0..n {
                    let (x0, y0) = pts[i];
                    let (x1, y1) = pts[(i + 1) % n];
                    s += x0 * y1 - x1 * y0;
                }
                0.5 * s.abs()
            }
            Shape::Annulus(inner, outer) => PI * (outer * outer - inner * inner),
        }
    }

    pub fn perimeter(&self) -> f64 {
        match self {
            Shape::Circle { r } => 2.0 * PI * r,
            Shape::Rect { w, h } => 2.0 * (w + h),
            Shape::Polygon(pts) => pts
                .iter()
                .zip(pts.iter().cycle().skip(1))
                .map(|(a, b)| ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt())
                .sum(),
            Shape::Annulus(inner, outer) => 2.0 * PI * (inner + outer),
        }
    }

    pub fn scaled(&self, k: f64) -> Shape {
        match self {
            Shape::Circle { r } => Shape::Circle { r: r * k },
            Shape::Rect { w, h } => Shape::Rect { w: w * k, h: h * k },
            Shape::Polygon(pts) => {
                Shape::Polygon(pts.iter().map(|&(x, y)| (x * k, y * k)).collect())
            }
            Shape::Annulus(a, b) => Shape::Annulus(a * k, b * k),
        }
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub enum Material {
    Steel { density: f64 },
    Foam(f64),
    Void,
}

#[derive_frule]
pub fn design_cost(p: &[f64]) -> f64 {
    let shapes = vec![
        (Shape::Circle { r: p[0] }, Material::Steel { density: 7.8 }),
        (
            Shape::Rect {
                w: p[1],
                h: 0.5 * p[1],
            },
            Material::Foam(p[2]),
        ),
        (
            Shape::Polygon(vec![(0.0, 0.0), (p[0], 0.0), (p[0], p[1]), (0.0, 0.8)]),
            Material::Void,
        ),
        (
            Shape::Annulus(0.2, p[0] + 0.3),
            Material::Steel { density: 2.7 },
        ),
    ];
    let mut mass = 0.0;
    let mut edge = 0.0;
    for (shape, mat) in &shapes {
        let s = shape.scaled(1.1);
        let rho = match mat {
            Material::Steel { density } => *density,
            Material::Foam(d) => d * 0.1,
            Material::Void => continue,
        };
        mass += rho * s.area();
        if !matches!(s, Shape::Circle { .. }) {
            edge += s.perimeter();
        }
        if let Shape::Rect { w, h } = s {
            edge += 0.01 * (w - h).abs();
        }
    }
    mass + 0.5 * edge
}

#[test]
fn enum_matched_then_read_again() {
    check_modes!(design_cost {}, design_cost, [0.6, 1.2, 0.3]);
    check_modes!(design_cost {}, design_cost, [0.9, 0.7, 1.1]);
}
