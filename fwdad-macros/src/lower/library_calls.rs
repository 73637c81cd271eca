//! nalgebra (and ndarray) calls lowered as the code they stand for, so that the passes see only what
//! they already know (a library constructor, indexed stores, the methods of points):
//! * `DMatrix::from_fn(r, c, |i, j| ..)`, `SMatrix::<f64, R, C>::from_fn(|i, j| ..)`,
//!   `DVector::from_fn(n, |i, _| ..)`, ndarray's `Array1::from_shape_fn(n, |i| ..)` and
//!   `Array2::from_shape_fn((r, c), |(i, j)| ..)`, `Array3::from_shape_fn((p, q, r), |(i, j, k)| ..)`: the matrix of zeros filled with the
//!   closure's values, in the library's order (column by column in nalgebra, row by row in
//!   ndarray; each entry is computed as the library does, so the primal is the same);
//! * ndarray's `a.map_inplace(|v| *v = ..)`: `a.mapv_inplace` of a closure that writes
//!   the element into a local cell through the user's `&mut` and returns the cell;
//! * ndarray's `Zip::from(&mut a).and(&b).for_each(|a, &b| ..)` and `azip!((a in &mut a,
//!   &b in &b) ..)`: the loop `for (a, &b) in a.iter_mut().zip(b.iter()) { .. }` over the
//!   elements in logical order (the order `Zip` takes for arrays in standard layout);
//! * nalgebra's free functions `distance`, `distance_squared`, `center`, `clamp` (called
//!   `nalgebra::distance`, `na::distance`): their bodies in nalgebra 0.35, written with
//!   the operators and methods of points.

use super::Lowerer;
use crate::ir::Value;
use crate::splice::{fill, Hole};
use syn::spanned::Spanned;

use crate::libtypes::{FromFn, NalgebraFreeFn as FreeFn};

/// The bodies of nalgebra's free functions lowering writes out.
trait Body {
    fn arity(self) -> usize;
    fn template(self, span: proc_macro2::Span) -> syn::Expr;
}

impl Body for FreeFn {
    fn arity(self) -> usize {
        match self {
            Self::Clamp => 3,
            _ => 2,
        }
    }

    /// The body, over the placeholders `__fwdad_a`, `__fwdad_b`, `__fwdad_c` for the
    /// arguments (bound once each, in order).
    fn template(self, span: proc_macro2::Span) -> syn::Expr {
        match self {
            // `(&p2.coords - &p1.coords).norm()`
            Self::Distance => syn::parse_quote_spanned!(span=> {
                let __fwdad_p1 = __fwdad_a;
                let __fwdad_p2 = __fwdad_b;
                (__fwdad_p2.coords - __fwdad_p1.coords).norm()
            }),
            Self::DistanceSquared => syn::parse_quote_spanned!(span=> {
                let __fwdad_p1 = __fwdad_a;
                let __fwdad_p2 = __fwdad_b;
                (__fwdad_p2.coords - __fwdad_p1.coords).norm_squared()
            }),
            // `((&p1.coords + &p2.coords) * 0.5).into()`: a point plus a vector, then times
            // a scalar, is the same sum and product of the coordinates.
            Self::Center => syn::parse_quote_spanned!(span=> {
                let __fwdad_p1 = __fwdad_a;
                let __fwdad_p2 = __fwdad_b;
                (*__fwdad_p1 + __fwdad_p2.coords) * 0.5
            }),
            Self::Clamp => syn::parse_quote_spanned!(span=> {
                let __fwdad_val = __fwdad_a;
                let __fwdad_min = __fwdad_b;
                let __fwdad_max = __fwdad_c;
                if __fwdad_val > __fwdad_min {
                    if __fwdad_val < __fwdad_max { __fwdad_val } else { __fwdad_max }
                } else {
                    __fwdad_min
                }
            }),
        }
    }
}

trait Loops {
    fn template(self, span: proc_macro2::Span) -> syn::Expr;
}

