// An expression tree of a `Differentiable` enum built from the inputs inside the body
// (`Box::new(Expr::Num(p[0]))`), then evaluated recursively: a box of a concrete type has
// no rule. Build the tree where the function is called and pass it in.
use fwdad::prelude::*;

#[derive(Clone, Debug, Differentiable)]
pub enum Expr {
    Num(f64),
    Var,
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
}

#[derive_frule]
fn eval(e: &Expr, x: f64) -> f64 {
    match e {
        Expr::Num(c) => *c,
        Expr::Var => x,
        Expr::Add(a, b) => eval(a, x) + eval(b, x),
        Expr::Mul(a, b) => eval(a, x) * eval(b, x),
    }
}

#[derive_frule]
fn model(p: &[f64], x: f64) -> f64 {
    let e = Box::new(Expr::Add(
        Box::new(Expr::Num(p[0])),
        Box::new(Expr::Mul(Box::new(Expr::Num(p[1])), Box::new(Expr::Var))),
    ));
    eval(&e, x)
}

fn main() {}
