//! Emission of linearised chains (see [`crate::linear`]): each value of a chain becomes its
//! primal `vN_p` and one scalar coefficient per root, `∂vN/∂r`; a materialised value also
//! gets its dual, `Dual(vN_p, Σ cᵣ·ṙ)`.
//!
//! ```text
//! v14 = mul v12, v12        let v14_p = p(&v12) * p(&v12);
//!                           let (__d14_0, __d14_1) = d2(ops::mul {}, p(&v12), p(&v12), v14_p);
//!                           let __k14_12 = __d14_0 + __d14_1;
//! v15 = sub v11, v14        let v15_p = p(&v11) - v14_p;       // ∂v15/∂v11 = 1
//!                           let __k15_12 = -__k14_12;
//! ```

use super::Emitter;
use crate::dual::Form;
use crate::ir::{Inst, InstKind, Region, UnOp, Value, ValueDef};
use crate::linear::{lin_operands, Hoist, LinOp, Linear};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

/// A coefficient `∂v/∂r`, with units kept symbolic so sums of roots cost no multiplies.
#[derive(Clone)]
pub(super) enum Coef {
    One,
    MinusOne,
    /// A bound scalar (an identifier).
    Expr(TokenStream),
    /// A bound scalar times a power of two, `2ᵏ·e` (`k ≠ 0`; one direction): the factor of
    /// a square's partial (`∂(x·x)/∂x = 2x`), and the factor a deferred root's tangent
    /// lacks (`Linear::deferrable`), kept symbolic, so that a sum of squares' terms
    /// multiplies its combination by 2 once (`ṅ = 2·Σ dᵢ·ḋᵢ`) instead of each coefficient,
    /// or not at all where every reader takes the factor into its own coefficient.
    Scaled(TokenStream, i32),
}

impl Coef {
    /// `2ᵏ·e`: an expression, or scaled.
    fn scaled(e: TokenStream, k: i32) -> Coef {
        match k {
            0 => Coef::Expr(e),
            k => Coef::Scaled(e, k),
        }
    }

    /// The power of two kept symbolic (0 for a plain coefficient).
    fn exp(&self) -> i32 {
        match self {
            Coef::Scaled(_, k) => *k,
            _ => 0,
        }
    }

