//! Expressions. Each `lower_*` returns the expression's value, or `None` when control
//! cannot continue past it (`return`, `break`, `continue`, or a diverging `if`).

use super::Lowerer;
use crate::ir::{BinOp, InstKind, Terminator, UnOp, Value};
use crate::types::TypeHint;
use proc_macro2::Span;
use syn::spanned::Spanned;

/// Methods whose result never carries a tangent, whatever the receiver.
const INACTIVE_METHODS: &[(&str, TypeHint)] = &[
    ("len", TypeHint::Int),
    ("is_empty", TypeHint::Bool),
    ("is_nan", TypeHint::Bool),
    ("is_finite", TypeHint::Bool),
    ("is_infinite", TypeHint::Bool),
    ("is_normal", TypeHint::Bool),
    ("is_sign_positive", TypeHint::Bool),
    ("is_sign_negative", TypeHint::Bool),
    ("partial_cmp", TypeHint::NonDiff),
    ("total_cmp", TypeHint::NonDiff),
];

impl Lowerer<'_> {
    pub(crate) fn lower_expr(&mut self, e: &syn::Expr) -> Option<Value> {
        let span = e.span();
        match e {
            syn::Expr::Lit(l) => {
                Some(self.push(InstKind::Lit(l.lit.clone()), TypeHint::of_lit(&l.lit), span))
            }
            syn::Expr::Path(p) => Some(self.lower_path(p)),
            syn::Expr::Paren(p) => self.lower_expr(&p.expr),
            syn::Expr::Group(g) => self.lower_expr(&g.expr),
            syn::Expr::Binary(b) => self.lower_binary(b),
            syn::Expr::Unary(u) => {
                let arg = self.lower_expr(&u.expr)?;
                let (op, ty) = match u.op {
                    syn::UnOp::Neg(_) => (UnOp::Neg, self.func.values[arg].ty.clone()),
                    syn::UnOp::Not(_) => (UnOp::Not, self.func.values[arg].ty.clone()),
                    syn::UnOp::Deref(_) => (UnOp::Deref, self.func.values[arg].ty.deref()),
                    _ => {
                        self.diag.error(
                            span,
                            "`#[derive_frule]` does not support this unary operator",
                        );
                        return Some(self.poison(span));
                    }
                };
                Some(self.push(InstKind::Unary { op, arg }, ty, span))
            }
            syn::Expr::Reference(r) => self.lower_reference(r),
            syn::Expr::Cast(c) => {
                let arg = self.lower_expr(&c.expr)?;
                Some(self.push(
                    InstKind::Cast {
                        arg,
                        ty: (*c.ty).clone(),
                    },
                    TypeHint::from_type(&c.ty),
                    span,
                ))
            }
            syn::Expr::Tuple(t) => {
                let vs = self.lower_exprs(t.elems.iter())?;
                let ty = if vs.is_empty() {
                    TypeHint::NonDiff
                } else {
                    TypeHint::Tuple(vs.iter().map(|v| self.func.values[*v].ty.clone()).collect())
                };
                Some(self.push(InstKind::Tuple(vs), ty, span))
            }
            syn::Expr::Array(a) => {
                let vs = self.lower_exprs(a.elems.iter())?;
                let elem = vs
                    .first()
                    .map(|v| self.func.values[*v].ty.clone())
                    .unwrap_or(TypeHint::Unknown);
                Some(self.push(InstKind::Array(vs), TypeHint::Seq(Box::new(elem)), span))
            }
            syn::Expr::Repeat(r) => {
                let elem = self.lower_expr(&r.expr)?;
                let ty = TypeHint::Seq(Box::new(self.func.values[elem].ty.clone()));
                Some(self.push(
                    InstKind::Repeat {
                        elem,
                        len: (*r.len).clone(),
                    },
                    ty,
                    span,
                ))
            }
            syn::Expr::Field(f) => {
                let base = self.lower_expr(&f.base)?;
                let ty = self.func.values[base].ty.field(&f.member);
                Some(self.push(
                    InstKind::Field {
                        base,
                        member: f.member.clone(),
                    },
                    ty,
                    span,
                ))
            }
            syn::Expr::Index(ix) => {
                if matches!(&*ix.index, syn::Expr::Range(_)) {
                    self.diag.error(span, "`#[derive_frule]` supports sub-slices only behind a reference: write `&x[a..b]`");
                    return Some(self.poison(span));
                }
                let base = self.lower_expr(&ix.expr)?;
                let index = self.lower_expr(&ix.index)?;
                let ty = self.func.values[base].ty.element();
                Some(self.push(InstKind::Index { base, index }, ty, span))
            }
            syn::Expr::Range(r) => {
                let start = match &r.start {
                    Some(s) => Some(self.lower_expr(s)?),
                    None => None,
                };
                let end = match &r.end {
                    Some(s) => Some(self.lower_expr(s)?),
                    None => None,
                };
                let closed = matches!(r.limits, syn::RangeLimits::Closed(_));
                Some(self.push(
                    InstKind::Range { start, end, closed },
                    TypeHint::Range,
                    span,
                ))
            }
            syn::Expr::MethodCall(m) => {
                let receiver = self.lower_expr(&m.receiver)?;
                let args = self.lower_exprs(m.args.iter())?;
                let name = m.method.to_string();
                let ty = match INACTIVE_METHODS.iter().find(|(n, _)| *n == name) {
                    Some((_, t)) => t.clone(),
                    None if crate::rules::float_method(&name).is_some() => TypeHint::Float,
                    None => TypeHint::Unknown,
                };
                let kind = InstKind::MethodCall {
                    receiver,
                    method: m.method.clone(),
                    turbofish: m.turbofish.clone(),
                    args,
                };
                Some(self.push(kind, ty, span))
            }
            syn::Expr::Call(c) => self.lower_call(c),
            syn::Expr::Block(b) => {
                if let Some(label) = &b.label {
                    self.diag.error(
                        label.span(),
                        "`#[derive_frule]` does not support labelled blocks",
                    );
                }
                self.lower_block(&b.block)
            }
            syn::Expr::If(i) => self.lower_if(i),
            syn::Expr::Return(r) => {
                let v = match &r.expr {
                    Some(e) => self.lower_expr(e)?,
                    None => self.unit(span),
                };
                self.terminate(Terminator::Return(v));
                None
            }
            syn::Expr::Assign(a) => self.lower_assign(&a.left, None, &a.right, span),
            syn::Expr::Macro(m) => self.lower_macro(&m.mac, span),
            syn::Expr::While(w) => self.lower_while(w),
            syn::Expr::Loop(l) => self.lower_loop(l),
            syn::Expr::ForLoop(f) => self.lower_for(f),
            syn::Expr::Break(b) => self.lower_break(b),
            syn::Expr::Continue(c) => self.lower_continue(c),
            other => {
                let what = unsupported_name(other);
                self.diag
                    .error(span, format!("`#[derive_frule]` does not support {what}"));
                Some(self.poison(span))
            }
        }
    }

    /// Lowers expressions left to right.
    pub(crate) fn lower_exprs<'e>(
        &mut self,
        es: impl Iterator<Item = &'e syn::Expr>,
    ) -> Option<Vec<Value>> {
        let mut out = Vec::new();
        for e in es {
            out.push(self.lower_expr(e)?);
        }
        Some(out)
    }

    fn lower_path(&mut self, p: &syn::ExprPath) -> Value {
        if p.qself.is_none() && p.path.segments.len() == 1 && p.path.leading_colon.is_none() {
            let seg = &p.path.segments[0];
            if let (Some(v), syn::PathArguments::None) =
                (self.lookup(&seg.ident.to_string()), &seg.arguments)
            {
                return v;
            }
        }
        if p.qself.is_some() {
            self.diag.error(p.span(), "`#[derive_frule]` does not support qualified paths (`<T as Trait>::X`) here; bind the value to a `const` first");
            return self.poison(p.span());
        }
        self.push(InstKind::Const(p.path.clone()), TypeHint::Unknown, p.span())
    }

    fn lower_binary(&mut self, b: &syn::ExprBinary) -> Option<Value> {
        let span = b.span();
        let op = match b.op {
            syn::BinOp::Add(_) => BinOp::Add,
            syn::BinOp::Sub(_) => BinOp::Sub,
            syn::BinOp::Mul(_) => BinOp::Mul,
            syn::BinOp::Div(_) => BinOp::Div,
            syn::BinOp::Rem(_) => BinOp::Rem,
            syn::BinOp::BitAnd(_) => BinOp::BitAnd,
            syn::BinOp::BitOr(_) => BinOp::BitOr,
            syn::BinOp::BitXor(_) => BinOp::BitXor,
            syn::BinOp::Shl(_) => BinOp::Shl,
            syn::BinOp::Shr(_) => BinOp::Shr,
            syn::BinOp::Eq(_) => BinOp::Eq,
            syn::BinOp::Ne(_) => BinOp::Ne,
            syn::BinOp::Lt(_) => BinOp::Lt,
            syn::BinOp::Le(_) => BinOp::Le,
            syn::BinOp::Gt(_) => BinOp::Gt,
            syn::BinOp::Ge(_) => BinOp::Ge,
            syn::BinOp::And(_) | syn::BinOp::Or(_) => return self.lower_short_circuit(b),
            syn::BinOp::AddAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::Add), &b.right, span)
            }
            syn::BinOp::SubAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::Sub), &b.right, span)
            }
            syn::BinOp::MulAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::Mul), &b.right, span)
            }
            syn::BinOp::DivAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::Div), &b.right, span)
            }
            syn::BinOp::RemAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::Rem), &b.right, span)
            }
            syn::BinOp::BitAndAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::BitAnd), &b.right, span)
            }
            syn::BinOp::BitOrAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::BitOr), &b.right, span)
            }
            syn::BinOp::BitXorAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::BitXor), &b.right, span)
            }
            syn::BinOp::ShlAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::Shl), &b.right, span)
            }
            syn::BinOp::ShrAssign(_) => {
                return self.lower_assign(&b.left, Some(BinOp::Shr), &b.right, span)
            }
            _ => {
                self.diag.error(
                    span,
                    "`#[derive_frule]` does not support this binary operator",
                );
                return Some(self.poison(span));
            }
        };
        let lhs = self.lower_expr(&b.left)?;
        let rhs = self.lower_expr(&b.right)?;
        Some(self.binary(op, lhs, rhs, span))
    }

    pub(crate) fn binary(&mut self, op: BinOp, lhs: Value, rhs: Value, span: Span) -> Value {
        let (lt, rt) = (&self.func.values[lhs].ty, &self.func.values[rhs].ty);
        let ty = if op.is_comparison() {
            TypeHint::Bool
        } else if *lt == TypeHint::Float || *rt == TypeHint::Float {
            TypeHint::Float
        } else if *lt == TypeHint::Int && *rt == TypeHint::Int {
            TypeHint::Int
        } else if *lt == TypeHint::Bool && *rt == TypeHint::Bool {
            TypeHint::Bool
        } else {
            TypeHint::Unknown
        };
        self.push(InstKind::Binary { op, lhs, rhs }, ty, span)
    }

    /// `a && b` is `if a { b } else { false }`; `a || b` is `if a { true } else { b }`.
    fn lower_short_circuit(&mut self, b: &syn::ExprBinary) -> Option<Value> {
        let span = b.span();
        let is_and = matches!(b.op, syn::BinOp::And(_));
        let cond = self.lower_expr(&b.left)?;
        let lit: syn::Lit = syn::LitBool::new(!is_and, span).into();
        let rhs = &*b.right;
        let join = self.lower_branches(
            cond,
            span,
            |lw| {
                if is_and {
                    lw.lower_expr(rhs)
                } else {
                    Some(lw.push(InstKind::Lit(lit.clone()), TypeHint::Bool, span))
                }
            },
            |lw| {
                if is_and {
                    Some(lw.push(InstKind::Lit(lit.clone()), TypeHint::Bool, span))
                } else {
                    lw.lower_expr(rhs)
                }
            },
        );
        self.join_value(join, TypeHint::Bool)
    }

    fn lower_if(&mut self, i: &syn::ExprIf) -> Option<Value> {
        let span = i.span();
        if let syn::Expr::Let(l) = &*i.cond {
            return self.lower_if_let(i, l);
        }
        let cond = self.lower_expr(&i.cond)?;
        let join = self.lower_branches(
            cond,
            span,
            |lw| lw.lower_block(&i.then_branch),
            |lw| match &i.else_branch {
                Some((_, e)) => lw.lower_expr(e),
                None => Some(lw.unit(span)),
            },
        );
        let ty = match (&join.then_ty, &join.else_ty) {
            (t, e) if t == e => t.clone(),
            (TypeHint::Unknown, e) => e.clone(),
            (t, _) => t.clone(),
        };
        self.join_value(join, ty)
    }

    fn lower_if_let(&mut self, i: &syn::ExprIf, l: &syn::ExprLet) -> Option<Value> {
        self.diag.error(
            l.span(),
            "`#[derive_frule]` does not support `if let` yet; use `match` or test with `is_some()`",
        );
        let _ = i;
        Some(self.poison(l.span()))
    }

    /// The value of a lowered `if` (`None` if both branches diverged), typed `ty`.
    fn join_value(&mut self, join: Join, ty: TypeHint) -> Option<Value> {
        let v = join.value?;
        self.func.values[v].ty = ty;
        Some(v)
    }

    /// Lowers `if cond { then } else { else_ }` with the SSA merge of every outer local
    /// that either branch assigns.
    pub(crate) fn lower_branches(
        &mut self,
        cond: Value,
        span: Span,
        then_f: impl FnOnce(&mut Self) -> Option<Value>,
        else_f: impl FnOnce(&mut Self) -> Option<Value>,
    ) -> Join {
        let before = self.snapshot();
        let scopes = self.scopes_len();
        let parent = self.cur;

        let then_r = self.new_region(vec![]);
        self.cur = Some(then_r);
        let then_v = then_f(self);
        self.truncate_scopes(scopes);
        let then_end = self.cur.map(|_| (then_v, self.snapshot()));
        for (name, depth, v) in &before {
            self.set_at(name, *depth, *v);
        }

        let else_r = self.new_region(vec![]);
        self.cur = Some(else_r);
        let else_v = else_f(self);
        self.truncate_scopes(scopes);
        let else_end = self.cur.map(|_| (else_v, self.snapshot()));
        for (name, depth, v) in &before {
            self.set_at(name, *depth, *v);
        }

        // Outer locals changed by a branch that reaches the join.
        let changed: Vec<usize> = (0..before.len())
            .filter(|&k| {
                [&then_end, &else_end]
                    .iter()
                    .any(|end| matches!(end, Some((_, env)) if env[k].2 != before[k].2))
            })
            .collect();
        let hint = |lw: &Self, v: Option<Value>| {
            v.map(|v| lw.func.values[v].ty.clone())
                .unwrap_or(TypeHint::Unknown)
        };
        let (tt, et) = (hint(self, then_v), hint(self, else_v));
        for (region, end) in [(then_r, &then_end), (else_r, &else_end)] {
            if let Some((v, env)) = end {
                let mut ys = vec![v.unwrap_or(cond)];
                ys.extend(changed.iter().map(|&k| env[k].2));
                self.func.regions[region].term = Terminator::Yield(ys);
            }
        }

        self.cur = parent;
        let n = if then_end.is_none() && else_end.is_none() {
            0
        } else {
            1 + changed.len()
        };
        let inst = self.push_inst(
            InstKind::If {
                cond,
                then_region: then_r,
                else_region: else_r,
            },
            n,
            span,
        );
        let results = self.func.insts[inst].results.clone();
        if n == 0 {
            // Neither branch reaches the join: what follows is dead.
            self.cur = None;
            return Join {
                value: None,
                then_ty: tt,
                else_ty: et,
            };
        }
        {
            for (j, &k) in changed.iter().enumerate() {
                let (name, depth, _) = &before[k];
                let r = results[1 + j];
                self.func.values[r].ty = self.func.values[before[k].2].ty.clone();
                self.func.values[r].name = self.func.values[before[k].2].name.clone();
                self.set_at(name, *depth, r);
            }
        }
        Join {
            value: Some(results[0]),
            then_ty: tt,
            else_ty: et,
        }
    }
}