impl Loops for FromFn {
    /// The loops filling `__fwdad_m` (built by `__fwdad_zeros`) with `__fwdad_entry`'s
    /// values, in the library's order.
    fn template(self, span: proc_macro2::Span) -> syn::Expr {
        match self {
            Self::Nalgebra => syn::parse_quote_spanned!(span=> {
                let __fwdad_entry = __fwdad_closure;
                let mut __fwdad_m = __fwdad_zeros;
                for __fwdad_j in 0..__fwdad_m.ncols() {
                    for __fwdad_i in 0..__fwdad_m.nrows() {
                        __fwdad_m[(__fwdad_i, __fwdad_j)] = __fwdad_entry(__fwdad_i, __fwdad_j);
                    }
                }
                __fwdad_m
            }),
            Self::Ndarray1 => syn::parse_quote_spanned!(span=> {
                let __fwdad_entry = __fwdad_closure;
                let mut __fwdad_m = __fwdad_zeros;
                for __fwdad_i in 0..__fwdad_m.len() {
                    __fwdad_m[__fwdad_i] = __fwdad_entry(__fwdad_i);
                }
                __fwdad_m
            }),
            Self::Ndarray2 => syn::parse_quote_spanned!(span=> {
                let __fwdad_entry = __fwdad_closure;
                let mut __fwdad_m = __fwdad_zeros;
                for __fwdad_i in 0..__fwdad_m.nrows() {
                    for __fwdad_j in 0..__fwdad_m.ncols() {
                        __fwdad_m[[__fwdad_i, __fwdad_j]] = __fwdad_entry((__fwdad_i, __fwdad_j));
                    }
                }
                __fwdad_m
            }),
            Self::Ndarray3 => syn::parse_quote_spanned!(span=> {
                let __fwdad_entry = __fwdad_closure;
                let mut __fwdad_m = __fwdad_zeros;
                for __fwdad_i in 0..__fwdad_m.len_of(ndarray::Axis(0)) {
                    for __fwdad_j in 0..__fwdad_m.len_of(ndarray::Axis(1)) {
                        for __fwdad_k in 0..__fwdad_m.len_of(ndarray::Axis(2)) {
                            __fwdad_m[[__fwdad_i, __fwdad_j, __fwdad_k]] =
                                __fwdad_entry((__fwdad_i, __fwdad_j, __fwdad_k));
                        }
                    }
                }
                __fwdad_m
            }),
        }
    }
}

/// For `Ty::from_fn(.., |i, j| ..)` of a nalgebra matrix type or
/// `Array2::from_shape_fn(shape, |(i, j)| ..)`: the call of `Ty::zeros` with the same
/// sizes, and the closure. `None` for every other call.
fn from_fn(c: &syn::ExprCall) -> Option<(FromFn, syn::ExprCall, &syn::Expr)> {
    let syn::Expr::Path(p) = super::place::strip(&c.func) else {
        return None;
    };
    let n = p.path.segments.len();
    if p.qself.is_some() || n < 2 {
        return None;
    }
    let kind = FromFn::of_path(&p.path)?;
    let closure = c.args.last()?;
    if !matches!(super::place::strip(closure), syn::Expr::Closure(_)) {
        return None;
    }
    let mut zeros = c.clone();
    zeros.args = c.args.iter().take(c.args.len() - 1).cloned().collect();
    let syn::Expr::Path(zp) = &mut *zeros.func else {
        return None;
    };
    let last = zp.path.segments.last_mut()?;
    last.ident = syn::Ident::new("zeros", last.ident.span());
    Some((kind, zeros, closure))
}

/// `a.map_inplace(|v| body)` (ndarray, whose closure takes each element `&mut`) as
/// `a.mapv_inplace(|x| { let mut cell = x; { let v = &mut cell; body; } cell })`: the
/// same writes, each element's value computed as written. `None` for every other call.
pub(crate) fn desugar_map_inplace(m: &syn::ExprMethodCall) -> Option<syn::Expr> {
    if !crate::libtypes::is_ndarray_map_inplace(&m.method) || m.args.len() != 1 {
        return None;
    }
    let syn::Expr::Closure(c) = super::place::strip(&m.args[0]) else {
        return None;
    };
    if c.inputs.len() != 1 || c.asyncness.is_some() || c.capture.is_some() {
        return None;
    }
    let span = m.span();
    let template: syn::Expr = syn::parse_quote_spanned!(span=>
        __fwdad_recv.mapv_inplace(|__fwdad_x| {
            let mut __fwdad_cell = __fwdad_x;
            {
                let __fwdad_pat = &mut __fwdad_cell;
                __fwdad_body;
            }
            __fwdad_cell
        })
    );
    Some(fill(
        template,
        &[
            ("__fwdad_recv", Hole::Expr(&m.receiver)),
            ("__fwdad_pat", Hole::Pat(&c.inputs[0])),
            ("__fwdad_body", Hole::Expr(&c.body)),
        ],
    ))
}

