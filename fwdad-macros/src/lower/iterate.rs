//! `for` over slices and iterator adaptors, as a counted loop.
//!
//! `for pat in <chain> { body }`, where `<chain>` is built from a slice source (`x.iter()`,
//! `x.iter_mut()`, `&x`, `&mut x`, a slice-typed local `x`) and the adaptors `enumerate`,
//! `zip`, `rev`, `skip`, `take`, `step_by`, `copied`, `cloned`, becomes
//!
//! ```text
//! for k in 0..len { let pat = elem(k); body }
//! ```
//!
//! where `len` and `elem(k)` follow the adaptors (`rev`: `elem(len - 1 - k)`, `skip(n)`:
//! `elem(k + n)`, `zip`: `(a(k), b(k))` with `len = min(..)`, ...) and a slice element is a
//! borrowed element `&x[k]` ([`InstKind::ElemRef`]), or `x[k]` by value after `copied`.
//! The rule then visits the same elements in the same order as the primal, reads them in
//! place (no copied vectors), and writes through `iter_mut` elements. The sources and
//! adaptor arguments are evaluated once, before the loop, as Rust evaluates them.
//! Chains without a slice source (`(0..n).rev()`) stay ordinary `for` loops.

use super::place::strip;
use super::Lowerer;
use crate::ir::{BinOp, InstKind, Value, ValueDef};
use crate::types::TypeHint;
use proc_macro2::Span;
use syn::spanned::Spanned;

