//! `match`, `if let`, `while let` and `?`, all lowered to [`InstKind::Match`].
//!
//! * `if let P = e { a } else { b }` is `match e { P => a, _ => b }`;
//! * `while let P = e { body }` is `loop { match e { P => body, _ => break } }`;
//! * `e?` is `match e { Some(v) => v, None => return None }` in a function returning
//!   `Option`, and `match e { Ok(v) => v, Err(err) => return Err(From::from(err)) }` in one
//!   returning `Result` (read off the declared return type).
//!
//! Patterns: literals, ranges, `_`, bindings (also `name @ pattern`), tuples, tuple
//! structs and tuple-like variants (`Some(x)`, `Ok(x)`, `V2(x, y)`,
//! `Activation::LeakyRelu(a)`), struct patterns of structs and variants
//! (`Shape::Rect { w, h }`, `Foo { a, .. }`), unit variants and constants, `&p`, and `|`,
//! nested. The tangent of a user type's binding is read from its `#[derive(Differentiable)]`
//! tangent twin (see `emit::tangent_pattern`). Slice patterns (`[a, rest @ ..]`) become
//! guarded arms that index the scrutinee (`slice_arm`).

use super::Lowerer;
use crate::callee::{PathCallee, StdType};
use crate::ir::{Arm, InstKind, Region, Terminator, Value, ValueDef};
use crate::splice::{fill, splice, Hole};
use crate::types::TypeHint;
use proc_macro2::Span;
use std::borrow::Cow;
use syn::spanned::Spanned;

/// A pattern's bindings in order: name, type hint, and whether declared `mut`.
pub(crate) fn pattern_bindings(
    pat: &syn::Pat,
    hint: &TypeHint,
    out: &mut Vec<(syn::Ident, TypeHint)>,
) {
    match pat {
        syn::Pat::Ident(pi) => {
            out.push((pi.ident.clone(), hint.clone()));
            if let Some((_, sub)) = &pi.subpat {
                pattern_bindings(sub, hint, out);
            }
        }
        syn::Pat::Tuple(t) => {
            let arity = match hint.deref_all_pub() {
                TypeHint::Tuple(ts) => Some(ts.len()),
                _ => None,
            };
            let positions = super::stmt::tuple_positions(&t.elems, arity);
            for (p, at) in t.elems.iter().zip(positions) {
                // After a `..` of a tuple of unknown arity, the element's type is unknown.
                let hint = match at {
                    Some(i) => hint.field(&syn::Member::Unnamed(syn::Index {
                        index: i as u32,
                        span: p.span(),
                    })),
                    None => TypeHint::Unknown,
                };
                pattern_bindings(p, &hint, out);
            }
        }
        syn::Pat::TupleStruct(ts) => {
            // The error of a `Result` carries no tangent (see the runtime's `Differentiable`).
            let is_err = crate::callee::is_err(&ts.path);
            let hint = if is_err {
                TypeHint::NonDiff
            } else {
                TypeHint::Unknown
            };
            for p in &ts.elems {
                pattern_bindings(p, &hint, out);
            }
        }
        // `Shape::Rect { w, h }`, `Foo { a, .. }`: the fields in the order written.
        syn::Pat::Struct(st) => {
            for fp in &st.fields {
                pattern_bindings(&fp.pat, &TypeHint::Unknown, out);
            }
        }
        syn::Pat::Or(o) => {
            if let Some(first) = o.cases.first() {
                pattern_bindings(first, hint, out);
            }
        }
        syn::Pat::Paren(p) => pattern_bindings(&p.pat, hint, out),
        syn::Pat::Reference(r) => pattern_bindings(&r.pat, &hint.deref(), out),
        syn::Pat::Type(t) => pattern_bindings(&t.pat, &TypeHint::from_type(&t.ty), out),
        syn::Pat::Lit(_)
        | syn::Pat::Range(_)
        | syn::Pat::Wild(_)
        | syn::Pat::Rest(_)
        | syn::Pat::Path(_)
        | syn::Pat::Const(_)
        | syn::Pat::Macro(_)
        | syn::Pat::Slice(_)
        | syn::Pat::Verbatim(_) => {}
        _ => {}
    }
}

/// Turns identifier patterns that name a unit variant or a constant (`None`, a
/// glob-imported `Relu`, `SPECIAL`) into path patterns: Rust tells them from bindings by
/// name resolution, which a macro cannot do, so it follows the naming convention (rustc
/// warns on a capitalised binding). Taken as bindings, they matched everything.
struct NamedConstants;

impl syn::visit_mut::VisitMut for NamedConstants {
    fn visit_pat_mut(&mut self, pat: &mut syn::Pat) {
        if let syn::Pat::Ident(pi) = pat {
            let capitalised = crate::callee::is_capitalised(&pi.ident.to_string());
            if capitalised && pi.by_ref.is_none() && pi.mutability.is_none() && pi.subpat.is_none()
            {
                *pat = syn::Pat::Path(syn::ExprPath {
                    attrs: pi.attrs.clone(),
                    qself: None,
                    path: pi.ident.clone().into(),
                });
                return;
            }
        }
        syn::visit_mut::visit_pat_mut(self, pat);
    }
}