/// One array `Zip` or `azip!` visits: the element pattern its closure binds and the
/// array as written (`&mut a`, `&b`, or a reference `b`).
pub(crate) struct ZipPart<'a> {
    pub(crate) pat: &'a syn::Pat,
    pub(crate) array: &'a syn::Expr,
}

/// `for (p0, (p1, ..)) in a0.iter_mut().zip(a1.iter())... { body }` for the parts of a
/// `Zip` or `azip!`: `&mut a` walks `a.iter_mut()`, `&a` and a reference `a` walk
/// `a.iter()`. `None` when a part is another producer (a view such as `a.rows_mut()`,
/// whose elements are lanes) or the body leaves the closure with `return`: those keep
/// the error.
pub(crate) fn zip_as_loop(parts: &[ZipPart<'_>], body: &syn::Expr) -> Option<syn::Expr> {
    use super::place::strip;
    if parts.is_empty() || returns(body) {
        return None;
    }
    let walk = |part: &ZipPart<'_>| -> Option<syn::Expr> {
        let (recv, method) = match strip(part.array) {
            syn::Expr::Reference(r) => {
                if !matches!(strip(&r.expr), syn::Expr::Path(_) | syn::Expr::Field(_)) {
                    return None;
                }
                let m = if r.mutability.is_some() {
                    "iter_mut"
                } else {
                    "iter"
                };
                (super::place::strip(&r.expr).clone(), m)
            }
            e @ syn::Expr::Path(_) => (e.clone(), "iter"),
            _ => return None,
        };
        Some(method_call(recv, method, part.array.span(), vec![]))
    };
    let mut iter = walk(&parts[0])?;
    let mut pat = untyped(parts[0].pat);
    for part in &parts[1..] {
        let next = walk(part)?;
        iter = method_call(iter, "zip", part.array.span(), vec![next]);
        pat = syn::Pat::Tuple(syn::PatTuple {
            attrs: vec![],
            paren_token: Default::default(),
            elems: [pat, untyped(part.pat)].into_iter().collect(),
        });
    }
    let span = body.span();
    let template: syn::Expr = syn::parse_quote_spanned!(span=>
        for __fwdad_pat in __fwdad_iter {
            __fwdad_body;
        }
    );
    Some(fill(
        template,
        &[
            ("__fwdad_pat", Hole::Pat(&pat)),
            ("__fwdad_iter", Hole::Expr(&iter)),
            ("__fwdad_body", Hole::Expr(body)),
        ],
    ))
}

/// `recv.method(args)`, built as a tree.
fn method_call(
    recv: syn::Expr,
    method: &str,
    span: proc_macro2::Span,
    args: Vec<syn::Expr>,
) -> syn::Expr {
    syn::Expr::MethodCall(syn::ExprMethodCall {
        attrs: vec![],
        receiver: Box::new(recv),
        dot_token: Default::default(),
        method: syn::Ident::new(method, span),
        turbofish: None,
        paren_token: Default::default(),
        args: args.into_iter().collect(),
    })
}

/// A closure parameter's pattern without its type (`p: &mut f64` binds `p`).
fn untyped(p: &syn::Pat) -> syn::Pat {
    match p {
        syn::Pat::Type(t) => (*t.pat).clone(),
        p => p.clone(),
    }
}

/// Whether `e` holds a `return` outside nested closures (it would leave the closure,
/// a `continue` in the loop).
fn returns(e: &syn::Expr) -> bool {
    struct Finder(bool);
    impl<'a> syn::visit::Visit<'a> for Finder {
        fn visit_expr_return(&mut self, _: &'a syn::ExprReturn) {
            self.0 = true;
        }
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
    }
    let mut f = Finder(false);
    syn::visit::Visit::visit_expr(&mut f, e);
    f.0
}