/// The outcome of lowering two branches.
pub(crate) struct Join {
    /// The `If`'s value, or `None` if neither branch reaches the join.
    pub(crate) value: Option<Value>,
    then_ty: TypeHint,
    else_ty: TypeHint,
}

/// What to call an unsupported expression in an error message.
fn unsupported_name(e: &syn::Expr) -> &'static str {
    match e {
        syn::Expr::Closure(_) => {
            "closures yet; write the closure's body as a `#[derive_frule]` function and call it"
        }
        syn::Expr::Async(_) => "`async` blocks: differentiate the synchronous computation instead",
        syn::Expr::Await(_) => "`.await`: differentiate the synchronous computation instead",
        syn::Expr::Unsafe(_) => {
            "`unsafe` blocks: move the unsafe code into a function with a `#[primitive]` rule"
        }
        syn::Expr::Match(_) => "`match` yet; use `if`/`else`",
        syn::Expr::Try(_) => "the `?` operator yet",
        syn::Expr::Struct(_) => "struct literals yet",
        syn::Expr::Let(_) => "`let` expressions outside `if let`",
        syn::Expr::Yield(_) => "`yield`",
        syn::Expr::TryBlock(_) => "`try` blocks",
        syn::Expr::Const(_) => "`const` blocks; bind the value to a `const` item",
        syn::Expr::Infer(_) => "`_` as an expression",
        _ => "this expression",
    }
}