/// `&mut e` for a place `e` (a local, a field, an element) matched by patterns that bind
/// with `ref mut` and only so, and `&e` for one whose patterns bind with `ref` only: what
/// Rust's default binding mode then does for them (nothing is moved out of `e`).
fn by_ref_mut_scrutinee(e: &syn::Expr, pats: &[&syn::Pat]) -> Option<syn::Expr> {
    let mut idents = super::PatIdents::default();
    for p in pats {
        syn::visit::Visit::visit_pat(&mut idents, p);
    }
    let bindings: Vec<_> = (idents.0.iter())
        .filter(|pi| !crate::callee::is_capitalised(&pi.ident.to_string()))
        .collect();
    let all = |mutable: bool| {
        !bindings.is_empty()
            && (bindings.iter()).all(|pi| pi.by_ref.is_some() && pi.mutability.is_some() == mutable)
    };
    let (all_ref_mut, all_ref) = (all(true), all(false));
    let no_ref_patterns = pats.iter().all(|p| !has_reference_pattern(p));
    let place = matches!(
        super::place::strip(e),
        syn::Expr::Path(_) | syn::Expr::Field(_) | syn::Expr::Index(_)
    );
    ((all_ref_mut || all_ref) && no_ref_patterns && place).then(|| {
        syn::Expr::Reference(syn::ExprReference {
            attrs: vec![],
            and_token: syn::Token![&](e.span()),
            mutability: all_ref_mut.then(|| syn::Token![mut](e.span())),
            expr: Box::new(e.clone()),
        })
    })
}

/// Whether `p` binds a name with `ref mut`.
fn has_ref_mut_binding(p: &syn::Pat) -> bool {
    struct Find(bool);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_pat_ident(&mut self, pi: &'ast syn::PatIdent) {
            if pi.by_ref.is_some() && pi.mutability.is_some() {
                self.0 = true;
            }
            syn::visit::visit_pat_ident(self, pi);
        }
    }
    let mut f = Find(false);
    syn::visit::Visit::visit_pat(&mut f, p);
    f.0
}

fn has_reference_pattern(p: &syn::Pat) -> bool {
    struct Find(bool);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_pat_reference(&mut self, _: &'ast syn::PatReference) {
            self.0 = true;
        }
    }
    let mut f = Find(false);
    syn::visit::Visit::visit_pat(&mut f, p);
    f.0
}

/// `ref mut x`, `ref x` → `x`.
fn strip_ref_mut(pat: &mut syn::Pat) {
    struct Strip;
    impl syn::visit_mut::VisitMut for Strip {
        fn visit_pat_ident_mut(&mut self, p: &mut syn::PatIdent) {
            if p.by_ref.is_some() {
                p.by_ref = None;
                p.mutability = None;
            }
            syn::visit_mut::visit_pat_ident_mut(self, p);
        }
    }
    syn::visit_mut::VisitMut::visit_pat_mut(&mut Strip, pat);
}