/// ndarray's `Zip::from(a).and(b)...for_each(|x, y, ..| body)` as [`zip_as_loop`]; `None`
/// for every other call.
pub(crate) fn desugar_zip(m: &syn::ExprMethodCall) -> Option<syn::Expr> {
    use super::place::strip;
    if !crate::libtypes::is_ndarray_zip_method(&m.method, "for_each") || m.args.len() != 1 {
        return None;
    }
    let syn::Expr::Closure(c) = strip(&m.args[0]) else {
        return None;
    };
    // The producers, from the last `and` back to `Zip::from`.
    let mut arrays = Vec::new();
    let mut e = strip(&m.receiver);
    loop {
        match e {
            syn::Expr::MethodCall(a)
                if crate::libtypes::is_ndarray_zip_method(&a.method, "and")
                    && a.args.len() == 1 =>
            {
                arrays.push(&a.args[0]);
                e = strip(&a.receiver);
            }
            syn::Expr::Call(call) if call.args.len() == 1 => {
                let syn::Expr::Path(p) = strip(&call.func) else {
                    return None;
                };
                if p.qself.is_some() || !crate::libtypes::is_ndarray_zip(&p.path) {
                    return None;
                }
                arrays.push(&call.args[0]);
                break;
            }
            _ => return None,
        }
    }
    arrays.reverse();
    if c.inputs.len() != arrays.len() || c.asyncness.is_some() || c.capture.is_some() {
        return None;
    }
    let parts: Vec<ZipPart<'_>> = c
        .inputs
        .iter()
        .zip(arrays)
        .map(|(pat, array)| ZipPart { pat, array })
        .collect();
    zip_as_loop(&parts, &c.body)
}

/// The arguments of `azip!((p in &mut a, &q in &b, ..) body)`; the form with `index i`
/// does not parse (it keeps the error).
pub(crate) struct AzipArgs {
    parts: Vec<(syn::Pat, syn::Expr)>,
    body: syn::Expr,
}

impl syn::parse::Parse for AzipArgs {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        let content;
        syn::parenthesized!(content in input);
        let mut parts = Vec::new();
        while !content.is_empty() {
            let pat = syn::Pat::parse_single(&content)?;
            content.parse::<syn::Token![in]>()?;
            let array: syn::Expr = content.parse()?;
            parts.push((pat, array));
            if content.is_empty() {
                break;
            }
            content.parse::<syn::Token![,]>()?;
        }
        let body: syn::Expr = input.parse()?;
        Ok(AzipArgs { parts, body })
    }
}

/// ndarray's `azip!` as [`zip_as_loop`]; `None` when its arguments are not `(pat in
/// array, ..) body`.
pub(crate) fn desugar_azip(mac: &syn::Macro) -> Option<syn::Expr> {
    let args: AzipArgs = mac.parse_body().ok()?;
    let parts: Vec<ZipPart<'_>> = args
        .parts
        .iter()
        .map(|(pat, array)| ZipPart { pat, array })
        .collect();
    zip_as_loop(&parts, &args.body)
}

impl Lowerer<'_> {
    /// Lowers `c` when it is one of the library calls of the module docs; `None` when it
    /// is not.
    pub(crate) fn lower_library_call(&mut self, c: &syn::ExprCall) -> Option<Option<Value>> {
        if let Some((kind, zeros, closure)) = from_fn(c) {
            let template = kind.template(c.span());
            let zeros = syn::Expr::Call(zeros);
            let e = fill(
                template,
                &[
                    ("__fwdad_closure", Hole::Expr(closure)),
                    ("__fwdad_zeros", Hole::Expr(&zeros)),
                ],
            );
            return Some(self.lower_expr(&e));
        }
        let syn::Expr::Path(p) = super::place::strip(&c.func) else {
            return None;
        };
        if p.qself.is_some() {
            return None;
        }
        let f = FreeFn::of_path(&p.path)?;
        if c.args.len() != f.arity() {
            return None;
        }
        let args: Vec<_> = c.args.iter().collect();
        let holes: Vec<_> = ["__fwdad_a", "__fwdad_b", "__fwdad_c"]
            .into_iter()
            .zip(&args)
            .map(|(n, a)| (n, Hole::Expr(a)))
            .collect();
        let e = fill(f.template(c.span()), &holes);
        Some(self.lower_expr(&e))
    }
}