    /// The coefficient times `2ᵏ`, `y` naming a float of its type (for a unit).
    fn times_pow2(&self, k: i32, rt: &TokenStream, y: &syn::Ident) -> Coef {
        match (self, k) {
            (c, 0) => c.clone(),
            (Coef::One, k) => Coef::Scaled(quote!(#rt::lin::one(#y)), k),
            (Coef::MinusOne, k) => Coef::Scaled(quote!((-#rt::lin::one(#y))), k),
            (Coef::Expr(e), k) => Coef::Scaled(e.clone(), k),
            (Coef::Scaled(e, j), k) => Coef::scaled(e.clone(), j + k),
        }
    }

    /// The coefficient with any power of two applied (`(e + e)` for 2, exact).
    fn plain(&self, rt: &TokenStream) -> Coef {
        match self {
            Coef::Scaled(e, 1) => Coef::Expr(quote!((#e + #e))),
            Coef::Scaled(e, k) => Coef::Expr(quote!(#rt::lin::pow2(#e, #k))),
            c => c.clone(),
        }
    }

    /// The coefficient's value, `y` naming a float of its type (for a unit).
    fn tokens(&self, rt: &TokenStream, y: &TokenStream) -> TokenStream {
        match self.plain(rt) {
            Coef::One => quote!(#rt::lin::one(#y)),
            Coef::MinusOne => quote!(-#rt::lin::one(#y)),
            Coef::Expr(e) | Coef::Scaled(e, _) => e,
        }
    }
}

/// How large a coefficient (or a partial) may be, for the overflow guard: a coefficient is
/// a product of partials formed before it meets the tangent, and may overflow where the
/// tangent multiplied factor by factor would not (`s·s·ṙ` with `s = 2^1021` and a tiny
/// `ṙ`: libm's `expo2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Size {
    /// At most 1 in magnitude (a unit, `cos`, `tanh'`): multiplying by it cannot overflow.
    Small,
    /// Any finite float.
    Big,
    /// Formed by multiplying two `Big` factors: may have overflowed.
    Risky,
}

impl Size {
    /// The size of a product.
    fn times(self, other: Size) -> Size {
        if self == Size::Big && other == Size::Big {
            Size::Risky
        } else {
            self.max(other)
        }
    }

    /// The size of a sum (two small terms may exceed 1).
    fn sum(sizes: impl IntoIterator<Item = Size>) -> Size {
        let (mut n, mut m) = (0, Size::Small);
        for s in sizes {
            n += 1;
            m = m.max(s);
        }
        if n > 1 && m == Size::Small {
            Size::Big
        } else {
            m
        }
    }
}

impl Emitter<'_> {
    /// The primal name of linearised value `v`.
    pub(super) fn lin_primal_name(&self, v: Value) -> syn::Ident {
        let name = self.name(v);
        format_ident!("{}_p", name, span = name.span())
    }

    /// Operand `o` of a linearised instruction, as a plain float.
    fn lin_primal(&self, o: Value, lin: &Linear) -> TokenStream {
        let rt = self.rt;
        let name = self.name(o);
        if !self.is(o) {
            // A literal stays as written so it takes the chain's float type; so does an
            // `if`/`match` between literals (`if tripn { 8.0 } else { 1.0 } * tol`), which
            // `lin::val` would leave an untyped `{float}`.
            let lit = matches!(self.func.values[o].def,
                ValueDef::Inst(i, 0) if matches!(self.func.insts[i].kind, InstKind::Lit(_)));
            return if lit || self.func.is_number_literal(o) {
                quote!(#name)
            } else {
                quote!(#rt::lin::val(#name))
            };
        }
        if lin.roots.contains_key(&o) {
            let p = self.lin_primal_name(o);
            return quote!(#p);
        }
        // A field read (`g.n`), whose type the macro does not see: a float, or an error
        // at the field naming its type (`g.n * g.m` of two `usize` fields).
        // Only on a parameter of a type without generic arguments (`g: &Grid`): a field of
        // `V2<T>` is a `T`, a float the check could not name.
        if let ValueDef::Inst(i, 0) = self.func.values[o].def {
            if let InstKind::Field { base, .. } = self.func.insts[i].kind {
                if self.is_concrete_param(base) {
                    let span = self.func.insts[i].span;
                    return quote_spanned!(span=> #rt::lin::p(#rt::user_ops::float_field(&#name)));
                }
            }
        }
        // Spanned at the value's definition: when it is no float after all (a struct a
        // function returned, bound without its type), rustc's error points at that call.
        match self.func.values[o].def {
            ValueDef::Inst(i, _) => {
                let span = self.func.insts[i].span;
                quote_spanned!(span=> #rt::lin::p(&#name))
            }
            _ => quote!(#rt::lin::p(&#name)),
        }
    }

    /// Whether `v` is a parameter whose type names no generic arguments (`&Grid`, not
    /// `&V2<T>`).
    fn is_concrete_param(&self, v: Value) -> bool {
        let ValueDef::Param(i) = self.func.values[v].def else {
            return false;
        };
        let mut ty = &self.func.params[i].ty;
        while let syn::Type::Reference(r) = ty {
            ty = &r.elem;
        }
        match ty {
            syn::Type::Path(p) => {
                p.qself.is_none()
                    && p.path
                        .segments
                        .iter()
                        .all(|s| matches!(s.arguments, syn::PathArguments::None))
            }
            _ => false,
        }
    }

    /// Whether root `r` is an owned dual (not a `Dual<&F, &T>` borrowing its owner), so
    /// that its tangent can be read where the chain's tangent is assembled.
    fn root_is_owned(&self, r: Value, lin: &Linear) -> bool {
        if lin.roots.contains_key(&r) {
            return true; // a materialised chain value
        }
        match self.func.values[r].def {
            ValueDef::Param(i) => !matches!(self.func.params[i].ty, syn::Type::Reference(_)),
            ValueDef::Inst(i, _) => match &self.func.insts[i].kind {
                InstKind::Index { .. } | InstKind::Binary { .. } | InstKind::Cast { .. } => true,
                InstKind::Unary { op, .. } => *op == UnOp::Neg,
                InstKind::MethodCall { .. } | InstKind::Call { .. } => {
                    matches!(self.plans.get(i).form, Form::Op(_))
                }
                _ => false,
            },
            // Carried loop values are owned; a `for` element may borrow.
            ValueDef::RegionParam(region, k) => {
                lin.owner_of
                    .get(&region)
                    .is_some_and(|o| match self.func.insts[*o].kind {
                        InstKind::Loop { .. } => true,
                        InstKind::For { .. } => k > 0,
                        _ => false,
                    })
            }
        }
    }

    /// The tokens that read root `r`'s tangent in `region`: the root itself, or (for a
    /// root that may borrow) an owned copy made at its first use, emitted into `out`.
    fn root_ref(
        &mut self,
        r: Value,
        region: Option<Region>,
        lin: &Linear,
        out: &mut TokenStream,
    ) -> TokenStream {
        let name = self.name(r);
        if self.root_is_owned(r, lin) {
            return quote!(#name);
        }
        let Some(region) = region else {
            return quote!(#name);
        };
        // A root a `&mut` borrow may change (`swap(&mut s, ..)`, a `&mut f64` helper): a
        // snapshot of it is good only until the write, so each use takes its own.
        let fresh = lin.mutated.contains(&r);
        if let Some(own) = self.owned_roots.get(&(r, region)).filter(|_| !fresh) {
            return quote!(#own);
        }
        let base = format!(
            "__own{}_{}",
            crate::ir::entity::EntityRef::index(r),
            crate::ir::entity::EntityRef::index(region)
        );
        let own = if fresh {
            self.temp(&format!("{base}_"))
        } else {
            format_ident!("{}", base, span = Span::mixed_site())
        };
        let rt = self.rt;
        out.extend(quote!(let #own = #rt::lin::own(&#name);));
        if !fresh {
            self.owned_roots.insert((r, region), own.clone());
        }
        quote!(#own)
    }

    /// `inst`, linearised.
    pub(super) fn lin_inst(&mut self, inst: crate::ir::Inst, lin: &Linear) -> TokenStream {
        let rt = self.rt;
        let data = &self.func.insts[inst];
        let span = data.span;
        let v = data.results[0];
        let op = &lin.ops[&inst];
        let mut operands = lin.raw_operands(self.func, inst);
        if matches!(op, LinOp::Unary(_)) {
            // `sq` is `x * x`: one operand, one partial.
            operands.truncate(1);
        }
        let y = self.lin_primal_name(v);
        let index = crate::ir::entity::EntityRef::index(v);
        let partial = |k: usize| format_ident!("__d{}_{}", index, k, span = Span::mixed_site());
        let prims: Vec<TokenStream> = match op {
            // A phi's primal and partials are bound where its `if` yields them (`lin_if`).
            LinOp::Phi => Vec::new(),
            _ => operands.iter().map(|o| self.lin_primal(*o, lin)).collect(),
        };
        let primal = match (&data.kind, op) {
            (_, LinOp::Phi) => None,
            (InstKind::Binary { op: bop, .. }, LinOp::Unary(_)) => {
                let o = super::binop_tokens(*bop, span);
                let x = &prims[0];
                Some(quote_spanned!(span=> #x #o #x))
            }
            (InstKind::Binary { op: bop, .. }, _) => {
                let o = super::binop_tokens(*bop, span);
                let (a, b) = (&prims[0], &prims[1]);
                Some(quote_spanned!(span=> #a #o #b))
            }
            (InstKind::Unary { op: UnOp::Neg, .. }, _) => {
                let x = &prims[0];
                Some(quote_spanned!(span=> -#x))
            }
            // By the float trait in a generic function, whose `T` may also be bounded by
            // nalgebra's `RealField` (`exp` of both in scope).
            // Also on an operand whose type the syntax does not tell (`(v * v + 1.0).ln()`
            // with `v` a user method's result, the sum a `user_ops::binary` of an untyped
            // literal): a method call needs its receiver's type where it is written, before
            // rustc settles the literal's, a call by the trait does not (E0282 otherwise).
            (_, LinOp::Unary(m))
                if self.func.type_params
                    || self.func.values[operands[0]].ty != crate::types::TypeHint::Float =>
            {
                let x = &prims[0];
                let m = m.ident(span);
                Some(quote_spanned!(span=> #rt::NumFloat::#m(#x)))
            }
            (_, LinOp::Unary(m)) => {
                let x = &prims[0];
                let m = m.ident(span);
                Some(quote_spanned!(span=> #x.#m()))
            }
            _ => {
                let msg = "internal error in `#[derive_frule]`: no linearised emission";
                return quote_spanned!(span=> ::core::compile_error!(#msg););
            }
        };
        let mut out = match (primal, self.func.annotations.get(&v)) {
            (None, _) => TokenStream::new(),
            (Some(primal), Some(ty)) => quote_spanned!(span=> let #y: #ty = #primal;),
            (Some(primal), None) => quote_spanned!(span=> let #y = #primal;),
        };
        // One direction, a quotient of two roots: `(ȧ - y·ḃ)/b` (`lin::quotient`).
        if let Some((a, b)) = self.quotient_of_roots(inst, lin) {
            let (ra, rb) = (
                self.root_ref(a, lin.region_of.get(&inst).copied(), lin, &mut out),
                self.root_ref(b, lin.region_of.get(&inst).copied(), lin, &mut out),
            );
            let pb = &prims[1];
            let name = self.name(v);
            out.extend(quote_spanned!(span=>
                let mut #name = #rt::lin::dual(
                    #y,
                    #rt::lin::quotient(#rt::lin::t(&#ra), #rt::lin::t(&#rb), #y, #pb),
                );
            ));
            return out;
        }
        let partials: Vec<Coef> = match op {
            LinOp::Add => vec![Coef::One, Coef::One],
            LinOp::Sub => vec![Coef::One, Coef::MinusOne],
            LinOp::Neg => vec![Coef::MinusOne],
            LinOp::Binary(op) => {
                let rule = op.ident(span);
                let (d0, d1) = (partial(0), partial(1));
                let (a, b) = (&prims[0], &prims[1]);
                out.extend(quote_spanned!(span=>
                    let (#d0, #d1) = #rt::lin::d2(#rt::ops::#rule {}, #a, #b, #y);
                ));
                vec![Coef::Expr(quote!(#d0)), Coef::Expr(quote!(#d1))]
            }
            // One direction: `∂(x·x)/∂x = 2x` with its factor 2 symbolic.
            LinOp::Unary(crate::callee::FloatOp::Sq) if self.one_direction => {
                let x = &prims[0];
                vec![Coef::Scaled(quote!(#x), 1)]
            }
            LinOp::Unary(op) => {
                let rule = op.ident(span);
                let d0 = partial(0);
                let x = &prims[0];
                out.extend(
                    quote_spanned!(span=> let #d0 = #rt::lin::d1(#rt::ops::#rule {}, #x, #y);),
                );
                vec![Coef::Expr(quote!(#d0))]
            }
            LinOp::Phi => (0..operands.len())
                .map(|k| {
                    let d = partial(k);
                    Coef::Expr(quote!(#d))
                })
                .collect(),
        };
        let sizes: Vec<Size> = match op {
            LinOp::Add | LinOp::Sub | LinOp::Neg => vec![Size::Small; partials.len()],
            LinOp::Unary(op) if op.partial_within_one() => vec![Size::Small],
            LinOp::Binary(_) | LinOp::Unary(_) => vec![Size::Big; partials.len()],
            LinOp::Phi => (0..partials.len())
                .map(|k| self.phi_sizes.get(&(inst, k)).copied().unwrap_or(Size::Big))
                .collect(),
        };
        self.lin_partials_at.insert(
            inst,
            partials
                .iter()
                .cloned()
                .zip(sizes.iter().copied())
                .collect(),
        );
        let active = lin_operands(self.func, self.active, lin, inst);
        let region = lin.region_of.get(&inst).copied();
        // The arms of a linearised `if` assemble no tangent: no owned copies of roots.
        let in_arm = lin.in_arms.contains(&v);
        for o in active.iter().filter(|_| !in_arm) {
            if !lin.expands(self.func, inst, *o) {
                self.root_ref(lin.canonical(*o), region, lin, &mut out);
            }
        }
        let roots = lin.roots.get(&v).cloned().unwrap_or_default();
        if lin.backward.contains(&inst) {
            // Preaccumulation: no coefficients carried forward; a materialised value
            // sweeps its cone backwards for its own, and so does a value an arm of an `if`
            // yields (its coefficients are yielded).
            if lin.materialize.contains(&v) || lin.phi_inputs.contains(&v) {
                if let Err(e) = self.lin_sweep(inst, lin, &mut out) {
                    return e;
                }
            }
        }
        // One direction, `a·b` with `a = c·b` absorbed (`100·t·t`): `∂/∂b = 2a`, one addition
        // where the product rule's two terms cost two multiplies and an add.
        let scaled_square = self
            .one_direction
            .then(|| self.scaled_square(inst, lin))
            .flatten();
        let twice_a = scaled_square.map(|(k, _)| {
            let a = self.lin_primal_name(operands[k]);
            Coef::Scaled(quote!(#a), 1)
        });
        // A loop's accumulator read by its update (`e += u`): its coefficient, the power of
        // two its tangent lacks, is chosen after the others' (`Linear::accumulators`).
        let acc_param = self
            .deferring(lin, v)
            .then(|| lin.accumulators.iter().find(|(_, a)| **a == inst))
            .flatten()
            .map(|(p, _)| *p);
        for &r in roots.iter().filter(|_| !lin.backward.contains(&inst)) {
            if Some(r) == acc_param {
                continue;
            }
            let mut terms: Vec<Coef> = Vec::new();
            let mut term_sizes: Vec<Size> = Vec::new();
            // The fold holds for the roots the factor `c` does not reach (all, for an
            // inactive `c`); a root of `c` takes the product rule's terms.
            let fold = scaled_square.filter(|(_, c)| {
                c.is_none_or(|c| {
                    let a = operands[scaled_square.map_or(0, |(k, _)| k)];
                    let reaches = match lin.def(self.func, a) {
                        Some(d) if lin.expands(self.func, d, c) => self.coefs.contains_key(&(c, r)),
                        _ => lin.canonical(c) == r,
                    };
                    !reaches
                })
            });
            for (k, o) in operands.iter().enumerate() {
                if !active.contains(o) {
                    continue;
                }
                if let Some((ka, _)) = fold {
                    if k == ka {
                        continue; // its term is folded into the other operand's
                    }
                    let c = if lin.expands(self.func, inst, *o) {
                        self.coefs.get(&(*o, r)).cloned()
                    } else if lin.canonical(*o) == r {
                        Some(self.root_unit(r, &y))
                    } else {
                        None
                    };
                    if let Some(c) = c {
                        term_sizes.push(Size::Big.times(self.size_of(lin, inst, *o, r)));
                        terms.push(product(twice_a.as_ref().unwrap_or(&Coef::One), &c));
                    }
                    continue;
                }
                let c = if lin.expands(self.func, inst, *o) {
                    self.coefs.get(&(*o, r)).cloned()
                } else if lin.canonical(*o) == r {
                    Some(self.root_unit(r, &y))
                } else {
                    None
                };
                if let Some(c) = c {
                    term_sizes.push(sizes[k].times(self.size_of(lin, inst, *o, r)));
                    terms.push(if op.kinks() {
                        strong_product(rt, &partials[k], &c)
                    } else {
                        product(&partials[k], &c)
                    });
                }
            }
            let coef = match terms.as_slice() {
                [single @ (Coef::One | Coef::MinusOne)] => single.clone(),
                [single @ Coef::Scaled(e, _)] if is_one(e) => single.clone(),
                _ => {
                    let k = format_ident!(
                        "__k{}_{}",
                        index,
                        crate::ir::entity::EntityRef::index(r),
                        span = Span::mixed_site()
                    );
                    // Terms that all carry the same power of two keep it out.
                    let e = terms[0].exp();
                    if e != 0 && terms.iter().all(|t| t.exp() == e) {
                        let bases: Vec<Coef> =
                            terms.iter().map(|t| t.times_pow2(-e, rt, &y)).collect();
                        let sum = sum_terms(rt, &y, &bases);
                        out.extend(quote!(let #k = #sum;));
                        Coef::Scaled(quote!(#k), e)
                    } else {
                        let sum = sum_terms(rt, &y, &terms);
                        out.extend(quote!(let #k = #sum;));
                        Coef::Expr(quote!(#k))
                    }
                }
            };
            self.coefs.insert((v, r), coef);
            self.coef_size.insert((v, r), Size::sum(term_sizes));
        }
        if let Some(p) = acc_param {
            let others: Vec<i32> = roots
                .iter()
                .filter(|r| **r != p)
                .map(|r| self.coefs[&(v, *r)].exp())
                .collect();
            let k = common_pow2(&others);
            self.scales.insert(p, k);
            self.coefs.insert((v, p), Coef::One.times_pow2(k, rt, &y));
        }
        if let Some(plan) = self
            .jac
            .filter(|p| p.call.is_none() && lin.materialize.contains(&v))
        {
            // The Jacobian entry: each coefficient by its column, a root that is another
            // materialised value multiplied through; a returned value's go to the sink,
            // and every one's are kept for its readers. The tangent assembled below is
            // then never read, and the compiler drops it.
            let mut terms: Vec<(crate::chainjac::Col, TokenStream)> = Vec::new();
            for &r in &roots {
                let c = match &self.coefs[&(v, r)] {
                    Coef::One => quote!(#rt::lin::one(#y)),
                    Coef::MinusOne => quote!(-#rt::lin::one(#y)),
                    Coef::Expr(k) => k.clone(),
                    Coef::Scaled(..) => self.coefs[&(v, r)].tokens(rt, &quote!(#y)),
                };
                if let Some(inner) = self.jac_terms.get(&r).cloned() {
                    // As `ax_strong` keeps the zero lanes of `r`'s tangent zero.
                    let strong = lin.kinked.contains(&(v, r));
                    let start = terms.len();
                    if strong && inner.len() > 1 {
                        self.jac_kink_terms(&c, &y, &inner, &mut terms, &mut out);
                    } else {
                        for (col, c2) in inner {
                            let t = self.temp(&format!("__jt{index}_"));
                            out.extend(if strong {
                                quote!(let #t = #rt::lin::strong(#c, #c2);)
                            } else {
                                quote!(let #t = #c * #c2;)
                            });
                            terms.push((col, quote!(#t)));
                        }
                    }
                    // As `ax_select` drops the term where an arm not reading `r` zeroes `c`.
                    if lin.selected.contains(&(v, r)) {
                        for (_, t) in &mut terms[start..] {
                            *t = quote!(#rt::lin::select(#c, #t));
                        }
                    }
                } else if let Some(col) = plan.cols.get(&r) {
                    terms.push((col.clone(), c));
                } else {
                    let msg = "internal error in `#[derive_frule]`: a root without a column";
                    return quote_spanned!(span=> ::core::compile_error!(#msg););
                }
            }
            if let Some(rows) = plan.rows.get(&v) {
                let sink = super::jac_ident("out");
                for &row in rows {
                    out.extend(quote!(#rt::JacobianSink::value(#sink, #row, #y);));
                    for (col, c) in &terms {
                        let col = self.jac_column(col);
                        out.extend(quote! {
                            if let ::core::option::Option::Some(__c) = #col {
                                #rt::JacobianSink::add(#sink, #row, __c, #c);
                            }
                        });
                    }
                }
            }
            self.jac_terms.insert(v, terms);
        }
        if lin.materialize.contains(&v) {
            // Unit terms (an accumulator `s` in `s += ..`) after the other terms: a
            // loop-carried tangent then waits for one addition per iteration, not one per
            // term. Zero-tested terms come last, so that a skipped one leaves the sum as it
            // is (first, its zero would still be added).
            // A loop-invariant root of a loop's accumulator update (`Linear::hoists`): its
            // coefficient is summed as a scalar, applied once after the loop.
            let hoisted = self.hoisted_roots(v);
            for r in &hoisted {
                let h = hoist_ident(v, *r);
                let c = match &self.coefs[&(v, *r)] {
                    Coef::One => quote!(#rt::lin::one(#y)),
                    Coef::MinusOne => quote!(-#rt::lin::one(#y)),
                    Coef::Expr(k) => k.clone(),
                    c @ Coef::Scaled(..) => c.tokens(rt, &quote!(#y)),
                };
                out.extend(quote!(#h = #h + #c;));
            }
            let mut terms: Vec<(Value, Coef)> = roots
                .iter()
                .filter(|r| !hoisted.contains(r))
                .map(|r| (*r, self.coefs[&(v, *r)].clone()))
                .collect();
            // All carrying the same power of two: the combination of the rest, multiplied by
            // it once (`ṅ = 2·Σ dᵢ·ḋᵢ` for `n = Σ dᵢ²`); otherwise each applies its own
            // factor. A deferrable value whose readers take the factor into their
            // coefficients does not apply it: it holds its tangent divided by `2ᵏ`, the
            // power most of its terms carry (the others are divided by it), and the largest
            // of those in a tie (a term of a constant, `k` of `½k·s·s`, costs nothing).
            //
            // Deferring costs a multiply per term off that power, and one in the reader
            // where the factor meets no other (none in an accumulator's update, which
            // carries it through the loop); applying it costs one multiply if all terms
            // carry the same power, else one per term that carries one. A tie defers.
            let exps: Vec<i32> = terms.iter().map(|(_, c)| c.exp()).collect();
            let same = exps.iter().all(|e| *e == exps[0]);
            let common = common_pow2(&exps);
            let off = |k: i32| exps.iter().filter(|e| **e != k).count();
            let into_accumulator = lin
                .accumulators
                .values()
                .any(|a| self.func.operands(*a).contains(&v));
            let defer = self.deferring(lin, v)
                && (acc_param.is_some()
                    || common != 0
                        && off(common) + usize::from(!into_accumulator)
                            <= if same { 1 } else { off(0) });
            let factor = match acc_param {
                // Not set, and no terms, in an ill-typed body only (a float sum
                // turbofished to an integer, `tests::robustness`): no scale then, rather
                // than a panic.
                Some(p) => self.scales.get(&p).copied().unwrap_or(0),
                None if defer => common,
                None if same => exps.first().copied().unwrap_or(0),
                None => 0,
            };
            for (_, c) in terms.iter_mut() {
                *c = unit_or(c.times_pow2(-factor, rt, &y), rt, &y).plain(rt);
            }
            let doubled = if defer {
                self.scales.insert(v, factor);
                0
            } else {
                factor
            };
            terms.sort_by_key(|(r, c)| match c {
                Coef::One | Coef::MinusOne => 1,
                Coef::Expr(_) | Coef::Scaled(..) if lin.sparse.contains(r) => 2,
                Coef::Expr(_) | Coef::Scaled(..) => 0,
            });
            let rnames: Vec<_> = terms
                .iter()
                .map(|(r, _)| self.root_ref(*r, region, lin, &mut out))
                .collect();
            // Coefficients that may have overflowed (`Size::Risky`): tested, and where one
            // is not finite the tangent is swept factor by factor instead (`overflow_sweep`).
            let risky: std::collections::HashSet<Value> = terms
                .iter()
                .map(|(r, _)| *r)
                .filter(|r| self.coef_size.get(&(v, *r)) == Some(&Size::Risky))
                .collect();
            // Outside loops only: the test and its cold path in a loop body (Rosenbrock's
            // `s += 100·t·t + (1 − x[i])²`) cost its 10-input gradient 40-50 %, its carried
            // lanes spilled (BENCHMARKS.md §11, fifteenth session).
            let sweep = if risky.is_empty() || self.jac.is_some() || !self.loops.is_empty() {
                None
            } else {
                let after = if defer { -factor } else { 0 };
                self.overflow_sweep(inst, lin, region, after, &mut out)
            };
            let guarded = sweep.is_some();
            let ok = format_ident!("__ok{}", index, span = Span::mixed_site());
            // A zero-tested term's coefficient is computed only where the term is live: it
            // clears the flag `ok` there (`lin::ax_seen`) instead of being tested first.
            let seen = |r: &Value| guarded && risky.contains(r) && lin.sparse.contains(r);
            // `_sparse`: skip a zero tangent; `_strong`: keep zero lanes zero under an
            // infinite coefficient.
            let combination = |strong: bool| {
                let mut acc: Option<TokenStream> = None;
                for ((r, coef), rname) in terms.iter().zip(&rnames) {
                    // Terms take the root, not its tangent, so that a constant's
                    // (`ConstTangent`) drops out at compile time (`lin::Root::LIVE`).
                    let t = quote!(&#rname);
                    // A zero-tested term keeps its own strong product (its coefficient is
                    // then computed only in the taken branch, as for `ax_sparse`).
                    let sparse = lin.sparse.contains(r);
                    let unbounded = lin.unbounded.contains(&(v, *r));
                    let strong = unbounded && (strong || sparse);
                    let suffix = match (sparse, strong) {
                        (false, false) => "",
                        (true, false) => "_sparse",
                        (false, true) => "_strong",
                        (true, true) => "_sparse_strong",
                    };
                    let (ax, axpy) = (
                        format_ident!("ax{}", suffix),
                        format_ident!("axpy{}", suffix),
                    );
                    // A coefficient an arm of an `if` may zero: that zero drops the term.
                    let select = lin.selected.contains(&(v, *r));
                    let seen = seen(r);
                    let ax = |k: &TokenStream| match (select, seen) {
                        (true, false) => quote!(#rt::lin::ax_select(#k, #t, #rt::lin::#ax)),
                        (false, false) => quote!(#rt::lin::#ax(#k, #t)),
                        (true, true) => quote!(#rt::lin::ax_seen(&#ok, #k, #t,
                            |__c, __r| #rt::lin::ax_select(__c, __r, #rt::lin::#ax))),
                        (false, true) => quote!(#rt::lin::ax_seen(&#ok, #k, #t, #rt::lin::#ax)),
                    };
                    let axpy = |a: TokenStream, k: &TokenStream| match (select, seen) {
                        (true, false) => {
                            quote!(#rt::lin::axpy_select(#a, #k, #t, #rt::lin::#axpy))
                        }
                        (false, false) => quote!(#rt::lin::#axpy(#a, #k, #t)),
                        (true, true) => quote!(#rt::lin::axpy_seen(&#ok, #a, #k, #t,
                            |__a, __c, __r| #rt::lin::axpy_select(__a, __c, __r, #rt::lin::#axpy))),
                        (false, true) => {
                            quote!(#rt::lin::axpy_seen(&#ok, #a, #k, #t, #rt::lin::#axpy))
                        }
                    };
                    acc = Some(match (acc, coef) {
                        (None, Coef::One) => quote!(#rt::lin::first(#t)),
                        (None, Coef::MinusOne) => quote!(#rt::lin::neg(#t)),
                        (None, Coef::Expr(k)) => ax(k),
                        (Some(a), Coef::One) => quote!(#rt::lin::add(#a, #t)),
                        (Some(a), Coef::MinusOne) => quote!(#rt::lin::sub(#a, #t)),
                        (Some(a), Coef::Expr(k)) => axpy(a, k),
                        // Made plain above.
                        (a, c @ Coef::Scaled(..)) => {
                            let k = c.tokens(rt, &quote!(#y));
                            match a {
                                None => ax(&k),
                                Some(a) => axpy(a, &k),
                            }
                        }
                    });
                }
                acc
            };
            // Coefficients with an unbounded factor are tested together (no branch per
            // term: one per term cost BA's Jacobian 10 %); the masked products run only
            // when one is infinite or NaN.
            let kinks: Vec<TokenStream> = terms
                .iter()
                .filter(|(r, _)| lin.unbounded.contains(&(v, *r)) && !lin.sparse.contains(r))
                .filter_map(|(_, c)| match c {
                    Coef::Expr(k) | Coef::Scaled(k, _) => Some(quote!(#rt::lin::finite(#k))),
                    _ => None,
                })
                .collect();
            let double = |acc: Option<TokenStream>| {
                acc.map(|a| match doubled {
                    0 => a,
                    1 => quote!(#rt::lin::twice(#a)),
                    k => quote!(#rt::lin::rescale(#a, #k)),
                })
            };
            let dense = double(combination(false));
            let acc = if kinks.is_empty() {
                dense
            } else {
                let strong = double(combination(true));
                Some(quote!(if #(#kinks)&* { #dense } else { #strong }))
            };
            let acc = match (sweep, acc) {
                (Some(sweep), Some(acc)) => {
                    // The tested coefficients summed: one test (a sum that overflows only
                    // sends the tangent down the sweep, which is right too).
                    let tested: Vec<TokenStream> = terms
                        .iter()
                        .filter(|(r, _)| risky.contains(r) && !lin.sparse.contains(r))
                        .map(|(_, c)| {
                            let k = c.tokens(rt, &quote!(#y));
                            quote!((#k))
                        })
                        .collect();
                    let any_seen = terms.iter().any(|(r, _)| seen(r));
                    let mut conds: Vec<TokenStream> = Vec::new();
                    if tested.is_empty() && !any_seen {
                        return out; // unreachable: a risky term is tested or seen
                    }
                    if !tested.is_empty() {
                        conds.push(quote!(#rt::lin::finite(#(#tested)+*)));
                    }
                    if any_seen {
                        conds.push(quote!(#rt::lin::ok(&#ok)));
                    }
                    Some(if any_seen {
                        quote!({
                            let #ok = #rt::lin::flag();
                            let __dense = #acc;
                            if #(#conds)&&* { __dense } else { #sweep }
                        })
                    } else {
                        quote!(if #(#conds)&&* { #acc } else { #sweep })
                    })
                }
                (_, acc) => acc,
            };
            let name = self.name(v);
            out.extend(quote_spanned!(span=> let mut #name = #rt::lin::dual(#y, #acc);));
        }
        out
    }
}

impl Emitter<'_> {
    /// The overflow guard's cold path for materialised `inst` ([`Size::Risky`]): its
    /// tangent with the partials applied to the roots' tangents one by one, forward through
    /// the cone its combination expands, in the primal's order (`s·s·ṙ` as `(ṙ·s)·s`), as
    /// the rule line by line computes it; times `2^after` (a deferred tangent's factor).
    /// `None` where a partial is missing (the guard is then left out).
    fn overflow_sweep(
        &mut self,
        inst: Inst,
        lin: &Linear,
        region: Option<Region>,
        after: i32,
        out: &mut TokenStream,
    ) -> Option<TokenStream> {
        let rt = self.rt;
        let v = self.func.insts[inst].results[0];
        let y = self.lin_primal_name(v);
        let vi = crate::ir::entity::EntityRef::index(v);
        let hoisted = self.hoisted_roots(v);
        let mut order = crate::preacc::cone(self.func, self.active, lin, inst);
        order.push(inst);
        let mut names: std::collections::HashMap<Value, syn::Ident> = Default::default();
        let mut body = TokenStream::new();
        for &i in &order {
            let u = self.func.insts[i].results[0];
            let partials = self.lin_partials_at.get(&i)?.clone();
            let live = lin_operands(self.func, self.active, lin, i);
            let mut operands = lin.raw_operands(self.func, i);
            operands.truncate(partials.len());
            let strong = lin.ops[&i].is_unbounded() || lin.ops[&i] == LinOp::Phi;
            let mut sum: Option<TokenStream> = None;
            for (k, o) in operands.iter().enumerate() {
                if !live.contains(o) {
                    continue;
                }
                let t = if lin.expands(self.func, i, *o) {
                    let n = names.get(o)?;
                    quote!(#n)
                } else {
                    let r = lin.canonical(*o);
                    if hoisted.contains(&r) {
                        continue; // applied after the loop
                    }
                    let rname = self.root_ref(r, region, lin, out);
                    match self.scales.get(&r) {
                        Some(&e) if e != 0 => quote!(#rt::lin::sw_scale(
                            #rt::lin::pow2(#rt::lin::one(#y), #e), #rt::lin::first(&#rname))),
                        _ => quote!(#rt::lin::first(&#rname)),
                    }
                };
                let term = match &partials[k].0 {
                    Coef::One => t,
                    Coef::MinusOne => quote!(#rt::lin::sw_neg(#y, #t)),
                    c => {
                        let p = c.tokens(rt, &quote!(#y));
                        match strong {
                            true => quote!(#rt::lin::sw_strong(#p, #t)),
                            false => quote!(#rt::lin::sw_scale(#p, #t)),
                        }
                    }
                };
                sum = Some(match sum {
                    None => term,
                    Some(a) => quote!(#rt::lin::sw_add(#y, #a, #term)),
                });
            }
            let sum = sum?;
            let n = format_ident!(
                "__s{}_{}",
                vi,
                crate::ir::entity::EntityRef::index(u),
                span = Span::mixed_site()
            );
            body.extend(quote!(let #n = #sum;));
            names.insert(u, n);
        }
        let t = &names[&v];
        let t = match after {
            0 => quote!(#t),
            e => quote!(#rt::lin::sw_scale(#rt::lin::pow2(#rt::lin::one(#y), #e), #t)),
        };
        Some(quote!({ #rt::lin::overflowed(); #body #t }))
    }

    /// The hoists of `Linear::hoists` this body applies: the batches' linearised copy
    /// (not the Jacobian entry, whose coefficients go to the sink term by term).
    pub(super) fn hoists_of(&self, l: Inst) -> Vec<Hoist> {
        match self.lin {
            Some(lin) if self.jac.is_none() && !self.one_direction => {
                lin.hoists.get(&l).cloned().unwrap_or_default()
            }
            _ => Vec::new(),
        }
    }

    /// The roots whose coefficients in the accumulator update `v` are hoisted.
    fn hoisted_roots(&self, v: Value) -> Vec<Value> {
        match self.lin {
            Some(lin) if self.jac.is_none() && !self.one_direction => lin
                .hoists
                .values()
                .flatten()
                .filter(|h| h.update == v)
                .map(|h| h.root)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Before the loop `l`: each hoisted coefficient's scalar sum, `0` (in the float type
    /// of the accumulator's initial value, cell `cells[k]` of carried parameter `k`).
    pub(super) fn hoist_inits(
        &self,
        l: Inst,
        params: &[Value],
        cells: &[syn::Ident],
    ) -> TokenStream {
        let rt = self.rt;
        let mut out = TokenStream::new();
        for h in self.hoists_of(l) {
            let Some(k) = params.iter().position(|p| *p == h.param) else {
                continue;
            };
            let (name, cell) = (hoist_ident(h.update, h.root), &cells[k]);
            out.extend(quote!(let mut #name = #rt::lin::zero(#rt::lin::p(&#cell));));
        }
        out
    }

    /// After the loop `l`: each accumulator's result (`outs[k]` of carried parameter `k`)
    /// takes its hoisted terms, `(Σc)·ṙ`.
    pub(super) fn hoist_exits(
        &mut self,
        l: Inst,
        params: &[Value],
        outs: &[syn::Ident],
    ) -> TokenStream {
        let rt = self.rt;
        let mut out = TokenStream::new();
        let Some(lin) = self.lin else {
            return out;
        };
        let region = lin.region_of.get(&l).copied();
        for h in self.hoists_of(l) {
            let Some(k) = params.iter().position(|p| *p == h.param) else {
                continue;
            };
            let (name, acc) = (hoist_ident(h.update, h.root), &outs[k]);
            let r = self.root_ref(h.root, region, lin, &mut out);
            out.extend(quote! {
                let mut #acc = #rt::lin::dual(
                    #rt::lin::p(&#acc),
                    #rt::lin::axpy_hoisted(#rt::lin::t(&#acc), #name, &#r),
                );
            });
        }
        out
    }

    /// The Jacobian entries of `c·r` where `c` is a kink's coefficient (`sqrt` at 0: ∞) and
    /// `r` a materialised value with entries `inner` in several columns. Where `c` is
    /// infinite, the entries of one column are summed before the strong product, as
    /// `ax_strong` multiplies `r`'s assembled tangent: `√(d² + a·d)` with `d = x[i] − x[j]`
    /// and `i = j` has entries `a` and `−a` in one column, whose strong products `∞` and
    /// `−∞` would add to NaN in the sink. Where `c` is finite, one product per entry.
    fn jac_kink_terms(
        &mut self,
        c: &TokenStream,
        y: &syn::Ident,
        inner: &[(crate::chainjac::Col, TokenStream)],
        terms: &mut Vec<(crate::chainjac::Col, TokenStream)>,
        out: &mut TokenStream,
    ) {
        let rt = self.rt;
        let cols: Vec<syn::Ident> = inner
            .iter()
            .map(|(col, _)| {
                let e = self.jac_column(col);
                let n = self.temp("__jc");
                out.extend(quote!(let #n = #e;));
                n
            })
            .collect();
        let ts: Vec<syn::Ident> = inner.iter().map(|_| self.temp("__jt")).collect();
        let plain = inner
            .iter()
            .map(|(_, c2)| quote!(#rt::lin::strong(#c, #c2)));
        let grouped = inner.iter().enumerate().map(|(k, (_, c2))| {
            let me = &cols[k];
            let earlier = &cols[..k];
            let later = inner[k + 1..]
                .iter()
                .zip(&cols[k + 1..])
                .map(|((_, c2), n)| quote!(+ if #n == #me { #c2 } else { #rt::lin::zero(#y) }));
            let sum = quote!(#rt::lin::strong(#c, #c2 #(#later)*));
            if earlier.is_empty() {
                sum
            } else {
                quote!(if #(#earlier == #me)||* { #rt::lin::zero(#y) } else { #sum })
            }
        });
        out.extend(quote! {
            let (#(#ts),*) = if #rt::lin::finite(#c) {
                (#(#plain),*)
            } else {
                (#(#grouped),*)
            };
        });
        for ((col, _), t) in inner.iter().zip(ts) {
            terms.push((col.clone(), quote!(#t)));
        }
    }
}

/// The power of two a deferred tangent keeps out of its combination, given its terms'
/// (`Coef::exp`): the most frequent, the largest of a tie (0 for none).
fn common_pow2(exps: &[i32]) -> i32 {
    let count = |e: i32| exps.iter().filter(|x| **x == e).count();
    exps.iter()
        .copied()
        .max_by_key(|e| (count(*e), *e))
        .unwrap_or(0)
}

/// `c`, a unit written as `one(y)` (a deferred root's factor divided out again) made
/// symbolic, so that its term is an addition.
fn unit_or(c: Coef, rt: &TokenStream, y: &syn::Ident) -> Coef {
    let one = quote!(#rt::lin::one(#y)).to_string();
    let minus = quote!((-#rt::lin::one(#y))).to_string();
    match &c {
        Coef::Expr(e) if e.to_string() == one => Coef::One,
        Coef::Expr(e) if e.to_string() == minus => Coef::MinusOne,
        _ => c,
    }
}

impl Emitter<'_> {
    /// The size of operand `o`'s coefficient with respect to root `r` in `user`: its
    /// coefficient's where `user` expands `o`, a unit where `o` is `r`.
    fn size_of(&self, lin: &Linear, user: Inst, o: Value, r: Value) -> Size {
        if lin.expands(self.func, user, o) {
            self.coef_size.get(&(o, r)).copied().unwrap_or(Size::Big)
        } else {
            Size::Small
        }
    }

    /// Whether materialised `v` holds its tangent divided by a power of two
    /// (`Linear::deferrable`, one direction only).
    fn deferring(&self, lin: &Linear, v: Value) -> bool {
        self.one_direction && self.jac.is_none() && lin.deferrable.contains(&v)
    }

    /// The coefficient of root `r` with respect to itself: 1, times the power of two its
    /// tangent was divided by (`Linear::deferrable`); `y` names a float of its type.
    fn root_unit(&self, r: Value, y: &syn::Ident) -> Coef {
        match self.scales.get(&r) {
            Some(&k) if k != 0 => Coef::One.times_pow2(k, self.rt, y),
            _ => Coef::One,
        }
    }
}

/// `t₀ + t₁ + ...`, units as `one(y)` in `y`'s float type.
pub(super) fn sum_terms(rt: &TokenStream, y: &syn::Ident, terms: &[Coef]) -> TokenStream {
    terms
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let (sign, e) = match t {
                Coef::One => (false, quote!(#rt::lin::one(#y))),
                Coef::MinusOne => (true, quote!(#rt::lin::one(#y))),
                Coef::Expr(e) => (false, e.clone()),
                c @ Coef::Scaled(..) => (false, c.tokens(rt, &quote!(#y))),
            };
            match (i, sign) {
                (0, false) => e,
                (0, true) => quote!(-#e),
                (_, false) => quote!(+ #e),
                (_, true) => quote!(- #e),
            }
        })
        .collect()
}

impl Emitter<'_> {
    /// For `v = a·b` (both active) where `a` is absorbed and is `c·b` (or `b·c`, or the same
    /// element read twice): the index of `a` among the operands, and `c` if it is active.
    /// Then `∂v/∂r = b·c·∂b/∂r + a·∂b/∂r = 2a·∂b/∂r` for every root `r` that `c` does not
    /// reach (`c·b` and `b·c` are the same bits): `½k·s·s` costs `2·(½k·s)` on `s`'s roots.
    fn scaled_square(&self, inst: crate::ir::Inst, lin: &Linear) -> Option<(usize, Option<Value>)> {
        if lin.ops.get(&inst) != Some(&LinOp::Binary(crate::callee::FloatOp::Mul)) {
            return None;
        }
        let ops = self.func.operands(inst);
        if ops.len() != 2 || !ops.iter().all(|o| self.is(*o)) {
            return None;
        }
        (0..2).find_map(|k| {
            let (a, b) = (ops[k], ops[1 - k]);
            let d = lin
                .def(self.func, a)
                .filter(|_| lin.expands(self.func, inst, a))?;
            if lin.ops[&d] != LinOp::Binary(crate::callee::FloatOp::Mul) {
                return None;
            }
            let inner = self.func.operands(d);
            if inner.len() != 2 {
                return None;
            }
            let same = |o: Value| self.is(o) && lin.canonical(o) == lin.canonical(b);
            let j = (0..2).find(|&j| same(inner[j]))?;
            let c = inner[1 - j];
            match (self.is(c), same(c)) {
                (false, _) => Some((k, None)),
                // `b·b·b`: `c` reaches every root of `b`; nothing folds.
                (true, true) => None,
                (true, false) => Some((k, Some(c))),
            }
        })
    }
}

impl Emitter<'_> {
    /// In the one-direction copy, for `v = a / b` materialised with the two roots `a` and
    /// `b` (neither absorbed, distinct): the roots. Its tangent `(ȧ - y·ḃ)/b` takes one
    /// division where the partials `1/b` and `-y/b` take two (and `1/b` of one divisor is
    /// shared by LLVM between quotients: BA's `r/θ` three times, `x/z` and `y/z`).
    fn quotient_of_roots(&self, inst: crate::ir::Inst, lin: &Linear) -> Option<(Value, Value)> {
        let div = LinOp::Binary(crate::callee::FloatOp::Div);
        if !self.one_direction || lin.ops.get(&inst) != Some(&div) {
            return None;
        }
        let v = self.func.insts[inst].results[0];
        let ops = self.func.operands(inst);
        if !lin.materialize.contains(&v) || ops.len() != 2 || !ops.iter().all(|o| self.is(*o)) {
            return None;
        }
        if ops.iter().any(|o| lin.expands(self.func, inst, *o)) {
            return None;
        }
        let (a, b) = (lin.canonical(ops[0]), lin.canonical(ops[1]));
        (a != b).then_some((a, b))
    }
}

/// `partial · coef` where `partial` may be infinite (a kink's): `lin::strong`, zero where
/// `coef` is (see [`LinOp::kinks`]), so that a coefficient is what the rule's strong
/// product gives in one direction. (Chains through a kink are never swept backward:
/// `crate::preacc::choose`.)
fn strong_product(rt: &TokenStream, partial: &Coef, coef: &Coef) -> Coef {
    match (partial, coef) {
        (Coef::Expr(p), Coef::Expr(e)) => Coef::Expr(quote!(#rt::lin::strong(#p, #e))),
        (Coef::Expr(p), Coef::Scaled(e, k)) if !is_one(e) => {
            Coef::Scaled(quote!(#rt::lin::strong(#p, #e)), *k)
        }
        _ => product(partial, coef),
    }
}

/// Whether `e` is `lin::one(y)`: the unit of a deferred root's coefficient (`2ᵏ·1`).
fn is_one(e: &TokenStream) -> bool {
    let s = e.to_string();
    s.contains(":: lin :: one (") && s.ends_with(')') && !s.contains('*') && !s.starts_with('(')
}

/// `partial · coef`, folding units.
fn product(partial: &Coef, coef: &Coef) -> Coef {
    match (partial, coef) {
        (Coef::One, c) | (c, Coef::One) => c.clone(),
        // `p · 2ᵏ`: a deferred root's unit.
        (Coef::Scaled(e, k), c) | (c, Coef::Scaled(e, k)) if is_one(e) => match c {
            Coef::One => Coef::Scaled(e.clone(), *k),
            Coef::MinusOne => Coef::Scaled(quote!((-#e)), *k),
            Coef::Expr(x) => Coef::Scaled(x.clone(), *k),
            Coef::Scaled(x, j) => Coef::scaled(x.clone(), j + k),
        },
        (Coef::MinusOne, Coef::MinusOne) => Coef::One,
        (Coef::MinusOne, Coef::Expr(e)) | (Coef::Expr(e), Coef::MinusOne) => {
            Coef::Expr(quote!((-#e)))
        }
        (Coef::Expr(p), Coef::Expr(e)) => Coef::Expr(quote!((#p * #e))),
        (Coef::MinusOne, Coef::Scaled(e, k)) | (Coef::Scaled(e, k), Coef::MinusOne) => {
            Coef::Scaled(quote!((-#e)), *k)
        }
        (Coef::Scaled(p, k), Coef::Expr(e)) | (Coef::Expr(e), Coef::Scaled(p, k)) => {
            Coef::Scaled(quote!((#p * #e)), *k)
        }
        (Coef::Scaled(p, j), Coef::Scaled(e, k)) => Coef::scaled(quote!((#p * #e)), j + k),
    }
}

/// Preaccumulation ([`crate::preacc`]): the coefficients of a materialised value by a
/// backward sweep over the chain it absorbs.
impl Emitter<'_> {
    /// The partials of linearised `inst`, one per operand (units symbolic; the others the
    /// names `lin_inst` binds them to).
    fn lin_partials(&self, inst: crate::ir::Inst, lin: &Linear) -> Vec<Coef> {
        let index = crate::ir::entity::EntityRef::index(self.func.insts[inst].results[0]);
        let partial = |k: usize| {
            let d = format_ident!("__d{}_{}", index, k, span = Span::mixed_site());
            Coef::Expr(quote!(#d))
        };
        match &lin.ops[&inst] {
            LinOp::Add => vec![Coef::One, Coef::One],
            LinOp::Sub => vec![Coef::One, Coef::MinusOne],
            LinOp::Neg => vec![Coef::MinusOne],
            LinOp::Binary(_) => vec![partial(0), partial(1)],
            LinOp::Unary(_) => vec![partial(0)],
            LinOp::Phi => (0..lin.raw_operands(self.func, inst).len())
                .map(partial)
                .collect(),
        }
    }

    /// `∂v/∂r` for every root `r` of `inst`'s value `v`, by a backward sweep: `v̄ = 1`, then
    /// for each absorbed value `u` of its cone, last first, `ū = Σ (user's partial)·(user)̄`,
    /// and `∂v/∂r = Σ (partial)·ū` over the reads of `r`. Each adjoint is bound once
    /// (`__a{v}_{u}`), each coefficient as in the forward order (`__k{v}_{r}`).
    fn lin_sweep(
        &mut self,
        inst: crate::ir::Inst,
        lin: &Linear,
        out: &mut TokenStream,
    ) -> Result<(), TokenStream> {
        let rt = self.rt;
        let v = self.func.insts[inst].results[0];
        let y = self.lin_primal_name(v);
        let vi = crate::ir::entity::EntityRef::index(v);
        let mut order = crate::preacc::cone(self.func, self.active, lin, inst);
        order.push(inst);
        let mut pending: std::collections::HashMap<Value, Vec<(Coef, Size)>> = Default::default();
        let mut at_roots: std::collections::HashMap<Value, Vec<(Coef, Size)>> = Default::default();
        let active = |i| lin_operands(self.func, self.active, lin, i);
        for &i in order.iter().rev() {
            let u = self.func.insts[i].results[0];
            let (adjoint, adjoint_size) = if i == inst {
                (Coef::One, Size::Small)
            } else {
                let sized = pending.remove(&u).unwrap_or_default();
                let size = Size::sum(sized.iter().map(|(_, z)| *z));
                let terms: Vec<Coef> = sized.into_iter().map(|(c, _)| c).collect();
                match terms.as_slice() {
                    [] => continue,
                    [single @ (Coef::One | Coef::MinusOne)] => (single.clone(), size),
                    terms => {
                        let a = format_ident!(
                            "__a{}_{}",
                            vi,
                            crate::ir::entity::EntityRef::index(u),
                            span = Span::mixed_site()
                        );
                        let sum = sum_terms(rt, &y, terms);
                        out.extend(quote!(let #a = #sum;));
                        (Coef::Expr(quote!(#a)), size)
                    }
                }
            };
            let partials = self.lin_partials(i, lin);
            let sizes: Vec<Size> = match self.lin_partials_at.get(&i) {
                Some(ps) => ps.iter().map(|(_, z)| *z).collect(),
                None => vec![Size::Big; partials.len()],
            };
            let live = active(i);
            let mut operands = lin.raw_operands(self.func, i);
            operands.truncate(partials.len());
            for (k, o) in operands.iter().enumerate() {
                if !live.contains(o) {
                    continue;
                }
                let term = product(&partials[k], &adjoint);
                let size = sizes
                    .get(k)
                    .copied()
                    .unwrap_or(Size::Big)
                    .times(adjoint_size);
                if lin.expands(self.func, i, *o) {
                    pending.entry(*o).or_default().push((term, size));
                } else {
                    at_roots
                        .entry(lin.canonical(*o))
                        .or_default()
                        .push((term, size));
                }
            }
        }
        for &r in lin.roots.get(&v).map(Vec::as_slice).unwrap_or_default() {
            let Some(sized) = at_roots.remove(&r) else {
                let msg = "internal error in `#[derive_frule]`: a root the backward sweep missed";
                return Err(quote!(::core::compile_error!(#msg);));
            };
            self.coef_size
                .insert((v, r), Size::sum(sized.iter().map(|(_, z)| *z)));
            let terms: Vec<Coef> = sized.into_iter().map(|(c, _)| c).collect();
            let coef = match terms.as_slice() {
                [single @ (Coef::One | Coef::MinusOne)] => single.clone(),
                _ => {
                    let k = format_ident!(
                        "__k{}_{}",
                        vi,
                        crate::ir::entity::EntityRef::index(r),
                        span = Span::mixed_site()
                    );
                    let sum = sum_terms(rt, &y, &terms);
                    out.extend(quote!(let #k = #sum;));
                    Coef::Expr(quote!(#k))
                }
            };
            self.coefs.insert((v, r), coef);
        }
        Ok(())
    }
}

/// An `if` that chains continue through ([`crate::linear::Phi`]).
impl Emitter<'_> {
    /// The `if`, each arm's chain emitted on primals and coefficients, yielding for each phi
    /// its primal and its coefficients with respect to the phi's operands (zero for one the
    /// arm does not read), bound as the phi's primal and partials:
    /// `let (v86_p, __d86_0, ..) = if c { ..; (v60_p, __k60_15, ..) } else { .. };`
    pub(super) fn lin_if(&mut self, inst: crate::ir::Inst, lin: &Linear) -> TokenStream {
        let rt = self.rt;
        let data = &self.func.insts[inst];
        let span = data.span;
        let InstKind::If {
            cond,
            then_region,
            else_region,
            ..
        } = data.kind
        else {
            let msg = "internal error in `#[derive_frule]`: a linearised `if` that is not one";
            return quote_spanned!(span=> ::core::compile_error!(#msg););
        };
        let plan = &lin.lin_ifs[&inst];
        let need = self
            .plans
            .get(inst)
            .needs
            .first()
            .copied()
            .unwrap_or(crate::dual::Need::AsIs);
        let cond = self.operand(cond, need);
        let mut arms: Vec<TokenStream> = Vec::new();
        for (a, region) in [then_region, else_region].into_iter().enumerate() {
            let mut body = TokenStream::new();
            for &i in &self.func.regions[region].insts {
                if plan.tuples[a] != Some(i) {
                    body.extend(self.inst(i));
                }
            }
            let mut elems: Vec<TokenStream> = Vec::new();
            for p in &plan.phis {
                let phi = &lin.phis[p];
                let y = phi.arms[a];
                let yp = self.lin_primal(y, lin);
                let in_arm = lin.in_arms.contains(&y);
                for (k, &l) in phi.operands.iter().enumerate() {
                    let coef = if in_arm {
                        self.coefs.get(&(y, l)).cloned()
                    } else if self.is(y) && lin.canonical(y) == l {
                        Some(Coef::One)
                    } else {
                        None
                    };
                    let size = match in_arm {
                        true => self.coef_size.get(&(y, l)).copied().unwrap_or(Size::Small),
                        false => Size::Small,
                    };
                    let slot = self.phi_sizes.entry((*p, k)).or_insert(Size::Small);
                    *slot = (*slot).max(size);
                    elems.push(match coef {
                        Some(Coef::One) => quote!(#rt::lin::one(#yp)),
                        Some(Coef::MinusOne) => quote!(-#rt::lin::one(#yp)),
                        Some(Coef::Expr(e)) => e,
                        Some(c @ Coef::Scaled(..)) => c.tokens(rt, &yp),
                        None => quote!(#rt::lin::zero(#yp)),
                    });
                }
                elems.insert(elems.len() - phi.operands.len(), yp);
            }
            arms.push(quote!({ #body (#(#elems),*) }));
        }
        let mut names: Vec<TokenStream> = Vec::new();
        for p in &plan.phis {
            let v = self.func.insts[*p].results[0];
            let y = self.lin_primal_name(v);
            names.push(quote!(#y));
            let index = crate::ir::entity::EntityRef::index(v);
            for k in 0..lin.phis[p].operands.len() {
                let d = format_ident!("__d{}_{}", index, k, span = Span::mixed_site());
                names.push(quote!(#d));
            }
        }
        let (then_b, else_b) = (&arms[0], &arms[1]);
        quote_spanned!(span=> let (#(#names),*) = if #cond #then_b else #else_b;)
    }
}

/// The scalar sum of the hoisted coefficients of root `r` in accumulator update `v`.
fn hoist_ident(v: Value, r: Value) -> syn::Ident {
    format_ident!(
        "__h{}_{}",
        crate::ir::entity::EntityRef::index(v),
        crate::ir::entity::EntityRef::index(r),
        span = Span::mixed_site()
    )
}