/// Drops `ref` from the bindings of `pat`, and returns the names that must then borrow
/// their value (`Shape::Circle { ref r }` on a `Shape` by value: `r` is `&f64`). Under a
/// scrutinee that is a reference (and no `&` pattern), Rust's default binding mode already
/// binds by reference, so `ref` changes nothing there; so does `ref mut` under a `&mut`
/// one. A `ref mut` elsewhere is left for `check_pattern` to report.
fn strip_ref_bindings(pat: &mut syn::Pat, by_ref: bool, by_mut: bool) -> Vec<syn::Ident> {
    fn walk(pat: &mut syn::Pat, by_ref: bool, by_mut: bool, out: &mut Vec<syn::Ident>) {
        match pat {
            syn::Pat::Ident(pi) => {
                if pi.by_ref.is_some() {
                    match (&pi.mutability, by_ref, by_mut) {
                        (None, true, _) | (Some(_), true, true) => {
                            pi.by_ref = None;
                            pi.mutability = None;
                        }
                        (None, false, _) => {
                            pi.by_ref = None;
                            out.push(pi.ident.clone());
                        }
                        (Some(_), _, _) => {}
                    }
                }
                if let Some((_, sub)) = &mut pi.subpat {
                    walk(sub, by_ref, by_mut, out);
                }
            }
            // `&pat` takes the reference apart: what it binds is bound by value.
            syn::Pat::Reference(r) => walk(&mut r.pat, false, false, out),
            syn::Pat::Tuple(t) => t
                .elems
                .iter_mut()
                .for_each(|p| walk(p, by_ref, by_mut, out)),
            syn::Pat::TupleStruct(ts) => ts
                .elems
                .iter_mut()
                .for_each(|p| walk(p, by_ref, by_mut, out)),
            syn::Pat::Struct(st) => {
                for fp in st.fields.iter_mut() {
                    walk(&mut fp.pat, by_ref, by_mut, out);
                }
            }
            syn::Pat::Or(o) => {
                let mut first = true;
                for p in o.cases.iter_mut() {
                    let mut names = Vec::new();
                    walk(p, by_ref, by_mut, &mut names);
                    if first {
                        out.extend(names);
                        first = false;
                    }
                }
            }
            syn::Pat::Paren(p) => walk(&mut p.pat, by_ref, by_mut, out),
            syn::Pat::Type(t) => walk(&mut t.pat, by_ref, by_mut, out),
            syn::Pat::Slice(s) => s
                .elems
                .iter_mut()
                .for_each(|p| walk(p, by_ref, by_mut, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(pat, by_ref, by_mut, &mut out);
    out
}

/// A slice pattern's arm, as a binding of the whole scrutinee, a length test (and the
/// tests of literal elements) for the guard, and the `let`s that bind its names.
struct SliceArm {
    pat: syn::Pat,
    test: syn::Expr,
    lets: Vec<syn::Local>,
}

/// `[a, b]`, `[first, rest @ ..]`, `[.., last]`, `&[x, y, z]` (the whole pattern of an arm)
/// over an array or a slice, as a [`SliceArm`]: its elements are read by index, as
/// references where Rust's default binding mode binds them so (a scrutinee that is a
/// reference, without `&` in the pattern), and `rest @ ..` as the sub-slice between.
/// `None` for a pattern that is not a slice pattern.
fn slice_arm(pat: &syn::Pat, by_ref: bool, by_mut: bool) -> syn::Result<Option<SliceArm>> {
    let (sl, by_ref) = match pat {
        syn::Pat::Slice(sl) => (sl, by_ref),
        syn::Pat::Paren(p) => return slice_arm(&p.pat, by_ref, by_mut),
        syn::Pat::Reference(r) => match &*r.pat {
            syn::Pat::Slice(sl) => (sl, false),
            _ => return Ok(None),
        },
        _ => return Ok(None),
    };
    let span = sl.span();
    let s = syn::Ident::new("__fwdad_slice", Span::mixed_site().located_at(span));
    let n = sl.elems.len();
    let rest = sl
        .elems
        .iter()
        .position(|p| is_rest(p) || rest_binding(p).is_some());
    let fixed = n - usize::from(rest.is_some());
    let mut test: syn::Expr = match rest {
        Some(_) => splice!(span=> #s.len() >= #fixed)?,
        None => splice!(span=> #s.len() == #fixed)?,
    };
    if by_ref && by_mut {
        return Err(syn::Error::new(
            span,
            "`#[derive_frule]` does not support slice patterns through `&mut` in `match` (they would borrow every element mutably at once); write `if let [a, .., z] = x { .. }` or `let [a, .., z] = x else { .. };`, or write through the elements by index (`x[0] *= k`)",
        ));
    }
    let mut lets = Vec::new();
    for (i, p) in sl.elems.iter().enumerate() {
        let sp = p.span();
        // The element's index, or the range of the rest.
        let at = match rest {
            Some(r) if i == r => {
                let after = n - 1 - r;
                quote::quote_spanned!(sp=> #r..#s.len() - #after)
            }
            Some(r) if i > r => {
                let back = n - i;
                quote::quote_spanned!(sp=> #s.len() - #back)
            }
            _ => quote::quote_spanned!(sp=> #i),
        };
        let elem = match by_ref || rest == Some(i) {
            true => quote::quote_spanned!(sp=> &#s[#at]),
            false => quote::quote_spanned!(sp=> #s[#at]),
        };
        match p {
            syn::Pat::Wild(_) | syn::Pat::Rest(_) => {}
            syn::Pat::Ident(pi) if rest_binding(p).is_some() => {
                if !by_ref {
                    return Err(syn::Error::new(
                        sp,
                        "`#[derive_frule]` binds the rest of a slice pattern (`rest @ ..`) only through a reference; match on a slice (`match &a[..] { [first, rest @ ..] => .. }`)",
                    ));
                }
                let mut name = pi.clone();
                name.subpat = None;
                lets.push(local(splice!(sp=> let #name = #elem;)?, sp)?);
            }
            p if has_bindings(p) => {
                if !is_irrefutable(p) {
                    return Err(syn::Error::new(
                        sp,
                        "`#[derive_frule]` supports names, `_`, `..`, tuples of names and patterns without bindings inside a slice pattern; bind the element by name and match it inside the arm",
                    ));
                }
                lets.push(local(splice!(sp=> let #p = #elem;)?, sp)?);
            }
            p => {
                test = splice!(sp=> #test && ::core::matches!(#s[#at], #p))?;
            }
        }
    }
    let pat = syn::Pat::Ident(syn::PatIdent {
        attrs: vec![],
        by_ref: None,
        mutability: None,
        ident: s,
        subpat: None,
    });
    Ok(Some(SliceArm { pat, test, lets }))
}

/// The `let` a statement template parsed to.
fn local(stmt: syn::Stmt, span: Span) -> syn::Result<syn::Local> {
    match stmt {
        syn::Stmt::Local(l) => Ok(l),
        _ => Err(syn::Error::new(
            span,
            "fwdad cannot rewrite this slice pattern; this is a bug in fwdad, please report it",
        )),
    }
}

/// `[..]`, `&[..]`: an arm [`slice_arm`] rewrites.
fn is_slice_pattern(p: &syn::Pat) -> bool {
    match p {
        syn::Pat::Slice(_) => true,
        syn::Pat::Paren(p) => is_slice_pattern(&p.pat),
        syn::Pat::Reference(r) => matches!(&*r.pat, syn::Pat::Slice(_)),
        _ => false,
    }
}

/// `x.len() >= 2` for `[a, .., z]` matched against `x` (or `&mut x`): whether it matches.
pub(crate) fn slice_length_test(
    scrutinee: &syn::Expr,
    sl: &syn::PatSlice,
) -> syn::Result<syn::Expr> {
    let span = sl.span();
    let base = match super::place::strip(scrutinee) {
        syn::Expr::Reference(r) => &*r.expr,
        other => other,
    };
    let rest = sl
        .elems
        .iter()
        .any(|p| is_rest(p) || rest_binding(p).is_some());
    let fixed = sl.elems.len() - usize::from(rest);
    match rest {
        true => splice!(span=> (#base).len() >= #fixed),
        false => splice!(span=> (#base).len() == #fixed),
    }
}

/// The `let`s that bind the names of a slice pattern `[a, b, rest @ ..]` matched through
/// `&mut` (`p: &mut [f64; 3]`): each element split off in turn with `split_at_mut`, so the
/// names borrow disjoint parts, as Rust's pattern does.
pub(crate) fn split_mut_lets(base: &syn::Expr, sl: &syn::PatSlice) -> syn::Result<Vec<syn::Local>> {
    let n = sl.elems.len();
    let rest = sl
        .elems
        .iter()
        .position(|p| is_rest(p) || rest_binding(p).is_some());
    let head = syn::Ident::new("__fwdad_head", Span::mixed_site().located_at(sl.span()));
    let tail = syn::Ident::new("__fwdad_tail", Span::mixed_site().located_at(sl.span()));
    let mut cur = quote::quote!((#base));
    let mut lets = Vec::new();
    for (i, p) in sl.elems.iter().enumerate() {
        let sp = p.span();
        if rest == Some(i) {
            let after = n - 1 - i;
            lets.push(local(
                splice!(sp=> let (#head, #tail) = #cur.split_at_mut(#cur.len() - #after);)?,
                sp,
            )?);
            if let Some(pi) = rest_binding(p) {
                let mut name = pi.clone();
                name.subpat = None;
                lets.push(local(splice!(sp=> let #name = #head;)?, sp)?);
            }
            cur = quote::quote!(#tail);
            continue;
        }
        let name = match p {
            syn::Pat::Wild(_) => None,
            syn::Pat::Ident(pi) if pi.subpat.is_none() && pi.by_ref.is_none() => Some(pi),
            _ => {
                return Err(syn::Error::new(
                    sp,
                    "`#[derive_frule]` supports only names, `_` and `..` in a slice pattern through `&mut`; bind the element by name and match it inside the arm",
                ))
            }
        };
        // The last element is what is left of the slice.
        let elem = match i + 1 == n {
            true => quote::quote!(&mut #cur[0]),
            false => {
                lets.push(local(
                    splice!(sp=> let (#head, #tail) = #cur.split_at_mut(1);)?,
                    sp,
                )?);
                quote::quote!(&mut #head[0])
            }
        };
        if let Some(pi) = name {
            lets.push(local(splice!(sp=> let #pi = #elem;)?, sp)?);
        }
        cur = quote::quote!(#tail);
    }
    Ok(lets)
}

/// `rest @ ..`.
fn rest_binding(p: &syn::Pat) -> Option<&syn::PatIdent> {
    match p {
        syn::Pat::Ident(pi) if pi.subpat.as_ref().is_some_and(|(_, sub)| is_rest(sub)) => Some(pi),
        _ => None,
    }
}

fn is_rest(p: &syn::Pat) -> bool {
    matches!(p, syn::Pat::Rest(_))
}

fn has_bindings(p: &syn::Pat) -> bool {
    let mut found = super::PatIdents::default();
    syn::visit::Visit::visit_pat(&mut found, p);
    found
        .0
        .iter()
        .any(|pi| !crate::callee::is_capitalised(&pi.ident.to_string()))
}

/// Names, `_`, and tuples, parentheses and references of them: what a `let` can bind.
fn is_irrefutable(p: &syn::Pat) -> bool {
    match p {
        syn::Pat::Ident(pi) => pi.subpat.is_none(),
        syn::Pat::Wild(_) | syn::Pat::Rest(_) => true,
        syn::Pat::Tuple(t) => t.elems.iter().all(is_irrefutable),
        syn::Pat::Paren(p) => is_irrefutable(&p.pat),
        syn::Pat::Reference(r) => is_irrefutable(&r.pat),
        syn::Pat::Type(t) => is_irrefutable(&t.pat),
        _ => false,
    }
}

/// Reports pattern forms the match lowering does not support.
fn check_pattern(pat: &syn::Pat, errors: &mut Vec<(Span, &'static str)>) {
    match pat {
        syn::Pat::Ident(pi) => {
            if pi.by_ref.is_some() {
                errors.push((
                    pi.span(),
                    "`#[derive_frule]` does not support `ref mut` bindings here; match on a `&mut` reference and bind by name (`match &mut s { Shape::Circle { r } => *r *= 2.0, .. }`)",
                ));
            }
            if let Some((_, sub)) = &pi.subpat {
                check_pattern(sub, errors);
            }
        }
        syn::Pat::Tuple(t) => t.elems.iter().for_each(|p| check_pattern(p, errors)),
        syn::Pat::TupleStruct(ts) => ts.elems.iter().for_each(|p| check_pattern(p, errors)),
        syn::Pat::Or(o) => o.cases.iter().for_each(|p| check_pattern(p, errors)),
        syn::Pat::Paren(p) => check_pattern(&p.pat, errors),
        syn::Pat::Reference(r) => check_pattern(&r.pat, errors),
        syn::Pat::Type(t) => check_pattern(&t.pat, errors),
        syn::Pat::Lit(_)
        | syn::Pat::Range(_)
        | syn::Pat::Wild(_)
        | syn::Pat::Rest(_)
        | syn::Pat::Path(_) => {}
        syn::Pat::Struct(s) => {
            if s.qself.is_some() {
                errors.push((
                    s.span(),
                    "`#[derive_frule]` does not support struct patterns with qualified paths (`<T as Trait>::V { .. }`); name the type or variant",
                ));
            }
            s.fields.iter().for_each(|f| check_pattern(&f.pat, errors));
        }
        syn::Pat::Slice(s) => errors.push((
            s.span(),
            "`#[derive_frule]` does not support slice patterns; index the slice",
        )),
        other => errors.push((
            other.span(),
            "`#[derive_frule]` does not support this pattern",
        )),
    }
}

/// The body of one arm, lowered after its bindings are in scope.
pub(crate) type ArmBody<'e, 'd> = Box<dyn FnOnce(&mut Lowerer<'d>) -> Option<Value> + 'e>;

impl<'d> Lowerer<'d> {
    pub(crate) fn lower_match(&mut self, m: &syn::ExprMatch) -> Option<Value> {
        let pats: Vec<&syn::Pat> = m.arms.iter().map(|a| &a.pat).collect();
        // `match s { Shape::Circle { ref mut r } => *r *= k, .. }` is
        // `match &mut s { Shape::Circle { r } => *r *= k, .. }`.
        if let Some(expr) =
            by_ref_mut_scrutinee(&m.expr, &pats).filter(|_| !self.names_ref(&m.expr))
        {
            let mut m = m.clone();
            *m.expr = expr;
            for arm in &mut m.arms {
                strip_ref_mut(&mut arm.pat);
            }
            return self.lower_match(&m);
        }
        let (expr, through_ref) = self.field_by_ref(&m.expr, &pats);
        // `match *s { Some(p) => .. }` of `s: &mut Option<f64>` (a `scan` state): `&mut`
        // patterns on `s`.
        let mutable = through_ref && self.names_mut_ref(&expr);
        let scrutinee = self.lower_expr(&expr)?;
        let arms = m
            .arms
            .iter()
            .map(|arm| {
                let body: ArmBody<'_, 'd> =
                    Box::new(move |lw: &mut Lowerer<'d>| lw.lower_expr(&arm.body));
                let pat = if through_ref {
                    ref_pattern(&arm.pat, mutable)
                } else {
                    arm.pat.clone()
                };
                (pat, arm.guard.as_ref().map(|(_, g)| &**g), body)
            })
            .collect();
        self.lower_match_arms(scrutinee, arms, m.span())
    }

    /// `if let pat = e { then } else { else_ }`.
    pub(crate) fn lower_if_let(&mut self, i: &syn::ExprIf, l: &syn::ExprLet) -> Option<Value> {
        // `if let [first, .., last] = x { .. }` with `x: &mut [f64]`: `if x.len() >= 2 {
        // let first = ..; let last = ..; .. }`, each name borrowing its own part.
        if let Some(sl) = self.slice_pattern_through_mut(&l.pat, &l.expr) {
            let rewritten = slice_length_test(&l.expr, sl).and_then(|test| {
                let lets = split_mut_lets(&l.expr, sl)?;
                let then = &i.then_branch;
                let span = i.span();
                let mut out: syn::ExprIf = splice!(span=> if #test { #(#lets)* #then })?;
                out.else_branch = i.else_branch.clone();
                Ok(syn::Expr::If(out))
            });
            return match self.diag.handle(rewritten) {
                Some(e) => self.lower_expr(&e),
                None => Some(self.poison(i.span())),
            };
        }
        if let Some(expr) =
            by_ref_mut_scrutinee(&l.expr, &[&l.pat]).filter(|_| !self.names_ref(&l.expr))
        {
            let mut l = l.clone();
            *l.expr = expr;
            strip_ref_mut(&mut l.pat);
            return self.lower_if_let(i, &l);
        }
        let (expr, through_ref) = self.field_by_ref(&l.expr, &[&l.pat]);
        let mutable = through_ref && self.names_mut_ref(&expr);
        let scrutinee = self.lower_expr(&expr)?;
        let pat = if through_ref {
            ref_pattern(&l.pat, mutable)
        } else {
            (*l.pat).clone()
        };
        let span = i.span();
        let then_body: ArmBody<'_, 'd> =
            Box::new(|lw: &mut Lowerer<'d>| lw.lower_block(&i.then_branch));
        let else_body: ArmBody<'_, 'd> =
            Box::new(move |lw: &mut Lowerer<'d>| match &i.else_branch {
                Some((_, e)) => lw.lower_expr(e),
                None => Some(lw.unit(span)),
            });
        let wild: syn::Pat = syn::parse_quote!(_);
        self.lower_match_arms(
            scrutinee,
            vec![(pat, None, then_body), (wild, None, else_body)],
            span,
        )
    }

    /// `while let pat = e { body }` inside the loop lowering: one iteration's test.
    pub(crate) fn lower_while_let_test(
        &mut self,
        l: &syn::ExprLet,
        body: &syn::Block,
        span: Span,
    ) -> Option<Value> {
        let scrutinee = self.lower_expr(&l.expr)?;
        let run: ArmBody<'_, 'd> = Box::new(|lw: &mut Lowerer<'d>| lw.lower_block(body));
        let stop: ArmBody<'_, 'd> = Box::new(move |lw: &mut Lowerer<'d>| {
            let unit = lw.unit(span);
            lw.break_to(0, Some(unit), span);
            None
        });
        let wild: syn::Pat = syn::parse_quote!(_);
        self.lower_match_arms(
            scrutinee,
            vec![((*l.pat).clone(), None, run), (wild, None, stop)],
            span,
        )?;
        Some(self.unit(span))
    }

    /// `e?`, by the function's declared return type.
    pub(crate) fn lower_try(&mut self, t: &syn::ExprTry) -> Option<Value> {
        let span = t.span();
        let ret = self.func.ret.clone();
        let kind = match &ret {
            syn::Type::Path(p) => StdType::of_path(&p.path),
            _ => None,
        };
        // The body of a closure passed to a function, its return type not written: the
        // runtime's `branch` splits an `Option` or a `Result` alike, and `residual` makes
        // the closure's `None` or `Err(From::from(e))` (as in `combinators.rs`).
        if kind.is_none() && matches!(ret, syn::Type::Infer(_)) {
            let rt = &self.rt;
            let template: syn::Expr = self.diag.handle(splice!(span=>
                match #rt::branch(__fwdad_e) {
                    ::core::result::Result::Ok(__fwdad_q) => __fwdad_q,
                    ::core::result::Result::Err(__fwdad_q) => return #rt::residual(__fwdad_q),
                }
            ))?;
            let desugared = fill(template, &[("__fwdad_e", Hole::Expr(&t.expr))]);
            return self.lower_expr(&desugared);
        }
        let scrutinee = self.lower_expr(&t.expr)?;
        let v = syn::Ident::new("__fwdad_ok", span);
        let e = syn::Ident::new("__fwdad_err", span);
        let take = |name: syn::Ident| -> ArmBody<'_, 'd> {
            Box::new(move |lw: &mut Lowerer<'d>| lw.lookup(&name.to_string()))
        };
        match kind {
            Some(StdType::Option) => {
                let none: ArmBody<'_, 'd> = Box::new(move |lw: &mut Lowerer<'d>| {
                    let path: syn::Path =
                        syn::parse_quote_spanned!(span=> ::core::option::Option::None);
                    let none = lw.push(InstKind::Const(path), TypeHint::Unknown, span);
                    lw.terminate(Terminator::Return(none));
                    None
                });
                let arms = vec![
                    (
                        one_field(
                            syn::parse_quote_spanned!(span=> ::core::option::Option::Some),
                            &v,
                        ),
                        None,
                        take(v.clone()),
                    ),
                    (
                        syn::parse_quote_spanned!(span=> ::core::option::Option::None),
                        None,
                        none,
                    ),
                ];
                self.lower_match_arms(scrutinee, arms, span)
            }
            Some(StdType::Result) => {
                let e2 = e.clone();
                let err: ArmBody<'_, 'd> = Box::new(move |lw: &mut Lowerer<'d>| {
                    let err = lw.lookup(&e2.to_string())?;
                    let from: syn::Path =
                        syn::parse_quote_spanned!(span=> ::core::convert::From::from);
                    let conv = lw.push(
                        InstKind::Call {
                            callee: PathCallee::Unresolved,
                            func: from,
                            args: vec![err],
                        },
                        TypeHint::NonDiff,
                        span,
                    );
                    let ctor: syn::Path =
                        syn::parse_quote_spanned!(span=> ::core::result::Result::Err);
                    let wrapped = lw.push(
                        InstKind::Call {
                            callee: PathCallee::Unresolved,
                            func: ctor,
                            args: vec![conv],
                        },
                        TypeHint::Unknown,
                        span,
                    );
                    lw.terminate(Terminator::Return(wrapped));
                    None
                });
                let arms = vec![
                    (
                        one_field(
                            syn::parse_quote_spanned!(span=> ::core::result::Result::Ok),
                            &v,
                        ),
                        None,
                        take(v.clone()),
                    ),
                    (
                        one_field(
                            syn::parse_quote_spanned!(span=> ::core::result::Result::Err),
                            &e,
                        ),
                        None,
                        err,
                    ),
                ];
                self.lower_match_arms(scrutinee, arms, span)
            }
            _ => {
                self.diag.error(
                    span,
                    "`#[derive_frule]` supports `?` only in functions whose declared return type is `Option<..>` or `Result<..>`",
                );
                Some(self.poison(span))
            }
        }
    }

    /// Lowers arms `(pattern, guard, body)` over `scrutinee` into a `Match`.
    pub(crate) fn lower_match_arms(
        &mut self,
        scrutinee: Value,
        arms: Vec<(syn::Pat, Option<&syn::Expr>, ArmBody<'_, 'd>)>,
        span: Span,
    ) -> Option<Value> {
        let before = self.snapshot();
        let scrutinee_hint = self.func.values[scrutinee].ty.clone();
        let mut ir_arms = Vec::new();
        let mut ends = Vec::new();
        // Rust proved the arms exhaustive; with slice patterns turned into guards, the
        // `match` the rule emits needs a last arm for the lengths no pattern names.
        let mut arms = arms;
        let slices = arms.iter().any(|(p, _, _)| is_slice_pattern(p));
        let open_end = arms.last().is_some_and(|(p, g, _)| {
            g.is_some()
                || is_slice_pattern(p)
                || !matches!(
                    p,
                    syn::Pat::Wild(_) | syn::Pat::Ident(syn::PatIdent { subpat: None, .. })
                )
        });
        if slices && open_end {
            let unreachable: ArmBody<'_, 'd> = Box::new(move |lw: &mut Lowerer<'d>| {
                let e: syn::Expr = syn::parse_quote!(::core::unreachable!());
                lw.lower_expr(&e)
            });
            arms.push((syn::parse_quote!(_), None, unreachable));
        }
        let scrutinee_is_ref = matches!(scrutinee_hint, TypeHint::Ref(_));
        let scrutinee_is_mut = self.func.is_mut_ref(scrutinee);
        for (mut pat, guard, body) in arms {
            // `[first, rest @ ..] => ..` is `__fwdad_slice if len >= 1 => { let first =
            // __fwdad_slice[0]; let rest = &__fwdad_slice[1..]; .. }`.
            let slice = match slice_arm(&pat, scrutinee_is_ref, scrutinee_is_mut) {
                Ok(slice) => slice,
                Err(e) => {
                    self.diag.handle::<()>(Err(e));
                    pat = syn::parse_quote!(_);
                    None
                }
            };
            let (guard, lets): (Option<std::borrow::Cow<'_, syn::Expr>>, Vec<syn::Local>) =
                match slice {
                    Some(arm) => {
                        pat = arm.pat;
                        let test = arm.test;
                        let guard = match guard {
                            None => Some(test),
                            Some(g) => {
                                let lets = &arm.lets;
                                let sp = g.span();
                                self.diag
                                    .handle(splice!(sp=> (#test) && { #(#lets)* (#g) }))
                            }
                        };
                        (guard.map(std::borrow::Cow::Owned), arm.lets)
                    }
                    None => (guard.map(std::borrow::Cow::Borrowed), Vec::new()),
                };
            let guard = guard.as_deref();
            syn::visit_mut::VisitMut::visit_pat_mut(&mut NamedConstants, &mut pat);
            let borrowed = strip_ref_bindings(&mut pat, scrutinee_is_ref, scrutinee_is_mut);
            let mut errors = Vec::new();
            check_pattern(&pat, &mut errors);
            for (sp, msg) in errors {
                self.diag.error(sp, msg);
            }
            let mut bindings = Vec::new();
            pattern_bindings(&pat, &scrutinee_hint, &mut bindings);
            let guard_region = guard.map(|g| {
                let r = self.bound_region(&bindings);
                let end = self.lower_arm(r, &before, |lw| {
                    lw.bind_region_params(r, &bindings);
                    lw.borrow_bindings(&borrowed);
                    lw.lower_expr(g)
                });
                match end {
                    Some(end) if end.env_matches(&before) => {
                        self.func.regions[r].term = Terminator::Yield(vec![end.value()]);
                    }
                    _ => self.diag.error_spanned(&g, "`#[derive_frule]` does not support guards that assign variables, return or break"),
                }
                r
            });
            let body_region = self.bound_region(&bindings);
            let end = self.lower_arm(body_region, &before, |lw| {
                lw.bind_region_params(body_region, &bindings);
                lw.borrow_bindings(&borrowed);
                for l in &lets {
                    lw.lower_local(l)?;
                }
                body(lw)
            });
            ends.push((body_region, end));
            ir_arms.push(Arm {
                pat,
                guard: guard_region,
                body: body_region,
            });
        }
        let join = self.close_join(
            InstKind::Match {
                scrutinee,
                arms: ir_arms,
            },
            ends,
            &before,
            span,
        );
        let ty = join.ty();
        let v = join.value?;
        self.func.values[v].ty = ty;
        Some(v)
    }

    /// The slice pattern of `let [a, b] = p;` or `if let [a, b] = p` where `p` is a `&mut`
    /// array or slice (a `&mut` parameter or local) or `&mut ..`.
    pub(crate) fn slice_pattern_through_mut<'p>(
        &self,
        pat: &'p syn::Pat,
        init: &syn::Expr,
    ) -> Option<&'p syn::PatSlice> {
        let sl = match pat {
            syn::Pat::Slice(sl) => sl,
            syn::Pat::Type(pt) => match &*pt.pat {
                syn::Pat::Slice(sl) => sl,
                _ => return None,
            },
            syn::Pat::Paren(p) => return self.slice_pattern_through_mut(&p.pat, init),
            _ => return None,
        };
        let through_mut = match super::place::strip(init) {
            syn::Expr::Reference(r) => r.mutability.is_some(),
            syn::Expr::Path(p) => p.path.get_ident().is_some_and(|id| {
                self.lookup(&id.to_string())
                    .is_some_and(|v| self.func.is_mut_ref(v))
            }),
            _ => false,
        };
        through_mut.then_some(sl)
    }

    /// [`deref_scrutinee`], and a field (or an element) behind a reference matched by
    /// value with patterns that bind its data, `match self.spread { Spread::Fixed(v) =>
    /// .. }` through `&self`: Rust copies the bindings out of the place (it could not move
    /// them), so the rule matches `&self.spread` against `&Spread::Fixed(v)`, where moving
    /// the field's dual out of the reference was E0507.
    fn field_by_ref<'e>(&self, e: &'e syn::Expr, pats: &[&syn::Pat]) -> (Cow<'e, syn::Expr>, bool) {
        let (expr, through_ref) = deref_scrutinee(e, pats);
        let plain_bindings = pats
            .iter()
            .all(|p| !has_reference_pattern(p) && !has_ref_mut_binding(p));
        if through_ref
            || !matches!(
                super::place::strip(e),
                syn::Expr::Field(_) | syn::Expr::Index(_)
            )
            || !pats.iter().any(|p| holds_data_pattern(p))
            || !plain_bindings
            || !self.place_behind_ref(e)
        {
            return (expr, through_ref);
        }
        let borrowed = syn::Expr::Reference(syn::ExprReference {
            attrs: Vec::new(),
            and_token: syn::Token![&](e.span()),
            mutability: None,
            expr: Box::new(e.clone()),
        });
        (Cow::Owned(borrowed), true)
    }

    /// Whether the place `e` (`self.spread`, `comps[i].spread`, `(*c).spread`) is reached
    /// through a reference or an index, where Rust cannot move out of it.
    fn place_behind_ref(&self, e: &syn::Expr) -> bool {
        let mut cur = super::place::strip(e);
        let mut projected = false;
        loop {
            match cur {
                syn::Expr::Field(f) => {
                    projected = true;
                    cur = super::place::strip(&f.base);
                }
                syn::Expr::Index(_) => return true,
                syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => return projected,
                syn::Expr::Path(p) => {
                    return projected
                        && p.path.get_ident().is_some_and(|id| {
                            self.lookup(&id.to_string()).is_some_and(|v| {
                                matches!(self.func.values[v].ty, TypeHint::Ref(_))
                                    || self.func.is_mut_ref(v)
                            })
                        })
                }
                _ => return false,
            }
        }
    }

    /// Whether `e` names a local or parameter that is a `&mut` reference.
    fn names_mut_ref(&self, e: &syn::Expr) -> bool {
        match super::place::strip(e) {
            syn::Expr::Path(p) => p.path.get_ident().is_some_and(|id| {
                self.lookup(&id.to_string())
                    .is_some_and(|v| self.func.is_mut_ref(v))
            }),
            _ => false,
        }
    }

    /// Whether `e` names a local that is a reference (matched through Rust's default
    /// binding mode already).
    fn names_ref(&self, e: &syn::Expr) -> bool {
        match super::place::strip(e) {
            syn::Expr::Path(p) => p.path.get_ident().is_some_and(|id| {
                self.lookup(&id.to_string())
                    .is_some_and(|v| matches!(self.func.values[v].ty, TypeHint::Ref(_)))
            }),
            _ => false,
        }
    }

    /// Rebinds each name of a `ref` binding matched by value to a borrow of its value.
    fn borrow_bindings(&mut self, names: &[syn::Ident]) {
        for name in names {
            if let Some(v) = self.lookup(&name.to_string()) {
                let r = self.borrow(v, false, name.span());
                self.bind(name, r);
            }
        }
    }

    /// A fresh region whose parameters are values for `bindings`.
    fn bound_region(&mut self, bindings: &[(syn::Ident, TypeHint)]) -> Region {
        let r = self.new_region(vec![]);
        let params = bindings
            .iter()
            .enumerate()
            .map(|(k, (name, hint))| {
                let v = self
                    .func
                    .new_value(ValueDef::RegionParam(r, k), hint.clone());
                self.func.values[v].name = Some(name.clone());
                v
            })
            .collect();
        self.func.regions[r].params = params;
        r
    }

    /// Binds the pattern's names to the region's parameters, in a new scope.
    fn bind_region_params(&mut self, r: Region, bindings: &[(syn::Ident, TypeHint)]) {
        self.push_scope();
        let params = self.func.regions[r].params.clone();
        for ((name, _), p) in bindings.iter().zip(params) {
            self.bind(name, p);
        }
    }
}

/// `match *s { Shape::Circle { r } => .. }` matches the place `*s` without moving it (a
/// `Shape` need not be `Copy`); the macro reads `*s` as a value, so a scrutinee `*e` whose
/// patterns hold a struct or variant pattern is matched as `e` with `&pat` arms, which binds
/// the same values (and, like the place, cannot move a non-`Copy` field out). Likewise a
/// field matched against variants alone, binding nothing (astro's `match date.cal_type {
/// CalType::Gregorian => .., CalType::Julian => .. }` of a plain enum): as `&date.cal_type`.
fn deref_scrutinee<'e>(e: &'e syn::Expr, pats: &[&syn::Pat]) -> (Cow<'e, syn::Expr>, bool) {
    let variants_only =
        pats.iter().all(|p| binds_nothing(p)) && pats.iter().any(|p| holds_variant(p));
    match super::place::strip(e) {
        syn::Expr::Unary(u)
            if matches!(u.op, syn::UnOp::Deref(_))
                && (pats.iter().any(|p| holds_data_pattern(p)) || variants_only) =>
        {
            (Cow::Borrowed(&u.expr), true)
        }
        syn::Expr::Field(_) if variants_only => (
            Cow::Owned(syn::Expr::Reference(syn::ExprReference {
                attrs: Vec::new(),
                and_token: syn::Token![&](e.span()),
                mutability: None,
                expr: Box::new(e.clone()),
            })),
            true,
        ),
        _ => (Cow::Borrowed(e), false),
    }
}

/// Whether `pat` binds no name (variants, literals, ranges, `_`, and those nested).
fn binds_nothing(pat: &syn::Pat) -> bool {
    struct Find(bool);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_pat(&mut self, p: &'ast syn::Pat) {
            // A capitalised name is a unit variant or a constant (`None`, `MAX`).
            if let syn::Pat::Ident(i) = p {
                if i.subpat.is_some() || !crate::callee::is_capitalised(&i.ident.to_string()) {
                    self.0 = true;
                }
            }
            syn::visit::visit_pat(self, p);
        }
    }
    let mut f = Find(false);
    syn::visit::Visit::visit_pat(&mut f, pat);
    !f.0
}

/// Whether `pat` names a variant (`Node::Ascend`, `Shape::Rect { .. }`, `Some(_)`).
fn holds_variant(pat: &syn::Pat) -> bool {
    struct Find(bool);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_pat(&mut self, p: &'ast syn::Pat) {
            match p {
                syn::Pat::Path(_) | syn::Pat::Struct(_) | syn::Pat::TupleStruct(_) => self.0 = true,
                _ => {}
            }
            syn::visit::visit_pat(self, p);
        }
    }
    let mut f = Find(false);
    syn::visit::Visit::visit_pat(&mut f, pat);
    f.0
}

/// Whether `pat` holds a struct or tuple-struct pattern (`V2(x, y)`, `Foo { a, .. }`).
pub(super) fn holds_data_pattern(pat: &syn::Pat) -> bool {
    struct Find(bool);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_pat(&mut self, p: &'ast syn::Pat) {
            if matches!(p, syn::Pat::Struct(_) | syn::Pat::TupleStruct(_)) {
                self.0 = true;
            }
            syn::visit::visit_pat(self, p);
        }
    }
    let mut f = Find(false);
    syn::visit::Visit::visit_pat(&mut f, pat);
    f.0
}

/// `&pat` (`&(a..=b)`, `&(A | B)` where the pattern needs parentheses), or `&mut pat`.
fn ref_pattern(pat: &syn::Pat, mutable: bool) -> syn::Pat {
    let span = pat.span();
    let inner = match pat {
        syn::Pat::Range(_) | syn::Pat::Or(_) => syn::Pat::Paren(syn::PatParen {
            attrs: vec![],
            paren_token: syn::token::Paren(span),
            pat: Box::new(pat.clone()),
        }),
        syn::Pat::Ident(pi) if pi.subpat.is_some() => syn::Pat::Paren(syn::PatParen {
            attrs: vec![],
            paren_token: syn::token::Paren(span),
            pat: Box::new(pat.clone()),
        }),
        other => other.clone(),
    };
    syn::Pat::Reference(syn::PatReference {
        attrs: vec![],
        and_token: syn::Token![&](span),
        mutability: mutable.then(|| syn::Token![mut](span)),
        pat: Box::new(inner),
    })
}

/// The pattern `path(binding)` (`Some(__fwdad_ok)`), built without parsing.
fn one_field(path: syn::Path, binding: &syn::Ident) -> syn::Pat {
    let span = binding.span();
    let mut elems = syn::punctuated::Punctuated::new();
    elems.push(syn::Pat::Ident(syn::PatIdent {
        attrs: vec![],
        by_ref: None,
        mutability: None,
        ident: binding.clone(),
        subpat: None,
    }));
    syn::Pat::TupleStruct(syn::PatTupleStruct {
        attrs: vec![],
        qself: None,
        path,
        paren_token: syn::token::Paren(span),
        elems,
    })
}