/// An iterator chain, as written.
enum Chain<'e> {
    Slice(&'e syn::Expr, Access),
    Range(&'e syn::Expr, &'e syn::Expr),
    Enumerate(Box<Chain<'e>>),
    Zip(Box<Chain<'e>>, Box<Chain<'e>>),
    Rev(Box<Chain<'e>>),
    Skip(Box<Chain<'e>>, &'e syn::Expr),
    Take(Box<Chain<'e>>, &'e syn::Expr),
    StepBy(Box<Chain<'e>>, &'e syn::Expr),
    Copied(Box<Chain<'e>>),
}

/// How a slice source yields its elements.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Ref,
    RefMut,
}

/// An iterator chain with its operands evaluated.
enum Seq {
    Slice(Value, Access),
    Range(Value),
    Enumerate(Box<Seq>),
    Zip(Box<Seq>, Box<Seq>),
    /// The inner sequence and its length.
    Rev(Box<Seq>, Value),
    Skip(Box<Seq>, Value),
    Take(Box<Seq>),
    StepBy(Box<Seq>, Value),
    Copied(Box<Seq>),
}

/// An element: a value, or a tuple of elements not yet built into one value.
enum Shape {
    Val(Value),
    Tuple(Vec<Shape>),
}

impl Chain<'_> {
    fn has_slice(&self) -> bool {
        match self {
            Chain::Slice(..) => true,
            Chain::Range(..) => false,
            Chain::Zip(a, b) => a.has_slice() || b.has_slice(),
            Chain::Enumerate(c)
            | Chain::Rev(c)
            | Chain::Skip(c, _)
            | Chain::Take(c, _)
            | Chain::StepBy(c, _)
            | Chain::Copied(c) => c.has_slice(),
        }
    }
}

impl Lowerer<'_> {
    /// Reads an iterator chain; `None` if it is not one this lowering handles.
    fn parse_chain<'e>(&self, e: &'e syn::Expr) -> Option<Chain<'e>> {
        match strip(e) {
            syn::Expr::MethodCall(m) => {
                let recv = || self.parse_chain(&m.receiver).map(Box::new);
                let arg = m.args.first();
                match (m.method.to_string().as_str(), m.args.len()) {
                    ("iter", 0) => Some(Chain::Slice(&m.receiver, Access::Ref)),
                    ("iter_mut", 0) => Some(Chain::Slice(&m.receiver, Access::RefMut)),
                    ("enumerate", 0) => Some(Chain::Enumerate(recv()?)),
                    ("rev", 0) => Some(Chain::Rev(recv()?)),
                    ("copied" | "cloned", 0) => Some(Chain::Copied(recv()?)),
                    ("zip", 1) => Some(Chain::Zip(recv()?, Box::new(self.parse_chain(arg?)?))),
                    ("skip", 1) => Some(Chain::Skip(recv()?, arg?)),
                    ("take", 1) => Some(Chain::Take(recv()?, arg?)),
                    ("step_by", 1) => Some(Chain::StepBy(recv()?, arg?)),
                    _ => None,
                }
            }
            syn::Expr::Reference(r) => {
                let access = if r.mutability.is_some() {
                    Access::RefMut
                } else {
                    Access::Ref
                };
                Some(Chain::Slice(&r.expr, access))
            }
            syn::Expr::Range(r) if !matches!(r.limits, syn::RangeLimits::Closed(_)) => {
                Some(Chain::Range(r.start.as_deref()?, r.end.as_deref()?))
            }
            syn::Expr::Path(p) => {
                let id = p.path.get_ident()?;
                let v = self.lookup(&id.to_string())?;
                let TypeHint::Ref(inner) = &self.func.values[v].ty else {
                    return None;
                };
                if !matches!(**inner, TypeHint::Seq(_)) {
                    return None;
                }
                let mutable = match self.func.values[v].def {
                    ValueDef::Param(i) => {
                        matches!(&self.func.params[i].ty, syn::Type::Reference(r) if r.mutability.is_some())
                    }
                    _ => false,
                };
                Some(Chain::Slice(
                    e,
                    if mutable { Access::RefMut } else { Access::Ref },
                ))
            }
            _ => None,
        }
    }

    /// `for pat in chain { body }` as a counted loop, if `f.expr` is a chain over a slice.
    pub(crate) fn try_lower_for_chain(&mut self, f: &syn::ExprForLoop) -> Option<Option<Value>> {
        let chain = self.parse_chain(&f.expr)?;
        if !chain.has_slice() {
            return None;
        }
        let span = f.span();
        Some(self.lower_for_chain(f, chain, span))
    }

    fn lower_for_chain(
        &mut self,
        f: &syn::ExprForLoop,
        chain: Chain<'_>,
        span: Span,
    ) -> Option<Value> {
        let (seq, len) = self.prepare(chain, span)?;
        let zero = self.push(
            InstKind::Lit(syn::parse_quote_spanned!(span=> 0usize)),
            TypeHint::Int,
            span,
        );
        let range = self.push(
            InstKind::Range {
                start: Some(zero),
                end: Some(len),
                closed: false,
            },
            TypeHint::Range,
            span,
        );
        let label = f.label.as_ref().map(|l| l.name.ident.to_string());
        let assigned = super::control::assigned_names(&f.body);
        let pat = &*f.pat;
        self.lower_for_over(label, range, assigned, span, |lw, k| {
            let k = k?;
            let shape = lw.elem(&seq, k, false, span);
            lw.bind_shape(pat, shape, span);
            lw.lower_block(&f.body)
        })
    }

    /// Evaluates a chain's sources and arguments (once, in order) and its length.
    fn prepare(&mut self, chain: Chain<'_>, span: Span) -> Option<(Seq, Value)> {
        let int = |lw: &mut Self, kind| lw.push(kind, TypeHint::Int, span);
        let method = |recv: Value, name: &str, args: Vec<Value>| InstKind::MethodCall {
            receiver: recv,
            method: syn::Ident::new(name, span),
            turbofish: None,
            args,
        };
        Some(match chain {
            Chain::Slice(e, access) => {
                let base = self.lower_expr(e)?;
                let len = int(self, method(base, "len", vec![]));
                (Seq::Slice(base, access), len)
            }
            Chain::Range(start, end) => {
                let s = self.lower_expr(start)?;
                let e = self.lower_expr(end)?;
                let len = int(self, method(e, "saturating_sub", vec![s]));
                (Seq::Range(s), len)
            }
            Chain::Enumerate(c) => {
                let (s, len) = self.prepare(*c, span)?;
                (Seq::Enumerate(Box::new(s)), len)
            }
            Chain::Zip(a, b) => {
                let (sa, la) = self.prepare(*a, span)?;
                let (sb, lb) = self.prepare(*b, span)?;
                let len = int(self, method(la, "min", vec![lb]));
                (Seq::Zip(Box::new(sa), Box::new(sb)), len)
            }
            Chain::Rev(c) => {
                let (s, len) = self.prepare(*c, span)?;
                (Seq::Rev(Box::new(s), len), len)
            }
            Chain::Skip(c, n) => {
                let (s, len) = self.prepare(*c, span)?;
                let n = self.lower_expr(n)?;
                let len = int(self, method(len, "saturating_sub", vec![n]));
                (Seq::Skip(Box::new(s), n), len)
            }
            Chain::Take(c, n) => {
                let (s, len) = self.prepare(*c, span)?;
                let n = self.lower_expr(n)?;
                let len = int(self, method(len, "min", vec![n]));
                (Seq::Take(Box::new(s)), len)
            }
            Chain::StepBy(c, st) => {
                let (s, len) = self.prepare(*c, span)?;
                let st = self.lower_expr(st)?;
                // ceil(len / st); a zero step panics here as `step_by(0)` does.
                let one = int(
                    self,
                    InstKind::Lit(syn::parse_quote_spanned!(span=> 1usize)),
                );
                let a = self.binary(BinOp::Add, len, st, span);
                let b = self.binary(BinOp::Sub, a, one, span);
                let len = self.binary(BinOp::Div, b, st, span);
                (Seq::StepBy(Box::new(s), st), len)
            }
            Chain::Copied(c) => {
                let (s, len) = self.prepare(*c, span)?;
                (Seq::Copied(Box::new(s)), len)
            }
        })
    }

    /// The element at counter `k` (inside the loop body).
    fn elem(&mut self, seq: &Seq, k: Value, by_value: bool, span: Span) -> Shape {
        match seq {
            Seq::Slice(base, access) => {
                let elem_ty = self.func.values[*base].ty.element();
                if by_value {
                    Shape::Val(self.push(
                        InstKind::Index {
                            base: *base,
                            index: k,
                        },
                        elem_ty,
                        span,
                    ))
                } else {
                    let mutable = *access == Access::RefMut;
                    let ty = TypeHint::Ref(Box::new(elem_ty));
                    Shape::Val(self.push(
                        InstKind::ElemRef {
                            base: *base,
                            index: k,
                            mutable,
                        },
                        ty,
                        span,
                    ))
                }
            }
            Seq::Range(start) => Shape::Val(self.binary(BinOp::Add, *start, k, span)),
            Seq::Enumerate(s) => {
                let inner = self.elem(s, k, by_value, span);
                Shape::Tuple(vec![Shape::Val(k), inner])
            }
            Seq::Zip(a, b) => {
                let ea = self.elem(a, k, by_value, span);
                let eb = self.elem(b, k, by_value, span);
                Shape::Tuple(vec![ea, eb])
            }
            Seq::Rev(s, len) => {
                let one = self.push(
                    InstKind::Lit(syn::parse_quote_spanned!(span=> 1usize)),
                    TypeHint::Int,
                    span,
                );
                let last = self.binary(BinOp::Sub, *len, one, span);
                let j = self.binary(BinOp::Sub, last, k, span);
                self.elem(s, j, by_value, span)
            }
            Seq::Skip(s, n) => {
                let j = self.binary(BinOp::Add, k, *n, span);
                self.elem(s, j, by_value, span)
            }
            Seq::Take(s) => self.elem(s, k, by_value, span),
            Seq::StepBy(s, st) => {
                let j = self.binary(BinOp::Mul, k, *st, span);
                self.elem(s, j, by_value, span)
            }
            Seq::Copied(s) => self.elem(s, k, true, span),
        }
    }

    /// Binds `pat` to an element, destructuring tuples without building them.
    fn bind_shape(&mut self, pat: &syn::Pat, shape: Shape, span: Span) {
        match (pat, shape) {
            (syn::Pat::Tuple(pt), Shape::Tuple(parts)) if pt.elems.len() == parts.len() => {
                for (p, s) in pt.elems.iter().zip(parts) {
                    self.bind_shape(p, s, span);
                }
            }
            (syn::Pat::Paren(p), shape) => self.bind_shape(&p.pat, shape, span),
            (pat, shape) => {
                let v = self.build_shape(shape, span);
                self.bind_pattern(pat, v, None);
            }
        }
    }

    fn build_shape(&mut self, shape: Shape, span: Span) -> Value {
        match shape {
            Shape::Val(v) => v,
            Shape::Tuple(parts) => {
                let vs: Vec<Value> = parts
                    .into_iter()
                    .map(|s| self.build_shape(s, span))
                    .collect();
                let ty =
                    TypeHint::Tuple(vs.iter().map(|v| self.func.values[*v].ty.clone()).collect());
                self.push(InstKind::Tuple(vs), ty, span)
            }
        }
    }
}
