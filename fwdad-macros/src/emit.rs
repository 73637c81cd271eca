//! `emit`: IR + activity + plans → the body of the rule, as Rust tokens.
//!
//! A tree walk: each instruction becomes `let vN = <expr>;`, with the instruction's source
//! span on the expression so type errors and missing rules point at the user's code;
//! `If` becomes `let (..) = if c { ..; (ys) } else { ..; (ys) };`; loops keep their
//! carried values in `let mut` cells around a labelled Rust `loop`/`for`, so the rule's
//! control flow is exactly the primal's. Operands are coerced as the plan says: promoted
//! to constant duals (`constant_in::<S, _>(v)`), or read through `.primal`.
//!
//! Generated names (`v7`, `__c3_0`, `'__fwdad_l3`) are made at `Span::mixed_site()`, so
//! they can neither capture nor be captured by the user's names.

mod linear;

use crate::activity::Activity;
use crate::callee::{FloatOp, MethodCallee, PathCallee, StdMacro, StdMethod, Wrapper};
use crate::dual::{DualPlan, Form, Need};
use crate::ir::{
    Arm, BinOp, Capture, Function, Inst, InstKind, Place, Region, Terminator, UnOp, Value, ValueDef,
};
use crate::linear::Linear;
use crate::types::TypeHint;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::ext::IdentExt;
use syn::visit_mut::VisitMut;

/// Emits the statements of the rule's body (after the parameters are bound). With a
/// linearisation, the body is emitted twice (three times with a one-direction one,
/// `simplified`) and the mode picks one at compile time: `if <S as Mode>::LINEARIZE
/// { linearised } else if <S as Mode>::LINEARIZE_SINGLE_ROOT { simplified } else { line
/// by line }`.
pub fn emit_body(
    func: &Function,
    active: &Activity,
    plans: &DualPlan,
    linear: Option<&Linear>,
    simplified: Option<&Linear>,
    rt: &TokenStream,
    mode: &syn::Ident,
) -> TokenStream {
    let mut e = Emitter::new(func, active, plans, rt, mode, None);
    let mut out = e.prelude();
    let plain = e.region(func.body, Tail::Return);
    let plain = match simplified {
        Some(lin) => {
            e.lin = Some(lin);
            e.one_direction = true;
            let simplified = e.region(func.body, Tail::Return);
            (e.lin, e.one_direction) = (None, false);
            e.coefs.clear();
            e.coef_size.clear();
            e.lin_partials_at.clear();
            e.phi_sizes.clear();
            e.scales.clear();
            e.owned_roots.clear();
            quote! {
                if <#mode as #rt::Mode>::LINEARIZE_SINGLE_ROOT { #simplified } else { #plain }
            }
        }
        None => plain,
    };
    let body = match linear {
        Some(lin) => {
            e.lin = Some(lin);
            let linearised = e.region(func.body, Tail::Return);
            quote! {
                if <#mode as #rt::Mode>::LINEARIZE { #linearised } else { #plain }
            }
        }
        None => plain,
    };
    // Declared only when used: an unused cell's type could not be inferred.
    out.extend(e.take_cells());
    if e.elem_at {
        out.extend(quote!(use #rt::ElemAt as _;));
    }
    // The methods of a `Complex<f64>` the syntax does not show is one (a derived
    // function's result, an element of a `Vec`), which are dispatched as a user type's.
    if cfg!(feature = "num-complex") {
        out.extend(quote!(#[allow(unused_imports)] use #rt::complex::methods::ComplexRules as _;));
    }
    // `x.modulus()`, `x.argument()`, .. of nalgebra's `ComplexField` on a real scalar (a
    // function generic over `T: ComplexField`), dispatched as a trait's methods on floats.
    if cfg!(feature = "nalgebra") {
        out.extend(quote!(#[allow(unused_imports)] use #rt::complex_field::FieldRules as _;));
    }
    out.extend(body);
    out
}

/// The name of the rule's `i`-th argument (the dual as passed in).
pub fn param_ident(i: usize) -> syn::Ident {
    format_ident!("__fwdad_arg{}", i, span = Span::mixed_site())
}

/// The names the Jacobian entry takes its sink (`out`), its arguments' columns (`cols`)
/// and binds argument `k`'s column (`col<k>`) to.
pub fn jac_ident(name: &str) -> syn::Ident {
    format_ident!("__fwdad_{}", name, span = Span::mixed_site())
}

/// The statements of the Jacobian entry (`Frule::chain_jacobian`, see `crate::chainjac`),
/// after the parameters are bound: the linearised body (or, forwarding, the body with its
/// call replaced by the callee's entry), each returned value's coefficients written to
/// the sink `__fwdad_out` at its roots' columns; its value is whether the entry ran.
pub fn emit_chain_jacobian(
    func: &Function,
    active: &Activity,
    plans: &DualPlan,
    linear: Option<&Linear>,
    plan: &crate::chainjac::JacPlan,
    rt: &TokenStream,
    mode: &syn::Ident,
) -> TokenStream {
    let mut e = Emitter::new(func, active, plans, rt, mode, Some(plan));
    e.lin = linear;
    let mut out = e.prelude();
    let cols = jac_ident("cols");
    for i in 0..func.params.len() {
        let c = jac_ident(&format!("col{i}"));
        out.extend(
            quote!(let #c: ::core::option::Option<usize> = match #cols.get(#i) {
            ::core::option::Option::Some(c) => *c,
            ::core::option::Option::None => ::core::option::Option::None,
        };),
        );
    }
    if plan.call.is_none() {
        let (sink, nrows) = (jac_ident("out"), plan.nrows);
        out.extend(quote!(#rt::JacobianSink::rows(#sink, #nrows);));
    }
    let body = e.region(func.body, Tail::Return);
    out.extend(e.take_cells());
    if e.elem_at {
        out.extend(quote!(use #rt::ElemAt as _;));
    }
    // The methods of a `Complex<f64>` the syntax does not show is one (a derived
    // function's result, an element of a `Vec`), which are dispatched as a user type's.
    if cfg!(feature = "num-complex") {
        out.extend(quote!(#[allow(unused_imports)] use #rt::complex::methods::ComplexRules as _;));
    }
    // `x.modulus()`, `x.argument()`, .. of nalgebra's `ComplexField` on a real scalar (a
    // function generic over `T: ComplexField`), dispatched as a trait's methods on floats.
    if cfg!(feature = "nalgebra") {
        out.extend(quote!(#[allow(unused_imports)] use #rt::complex_field::FieldRules as _;));
    }
    out.extend(body);
    out
}

impl Emitter<'_> {
    /// The column of `c` (`rt::column(col<k>, offsets)`): an `Option<usize>`. An offset
    /// is read as the index it is (a rule's integer result is a dual: its primal).
    fn jac_column(&mut self, c: &crate::chainjac::Col) -> TokenStream {
        let rt = self.rt;
        let base = jac_ident(&format!("col{}", c.param));
        let offsets: Vec<_> = c
            .offsets
            .iter()
            .map(|o| self.operand(*o, Need::Primal))
            .collect();
        quote!(#rt::column(#base, 0usize #(+ #offsets)*))
    }
}

struct Emitter<'a> {
    func: &'a Function,
    active: &'a Activity,
    plans: &'a DualPlan,
    /// The path to `fwdad::__private`.
    rt: &'a TokenStream,
    /// The mode type parameter.
    mode: &'a syn::Ident,
    /// Enclosing loops, innermost last.
    loops: Vec<Inst>,
    /// Counter of the generated temporaries' names ([`Self::temp`]).
    temps: usize,
    /// Set while emitting the linearised copy of the body.
    lin: Option<&'a Linear>,
    /// Set while emitting the one-direction copy (`crate::simplify`): coefficients fold
    /// constant factors (`∂(c·t·t)/∂t = 2·(c·t)`).
    one_direction: bool,
    /// Coefficients `∂v/∂r` of linearised values, by `(v, r)`.
    coefs: std::collections::HashMap<(Value, Value), linear::Coef>,
    /// How large each coefficient in `coefs` may be ([`linear::Size`]): whether a product
    /// formed it that may have overflowed.
    coef_size: std::collections::HashMap<(Value, Value), linear::Size>,
    /// The partials of each linearised instruction as `lin_inst` bound them, with their
    /// sizes: the overflow guard's sweep applies them to tangents one by one.
    lin_partials_at: std::collections::HashMap<Inst, Vec<(linear::Coef, linear::Size)>>,
    /// The sizes of a linearised `if`'s phi partials, by `(phi, operand)`: the largest of
    /// the coefficients its arms yield.
    phi_sizes: std::collections::HashMap<(Inst, usize), linear::Size>,
    /// One direction: the power of two each deferred tangent is held divided by
    /// (`Linear::deferrable`, `Linear::accumulators`).
    scales: std::collections::HashMap<Value, i32>,
    /// Owned copies of borrowed roots, by `(root, region)`.
    owned_roots: std::collections::HashMap<(Value, Region), syn::Ident>,
    /// Zero-tangent cells of promoted references, per scope that runs once per call or
    /// per iteration: the function body (which also holds the cells of `inactive`
    /// parameters), then each enclosing loop body (innermost last). Never empty.
    cells: Vec<Vec<syn::Ident>>,
    /// The scope (index into `cells`) each emitted value is defined in.
    depth: std::collections::HashMap<Value, usize>,
    /// Temporaries an `if`/`match` arm borrows, declared before it
    /// (`hoist_arm_temporaries`): their instructions assign them.
    hoisted: std::collections::HashSet<Value>,
    /// Whether `&x[i]` or `&x[a..b]` is read through `ElemAt` (with autoref), whose
    /// import the body then needs.
    elem_at: bool,
    /// Values of library types (`crate::libtypes`): an active one is the library's type
    /// over duals, and an inactive one is promoted by `lift`.
    lib: crate::ir::entity::SecondaryMap<Value, bool>,
    /// Values that are nalgebra matrices: an inactive one meets an active one in a mixed
    /// operation (`nalgebra_linalg::mixed_mul`), not lifted to constant duals.
    /// Values that are ndarray arrays: an element of an inactive one in a loop over its
    /// elements is read in logical order (`a[i]` indexes one axis only).
    ndarray: crate::ir::entity::SecondaryMap<Value, bool>,
    nalgebra: crate::ir::entity::SecondaryMap<Value, bool>,
    /// Values of glam's `f32` types: a scalar beside one is made an `f32` dual
    /// (`glam::f32_scalar`), whatever float type rustc gives a literal or constant.
    glam_f32: crate::ir::entity::SecondaryMap<Value, bool>,
    /// Set while emitting the Jacobian entry (`crate::chainjac`): returned chain values
    /// write their coefficients to the sink (the tangents assembled beside them are never
    /// read, and the compiler drops them).
    jac: Option<&'a crate::chainjac::JacPlan>,
    /// In the Jacobian entry, the coefficients of each materialised value by column: what
    /// a later value that reads it multiplies through.
    jac_terms: std::collections::HashMap<Value, Vec<(crate::chainjac::Col, TokenStream)>>,
    /// The stand-in rules emitted so far, by method name ([`no_rule_fallback`]): each gets
    /// names of its own, which rustc then prints without the path of the rule around them.
    stand_ins: std::collections::HashMap<String, usize>,
    /// Where each value is used (`crate::linear::uses`), computed when first asked.
    uses: std::cell::OnceCell<std::collections::HashMap<Value, Vec<Option<Inst>>>>,
}

impl<'a> Emitter<'a> {
    /// An emitter of `func`'s body (`jac`: of its Jacobian entry instead).
    fn new(
        func: &'a Function,
        active: &'a Activity,
        plans: &'a DualPlan,
        rt: &'a TokenStream,
        mode: &'a syn::Ident,
        jac: Option<&'a crate::chainjac::JacPlan>,
    ) -> Self {
        Emitter {
            func,
            active,
            plans,
            rt,
            mode,
            loops: Vec::new(),
            temps: 0,
            lin: None,
            one_direction: false,
            coefs: Default::default(),
            coef_size: Default::default(),
            lin_partials_at: Default::default(),
            phi_sizes: Default::default(),
            scales: Default::default(),
            owned_roots: Default::default(),
            cells: vec![Vec::new()],
            depth: Default::default(),
            hoisted: Default::default(),
            elem_at: false,
            lib: crate::libtypes::lib_values(func),
            nalgebra: crate::libtypes::nalgebra_values(func),
            ndarray: crate::libtypes::ndarray_values(func),
            glam_f32: crate::libtypes::glam_f32_values(func),
            jac,
            jac_terms: Default::default(),
            stand_ins: Default::default(),
            uses: Default::default(),
        }
    }

    /// Whether `x[i]` (instruction `inst`, result `v`) of a batch's linearised copy reads
    /// its element by reference (`index_ref`): `x` a `&[f64]` (or `&[f32]`) parameter and
    /// every reader of `v` a linearised instruction, which reads a root through `&`
    /// (`lin::p`, `lin::axpy`). A copy of the element's tangent (a whole batch) made where
    /// the body reads it stays a copy: behind a `sin` or any call, LLVM cannot read the
    /// caller's slice in its place, so every batched rule copied each element root's
    /// lanes to the stack at its read and loaded them again at each update (BA's 2×15
    /// block: 14 roots of 15 lanes per call). By reference, each update loads its lanes
    /// where it needs them, from the caller's tangents.
    fn reads_element_by_ref(&self, inst: Inst, v: Value) -> bool {
        let (Some(lin), None, false) = (self.lin, self.jac, self.one_direction) else {
            return false;
        };
        let InstKind::Index { base, .. } = &self.func.insts[inst].kind else {
            return false;
        };
        let ValueDef::Param(p) = self.func.values[*base].def else {
            return false;
        };
        let float_slice = matches!(&self.func.params[p].ty, syn::Type::Reference(r)
            if r.mutability.is_none()
                && matches!(&*r.elem, syn::Type::Slice(s)
                    if matches!(TypeHint::from_type(&s.elem), TypeHint::Float)));
        if !float_slice
            || !self.is(*base)
            || !self.is(v)
            || self.func.annotations.contains_key(&v)
            || lin.mutated.contains(&v)
        {
            return false;
        }
        let uses = self.uses.get_or_init(|| crate::linear::uses(self.func));
        uses.get(&v).is_some_and(|us| {
            us.iter().all(|u| {
                u.is_some_and(|i| lin.ops.contains_key(&i) && !lin.lin_ifs.contains_key(&i))
            })
        })
    }

    /// ndarray's `arr2(&[[0.5, -0.3], ..])` of constants, bound untyped: its scalar is
    /// `f64`, which the lifts that later meet it do not tell rustc. (Out of [`Self::inst`],
    /// whose stack frame bounds how deeply a body may nest.)
    #[inline(never)]
    fn typed_ndarray_ctor(&self, kind: &InstKind, e: TokenStream, span: Span) -> TokenStream {
        let rt = &self.rt;
        match matches!(kind, InstKind::Call { func, .. }
            if crate::libtypes::ndarray_free_ctor(func).is_some())
            && self.func.float_params.is_empty()
        {
            true => quote_spanned!(span=> #rt::f64_array(#e)),
            false => e,
        }
    }

    /// ndarray's `arr1(&[x, y])` of duals: the array over duals as it is.
    #[inline(never)]
    fn ndarray_ctor_of_duals(
        &self,
        inst: Inst,
        kind: &InstKind,
        args: &[TokenStream],
        span: Span,
    ) -> TokenStream {
        let (rt, mode) = (&self.rt, &self.mode);
        let elems: Vec<TokenStream> = args
            .iter()
            .map(|a| quote_spanned!(span=> &#rt::arr_elems::<#mode, _>(#a)))
            .collect();
        self.primal_expr(inst, kind, &elems, span)
    }

    /// The body's items and its parameters bound by name: an active one (and a borrowed
    /// `inactive` one, the plain value as passed) as it came, any other by its primal.
    fn prelude(&self) -> TokenStream {
        let mut out = TokenStream::new();
        for item in &self.func.items {
            out.extend(quote!(#item));
        }
        for (i, p) in self.func.params.iter().enumerate() {
            let v = self.name(p.value);
            let arg = param_ident(i);
            out.extend(if self.is(p.value) || p.inactive {
                quote!(let mut #v = #arg;)
            } else {
                quote!(let mut #v = #arg.primal;)
            });
        }
        out
    }
}

/// What a region's `Yield` means where it is emitted.
#[derive(Clone, Copy)]
enum Tail {
    /// The function body: its value is returned.
    Return,
    /// An `If` branch: yields the results of this instruction.
    If(Inst),
    /// A loop body: yields the next values of the carried cells.
    Loop(Inst),
    /// A match guard: yields its `bool`.
    Guard,
}

impl Emitter<'_> {
    fn is(&self, v: Value) -> bool {
        *self.active.get(v)
    }

    fn name(&self, v: Value) -> syn::Ident {
        let hint = self.func.values[v]
            .name
            .as_ref()
            .map(|n| n.to_string())
            .unwrap_or_default();
        let hint: String = hint
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        // Hygienic (mixed-site) but located at the user's expression, so errors point there.
        let span = Span::mixed_site().located_at(self.func.value_span(v));
        if hint.is_empty() {
            format_ident!("{}", v.to_string(), span = span)
        } else {
            format_ident!("{}_{}", v.to_string(), hint, span = span)
        }
    }

    fn cell(&self, inst: Inst, k: usize) -> syn::Ident {
        format_ident!(
            "__c{}_{}",
            crate::ir::entity::EntityRef::index(inst),
            k,
            span = Span::mixed_site()
        )
    }

    fn label(&self, inst: Inst) -> syn::Lifetime {
        syn::Lifetime::new(
            &format!("'__fwdad_l{}", crate::ir::entity::EntityRef::index(inst)),
            Span::mixed_site(),
        )
    }

    /// `v` as a dual (promoted if inactive).
    fn dual(&mut self, v: Value) -> TokenStream {
        if self.is_undef(v) {
            return self.undef_dual_at(v, !*self.lib.get(v));
        }
        // A library value in the library's form over duals (a constant, or a parameter's
        // dual of the whole value).
        if *self.lib.get(v) {
            let name = self.name(v);
            let vspan = self.func.value_span(v);
            return self.lift(&quote!(#name), v, vspan);
        }
        self.dual_of_whole(v)
    }

    /// `v` as the dual of its whole value (a library value too: what a rule takes).
    fn dual_of_whole(&mut self, v: Value) -> TokenStream {
        let name = self.name(v);
        if self.is(v) || self.is_unit_enum(v) {
            return quote!(#name);
        }
        // An inactive parameter is passed in as a dual with a zero tangent (unless it is
        // declared `inactive`); a constant shared reference gets its zero tangent through
        // `Promoted`.
        if let ValueDef::Param(i) = self.func.values[v].def {
            if !self.func.params[i].inactive {
                let arg = param_ident(i);
                return quote!(#arg);
            }
        }
        if let Some(promoted) = self.promoted_arg(v, false) {
            return quote!(#promoted.dual());
        }
        let (rt, mode) = (self.rt, self.mode);
        let vspan = self.func.value_span(v);
        // `None` needs no zero tangent of its payload (which may be a reference).
        if self.is_none_const(v) {
            return quote_spanned!(vspan=> #rt::none_in::<#mode, _>(#name));
        }
        // Nor does an empty `Vec` of its elements (which may be sub-slices).
        if self.is_empty_vec(v) {
            return quote_spanned!(vspan=> #rt::empty_vec_in::<#mode, _>(#name));
        }
        quote_spanned!(vspan=> #rt::constant_in::<#mode, _>(#name))
    }

    /// The function's result `v` as a dual: a library value over duals becomes the dual
    /// of the whole value (`Dual<Vector3<f64>, Vector3<S>>`), the rule's result type.
    fn returned(&mut self, v: Value) -> TokenStream {
        if *self.lib.get(v) {
            let (rt, mode) = (self.rt, self.mode);
            let lifted = self.dual(v);
            let vspan = self.func.value_span(v);
            return quote_spanned!(vspan=> #rt::unlift::<#mode, _>(#lifted));
        }
        self.dual(v)
    }

    /// Operand `v` (emitted as `a`) of a library operation in the library's form over
    /// duals (`crate::libtypes`): a constant or a parameter's dual goes through `lift`, by
    /// reference where the value is a reference (`&Vector3<f64>`), as the library's
    /// methods take it; a library value computed in the body is already in that form.
    fn lift(&self, a: &TokenStream, v: Value, span: Span) -> TokenStream {
        let (rt, mode) = (self.rt, self.mode);
        let lib = *self.lib.get(v);
        if self.func.values[v].ty.is_non_differentiable()
            || (lib && self.is(v) && !crate::libtypes::is_param(self.func, v))
        {
            return a.clone();
        }
        // A borrowed library value, or a borrowed slice of floats (`from_column_slice(x)`),
        // lifted into a temporary and borrowed again.
        let slice =
            matches!(&self.func.values[v].ty, TypeHint::Ref(t) if matches!(**t, TypeHint::Seq(_)));
        if (lib || slice) && matches!(self.func.values[v].ty, TypeHint::Ref(_)) {
            quote_spanned!(span=> (&#rt::lift::<#mode, _>(#a)))
        } else if lib && crate::libtypes::is_owned_dynamic_param(self.func, v) {
            quote_spanned!(span=> #rt::lift::<#mode, _>(&#a))
        } else {
            quote_spanned!(span=> #rt::lift::<#mode, _>(#a))
        }
    }

    /// Whether `v` is a float scalar (not a library value, an integer or a collection): an
    /// operand beside an `f32` glam value that `glam::f32_scalar` converts.
    fn is_glam_f32_scalar(&self, v: Value) -> bool {
        !*self.lib.get(v) && matches!(self.func.values[v].ty, TypeHint::Float | TypeHint::Unknown)
    }

    /// Whether `inst` borrows a scalar field of an active library value over duals (`p.x`
    /// of a computed point, as a method's receiver), which `Form::Lib` reads by value.
    fn is_lib_scalar_field(&self, inst: Inst) -> bool {
        let data = &self.func.insts[inst];
        matches!(data.kind, InstKind::FieldRef { .. })
            && self.plans.get(inst).form == Form::Lib
            && data.results.first().is_some_and(|r| !*self.lib.get(*r))
    }

    /// Whether `inst` is `&x`, `&x[a..b]`, `&x[i]` or `&x.f` (a shared reference made in
    /// the body, promoted through `Promoted`).
    fn is_shared_ref_inst(&self, inst: Inst) -> bool {
        matches!(
            self.func.insts[inst].kind,
            InstKind::Ref { mutable: false, .. }
                | InstKind::Slice { mutable: false, .. }
                | InstKind::ElemRef { mutable: false, .. }
                | InstKind::FieldRef { mutable: false, .. }
        )
    }

    /// The function-scope cell holding the zero tangent of `inactive` parameter `i`.
    fn param_cell(&mut self, i: usize) -> syn::Ident {
        let cell = format_ident!("__fwdad_zp{}", i, span = Span::mixed_site());
        let function_scope = &mut self.cells[0];
        if !function_scope.contains(&cell) {
            function_scope.push(cell.clone());
        }
        cell
    }

    /// A constant shared reference as `Promoted`: passed to another rule, it gives a
    /// parameter declared `inactive` the plain reference and builds the zero tangent only
    /// for a parameter that takes a dual. The tangent lives in a cell: for an `inactive`
    /// parameter one at function scope (built at most once per call, and borrowable from
    /// a promotion inside a branch or loop); for a local reference one at the start of the
    /// innermost loop body (or the function) in which its operands are defined, so that a
    /// promoted dual may leave a branch through its merge, and an iteration through a
    /// carried variable when its referent is defined outside the loop, while the cell is
    /// still fresh whenever the promotion's shape may change. A sub-slice `&c[..i]` or an
    /// element `&c[i]` of a loop's `i` instead borrows its part of `c`'s zero tangent,
    /// in a cell where `c` is defined (`part_of_base`), so that it too may be carried into
    /// the next iteration. `None` for other values. With `probe` (an argument of a call), a
    /// parameter declared `inactive` or a reference into one is passed plain where its type
    /// has no zero tangent (`probe_promotion`).
    fn promoted_arg(&mut self, v: Value, probe: bool) -> Option<TokenStream> {
        let cell = match self.func.values[v].def {
            ValueDef::Param(i) if self.func.params[i].inactive => {
                let cell = self.param_cell(i);
                quote!(&#cell)
            }
            ValueDef::Inst(inst, 0) if self.split_half(inst).is_some() => {
                // A half of `c.split_at(k)` on constant data: its part of `c`'s zero
                // tangent, in a cell where `c` is defined.
                let Part { base, at, .. } = self.split_half(inst)?;
                let cell = self.temp("__z");
                let scope = self.scope_of(&[base]);
                let scope = self.fresh_past_reshaping(scope, v);
                self.cells[scope].push(cell.clone());
                let (rt, mode) = (self.rt, self.mode);
                let vspan = self.func.value_span(v);
                let (base, name) = (self.name(base), self.name(v));
                return Some(quote_spanned!(vspan=>
                    #rt::Promoted::<_, #mode>::sub(&#base[..], #at, #name, &#cell)));
            }
            ValueDef::Inst(inst, 0) if self.is_shared_ref_inst(inst) => {
                let cell = self.temp("__z");
                let part = self.part_of_base(inst);
                // A part's cell holds its base's zero tangent, so only the base decides
                // where it lives; anything else depends on all its operands.
                let scope = match &part {
                    Some(p) => self.scope_of(&[p.base]),
                    None => self.scope_of(&self.func.operands(inst)),
                };
                let scope = self.fresh_past_reshaping(scope, v);
                self.cells[scope].push(cell.clone());
                let (rt, mode) = (self.rt, self.mode);
                let vspan = self.func.value_span(v);
                if let Some(Part { base, at, elem }) = part {
                    let (base, name) = (self.name(base), self.name(v));
                    if probe && self.is_inactive_data(v) {
                        let cell = quote!(&#cell);
                        return Some(probe_part(rt, mode, &base, &at, &name, &cell, elem, vspan));
                    }
                    return Some(if elem {
                        quote_spanned!(vspan=>
                            #rt::PromotedElem::<_, #mode>::new(&#base[..], #at, &#cell))
                    } else {
                        quote_spanned!(vspan=>
                            #rt::Promoted::<_, #mode>::sub(&#base[..], #at, #name, &#cell))
                    });
                }
                quote!(&#cell)
            }
            _ => return None,
        };
        let (rt, mode, name) = (self.rt, self.mode, self.name(v));
        let vspan = self.func.value_span(v);
        if probe && self.is_inactive_data(v) {
            return Some(probe_promotion(rt, mode, &name, &cell, vspan));
        }
        Some(quote_spanned!(vspan=> #rt::Promoted::<_, #mode>::new(#name, #cell)))
    }

    /// Whether `v` is a parameter declared `&dyn Trait` (`&(dyn Trait + Send)`).
    fn is_dyn_ref_param(&self, v: Value) -> bool {
        let ValueDef::Param(i) = self.func.values[v].def else {
            return false;
        };
        let syn::Type::Reference(r) = &self.func.params[i].ty else {
            return false;
        };
        let mut elem = &*r.elem;
        while let syn::Type::Paren(p) = elem {
            elem = &p.elem;
        }
        matches!(elem, syn::Type::TraitObject(_))
    }

    /// Whether `v` is a borrowed parameter declared `inactive`, or a shared reference into
    /// one (`&cfg.table`): constant data of a type that may have no zero tangent. (One
    /// taken by value, `tip: V`, keeps its error: a rule cannot take it borrowed.)
    /// Also a reference into a `const` or `static` item (`&KNOBS`, `&TABLE.rows`), whose
    /// type the macro does not see: a settings struct without `Differentiable` passed to
    /// a parameter that takes it plain (`cfg: &Knobs`).
    fn is_inactive_data(&self, v: Value) -> bool {
        let root = self.func.place_root(v);
        match self.func.values[root].def {
            ValueDef::Param(i) if self.func.params[i].inactive => {
                root != v || matches!(self.func.params[i].ty, syn::Type::Reference(_))
            }
            ValueDef::Inst(inst, 0) => {
                root != v
                    && !self.is(root)
                    && matches!(&self.func.insts[inst].kind, InstKind::Const(path)
                        if !crate::callee::is_none(path))
            }
            _ => false,
        }
    }

    /// Whether `v` is the result of `Box::new(..)` of a value (not a closure).
    fn is_box_new(&self, v: Value) -> bool {
        let ValueDef::Inst(inst, 0) = self.func.values[v].def else {
            return false;
        };
        matches!(
            &self.func.insts[inst].kind,
            InstKind::Call { func, callee: crate::callee::PathCallee::Assoc, .. }
                if crate::callee::is_box_new(func)
        )
    }

    /// `Box::new(v)` of a value boxed as a trait object of the user's
    /// (`Function::box_dyn`): the box of its carrier, with `v`'s tangent (`arg`, its dual)
    /// or, for a constant (a box of a trait object is built as a carrier whatever its
    /// value, `activity`), a zero one. Out of line: `emit_inst`'s frame is on the stack
    /// once per nested region.
    #[inline(never)]
    fn carried_box(&self, inst: Inst, v: Value, arg: &TokenStream, span: Span) -> TokenStream {
        let mode = self.mode;
        let object = self.func.insts[inst]
            .results
            .first()
            .and_then(|r| self.func.box_dyn.get(r));
        match self.is(v) {
            true => quote_spanned!(span=> <#object>::box_with_its_derivative::<#mode, _>(#arg)),
            false => {
                let name = self.name(v);
                quote_spanned!(span=> <#object>::box_constant::<#mode, _>(#name))
            }
        }
    }

    /// Whether merge result `t` (of an `if` or `match`) has, among its incoming values,
    /// a shared reference the body makes (`&x[i]`, `&x`, `&x[a..b]`, `&x.f`).
    fn merges_with_shared_ref(&self, t: Value) -> bool {
        let ValueDef::Inst(inst, k) = self.func.values[t].def else {
            return false;
        };
        if !matches!(
            self.func.insts[inst].kind,
            InstKind::If { .. } | InstKind::Match { .. }
        ) {
            return false;
        }
        self.func.inst_regions(inst).into_iter().any(|r| {
            self.func
                .term_operands(r)
                .get(k)
                .is_some_and(|&y| match self.func.values[y].def {
                    ValueDef::Inst(i, 0) => self.is_shared_ref_inst(i),
                    _ => false,
                })
        })
    }

    /// The result of a call (a function without a rule, or a method) as `Promoted`, in a
    /// cell where its operands are defined; `None` for other values.
    fn promoted_call_result(&mut self, v: Value) -> Option<TokenStream> {
        let ValueDef::Inst(inst, 0) = self.func.values[v].def else {
            return None;
        };
        if !matches!(
            self.func.insts[inst].kind,
            InstKind::Call { .. } | InstKind::MethodCall { .. }
        ) {
            return None;
        }
        let cell = self.temp("__z");
        let scope = self.scope_of(&self.func.operands(inst));
        let scope = self.fresh_past_reshaping(scope, v);
        self.cells[scope].push(cell.clone());
        let (rt, mode, name) = (self.rt, self.mode, self.name(v));
        let vspan = self.func.value_span(v);
        Some(quote_spanned!(vspan=> #rt::Promoted::<_, #mode>::new(#name, &#cell)))
    }

    /// The innermost scope (index into `cells`) in which all of `values` are defined.
    fn scope_of(&self, values: &[Value]) -> usize {
        let innermost = self.cells.len() - 1;
        values
            .iter()
            .map(|o| match self.func.values[*o].def {
                ValueDef::Param(_) => 0,
                _ => self.depth.get(o).copied().unwrap_or(innermost),
            })
            .max()
            .unwrap_or(0)
            .min(innermost)
    }

    /// `scope`, or the body of a deeper enclosing loop that may change the referent of `v`
    /// in place (`c.push(..)`, a store, a `&mut` borrow): the cell must be fresh in every
    /// iteration of such a loop, or its zero tangent keeps the referent's first shape.
    /// Nothing is lost: while a loop changes the referent, borrowck lets no reference
    /// into it live on to the next iteration.
    fn fresh_past_reshaping(&self, scope: usize, v: Value) -> usize {
        let root = self.func.place_root(v);
        let innermost = self.cells.len() - 1;
        (scope + 1..=innermost)
            .rev()
            .find(|&k| {
                let Some(&inst) = self.loops.get(k - 1) else {
                    return false;
                };
                let body = match &self.func.insts[inst].kind {
                    InstKind::Loop { body, .. } | InstKind::For { body, .. } => *body,
                    _ => return false,
                };
                self.func.reshapes(body, root)
            })
            .unwrap_or(scope)
    }

    /// A shared reference to a part of a base whose zero tangent can be cut from the
    /// base's: a sub-slice `&base[range]` with the range written out (`a..b`, `..b`, `a..`,
    /// `a..=b`, `..`), or an element `&base[i]` whose index changes in a loop that the base
    /// is defined outside of (elsewhere `&base[i]` stays a `Promoted` of its own, which
    /// needs no slice of the base).
    fn part_of_base(&self, inst: Inst) -> Option<Part> {
        match self.func.insts[inst].kind {
            InstKind::Slice {
                base,
                range,
                mutable: false,
            } => {
                let ValueDef::Inst(r, 0) = self.func.values[range].def else {
                    return None;
                };
                let InstKind::Range { start, .. } = self.func.insts[r].kind else {
                    return None;
                };
                let at = match start {
                    Some(s) => {
                        let s = self.name(s);
                        quote!(#s)
                    }
                    None => quote!(0),
                };
                Some(Part {
                    base,
                    at,
                    elem: false,
                })
            }
            InstKind::ElemRef {
                base,
                index,
                mutable: false,
            } if self.scope_of(&[index]) > self.scope_of(&[base]) => {
                let i = self.name(index);
                Some(Part {
                    base,
                    at: quote!(#i),
                    elem: true,
                })
            }
            _ => None,
        }
    }

    /// `inst` as a half of a shared split, `c.split_at(k).0` (at 0) or `.1` (at `k`).
    fn split_half(&self, inst: Inst) -> Option<Part> {
        let InstKind::Field { base, member } = &self.func.insts[inst].kind else {
            return None;
        };
        let ValueDef::Inst(call, 0) = self.func.values[*base].def else {
            return None;
        };
        let InstKind::MethodCall {
            receiver,
            args,
            callee,
            ..
        } = &self.func.insts[call].kind
        else {
            return None;
        };
        if !callee.std().is_some_and(|m| m.splits_shared()) || self.is_mut_ref(*receiver) {
            return None;
        }
        let at = match member {
            syn::Member::Unnamed(i) if i.index == 0 => quote!(0),
            syn::Member::Unnamed(i) if i.index == 1 => {
                let k = self.name(*args.first()?);
                quote!(#k)
            }
            _ => return None,
        };
        Some(Part {
            base: *receiver,
            at,
            elem: false,
        })
    }

    /// A fresh name for a generated temporary: `prefix` and a counter, hygienic.
    fn temp(&mut self, prefix: &str) -> syn::Ident {
        let n = self.temps;
        self.temps += 1;
        format_ident!("{}{}", prefix, n, span = Span::mixed_site())
    }

    /// Whether `v` is an active value of a linearised chain, materialised in the linearised
    /// copy of the body: a real scalar dual (`lin::dual`), whatever its type in the source.
    fn is_lin_scalar(&self, v: Value) -> bool {
        let Some(lin) = self.lin else {
            return false;
        };
        self.is(v)
            && lin.materialize.contains(&v)
            && matches!(self.func.values[v].def, ValueDef::Inst(i, _) if lin.ops.contains_key(&i))
    }

    /// Whether `v` is a mutable reference (see [`Function::is_mut_ref`]). Passing it on
    /// must reborrow, or it would be moved.
    /// Whether `v` is `&mut buf` of a constant local `Vec` or array of non-differentiable
    /// elements (`let mut log: Vec<String>`), which a rule's `&mut Vec<String>` parameter
    /// takes with a tangent of its own ([`fwdad_runtime::frule::LentMut`]).
    fn lends_constant_buffer(&self, v: Value) -> bool {
        if self.is(v) {
            return false;
        }
        let ValueDef::Inst(inst, 0) = self.func.values[v].def else {
            return false;
        };
        let InstKind::Ref { mutable: true, arg } = self.func.insts[inst].kind else {
            return false;
        };
        matches!(&self.func.values[arg].ty, TypeHint::Seq(e)
            if matches!(**e, TypeHint::NonDiff | TypeHint::Int | TypeHint::Bool))
    }

    fn is_mut_ref(&self, v: Value) -> bool {
        self.func.is_mut_ref(v)
    }

    /// Whether `v` is the value of a diverging macro (`panic!`, `unreachable!`, ...,
    /// lowered as the runtime's `fail(msg)`).
    fn diverges(&self, v: Value) -> bool {
        match self.func.values[v].def {
            ValueDef::Inst(inst, 0) => match &self.func.insts[inst].kind {
                InstKind::Print { mac, .. } => mac.default_message().is_some(),
                InstKind::Call { func, .. } => crate::callee::is_runtime_fail(func),
                _ => false,
            },
            _ => false,
        }
    }

    /// Whether `v` is a field read or borrowed (`s.f`, `&s.f`): a value whose type the
    /// macro does not see.
    fn is_field(&self, v: Value) -> bool {
        match self.func.values[v].def {
            ValueDef::Inst(inst, 0) => matches!(
                self.func.insts[inst].kind,
                InstKind::Field { .. } | InstKind::FieldRef { .. }
            ),
            _ => false,
        }
    }

    /// Whether the syntax shows nothing of `v`'s type: a field, what a function or a
    /// method of the user's returned, through copies and borrows.
    fn is_untyped_receiver(&self, v: Value) -> bool {
        if self.func.annotations.contains_key(&v) {
            return false;
        }
        match self.func.values[v].def {
            ValueDef::Inst(inst, 0) => match &self.func.insts[inst].kind {
                InstKind::Field { .. } | InstKind::FieldRef { .. } => true,
                InstKind::Copy(a)
                | InstKind::Ref { arg: a, .. }
                | InstKind::Unary {
                    op: crate::ir::UnOp::Deref,
                    arg: a,
                } => self.is_untyped_receiver(*a),
                InstKind::Call { callee, .. } => {
                    matches!(callee, PathCallee::Function | PathCallee::Assoc)
                }
                InstKind::MethodCall { callee, .. } => *callee == MethodCallee::User,
                _ => false,
            },
            _ => false,
        }
    }

    /// Whether `v` is the constant `None` (through copies).
    /// Whether `v` is a `Vec::new()` (or a copy of one) that nothing else reads or
    /// changes before this use: still empty here, so its constant dual needs no zero
    /// tangent of an element (`let mut rows = Vec::new();` then `rows.push(&x[a..b])`).
    fn is_empty_vec(&self, v: Value) -> bool {
        let used_once = |v: Value| {
            let mut n = 0;
            for (r, region) in self.func.regions.iter() {
                for &i in &region.insts {
                    n += self
                        .func
                        .operands(i)
                        .into_iter()
                        .filter(|o| *o == v)
                        .count();
                }
                n += self
                    .func
                    .term_operands(r)
                    .into_iter()
                    .filter(|o| *o == v)
                    .count();
            }
            n == 1
        };
        let mut v = v;
        loop {
            if !used_once(v) {
                return false;
            }
            let ValueDef::Inst(inst, 0) = self.func.values[v].def else {
                return false;
            };
            match &self.func.insts[inst].kind {
                InstKind::Copy(src) => v = *src,
                kind => return is_vec_new_call(kind),
            }
        }
    }

    /// Whether `v` is a value of an enum of units declared without `Differentiable`
    /// (`plain_fns::unit_enum`): a parameter of that type, which is constant data, or a
    /// variant (`Scheme::Midpoint`). It holds no float and has no tangent type, so a
    /// rule takes it plain, and it is passed on as it is.
    fn is_unit_enum(&self, v: Value) -> bool {
        let caller = self.func.name.to_string();
        match self.func.values[v].def {
            ValueDef::Param(i) => match &self.func.params[i].ty {
                syn::Type::Path(p) if self.func.params[i].inactive && p.qself.is_none() => {
                    crate::plain_fns::unit_enum(&caller, &p.path)
                }
                _ => false,
            },
            ValueDef::Inst(inst, 0) => match &self.func.insts[inst].kind {
                InstKind::Const(p) if p.segments.len() == 2 && p.leading_colon.is_none() => {
                    let mut prefix = p.clone();
                    prefix.segments.pop();
                    prefix.segments.pop_punct();
                    crate::plain_fns::unit_enum(&caller, &prefix)
                }
                InstKind::Copy(src) => self.is_unit_enum(*src),
                _ => false,
            },
            _ => false,
        }
    }

    fn is_none_const(&self, v: Value) -> bool {
        match self.func.values[v].def {
            ValueDef::Inst(inst, 0) => match &self.func.insts[inst].kind {
                InstKind::Const(p) => crate::callee::is_none(p),
                InstKind::Copy(src) => self.is_none_const(*src),
                _ => false,
            },
            _ => false,
        }
    }

    /// Whether `v` is the value of `let p;` before its first assignment (the runtime's
    /// `undef()`). It is written out where it is used, where the type it must have is
    /// known from the other values it merges with, rather than bound to a variable whose
    /// type nothing would tell.
    fn is_undef(&self, v: Value) -> bool {
        match self.func.values[v].def {
            ValueDef::Inst(inst, 0) => matches!(
                self.func.insts[inst].kind,
                InstKind::Call {
                    callee: PathCallee::Undef,
                    ..
                }
            ),
            _ => false,
        }
    }

    /// [`Self::undef_at`], or for a value that is a `Dual` the runtime's `undef_dual()`,
    /// whose bound is on the primal type: the error of `let p;` of a type without a
    /// default value then names the user's type (`Pt`), not its dual.
    #[inline(never)]
    fn undef_dual_at(&self, v: Value, dual: bool) -> TokenStream {
        match dual {
            true => self.undef_call(v, format_ident!("undef_dual")),
            false => self.undef_at(v),
        }
    }

    /// The runtime's `undef()` for `v` (see `is_undef`), every token at the user's `let`,
    /// where an error about the variable's type then points.
    fn undef_at(&self, v: Value) -> TokenStream {
        self.undef_call(v, format_ident!("undef"))
    }

    /// `rt::f()` at the user's `let` of `v`.
    fn undef_call(&self, v: Value, f: syn::Ident) -> TokenStream {
        let span = self.func.value_span(v);
        let rt = self.rt;
        quote_spanned!(span=> #rt::#f())
            .into_iter()
            .map(|mut t| {
                t.set_span(span);
                t
            })
            .collect()
    }

    /// Whether `v` is a `const` or `static` item read by path (not a unit struct, not
    /// `None`), whose type the macro does not see.
    fn is_const_item(&self, v: Value) -> bool {
        match self.func.values[v].def {
            ValueDef::Inst(inst, 0) => match &self.func.insts[inst].kind {
                InstKind::Const(p) => {
                    !crate::callee::is_none(p)
                        && p.segments.last().is_some_and(|s| {
                            let name = s.ident.to_string();
                            name.chars().any(|c| c.is_ascii_uppercase())
                                && !name.chars().any(|c| c.is_ascii_lowercase())
                        })
                        && matches!(self.func.values[v].ty, TypeHint::Unknown)
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// Whether `v` is a `const`/`static` item read only as a place (indexed, a field read,
    /// or the receiver of a read-only `std` method: `TABLE.len()`, `TABLE.iter()` lowered to
    /// `&TABLE[i]`): it is bound by reference, since a `static` of a non-`Copy` type
    /// (`static REACTIONS: [Reaction; 2]`) cannot be moved into a local.
    fn const_item_read_in_place(&self, v: Value) -> bool {
        if !self.is_const_item(v) {
            return false;
        }
        let in_terms = self.func.regions.iter().any(|(_, r)| match &r.term {
            Terminator::Return(x) => *x == v,
            Terminator::Yield(xs)
            | Terminator::Break { values: xs, .. }
            | Terminator::Continue { values: xs, .. } => xs.contains(&v),
            Terminator::Unreachable => false,
        });
        !in_terms
            && self.func.insts.iter().all(|(i, data)| {
                !self.func.operands(i).contains(&v)
                    || match &data.kind {
                        InstKind::Index { base, index } | InstKind::ElemRef { base, index, .. } => {
                            *base == v && *index != v
                        }
                        // `STEEL.e` of a `static STEEL: Material` (a struct not `Copy`).
                        InstKind::Field { base, .. } => *base == v,
                        InstKind::MethodCall {
                            receiver,
                            args,
                            callee,
                            ..
                        } => {
                            *receiver == v
                                && !args.contains(&v)
                                && callee.std().is_some_and(|m| m.is_read_only())
                        }
                        _ => false,
                    }
            })
    }

    /// `v` coerced for a use that needs `need`.
    fn operand(&mut self, v: Value, need: Need) -> TokenStream {
        let rt = self.rt;
        if self.is_undef(v) {
            return self.undef_at(v);
        }
        let name = self.name(v);
        let lib_scalar_field = match self.func.values[v].def {
            ValueDef::Inst(inst, 0) => self.is_lib_scalar_field(inst),
            _ => false,
        };
        match need {
            _ if lib_scalar_field => match need {
                Need::Primal => quote!(#name.primal),
                _ => quote!(#name),
            },
            Need::AsIs | Need::Dual if self.is(v) && self.is_mut_ref(v) && !*self.lib.get(v) => {
                quote!(#rt::reborrow(&mut #name))
            }
            // A borrowed library value over duals (`&mut iso.rotation`) is a plain `&mut`.
            Need::AsIs | Need::Dual if self.is_mut_ref(v) && *self.lib.get(v) => {
                quote!((&mut *#name))
            }
            Need::AsIs | Need::Dual if self.is_mut_ref(v) => quote!(&mut *#name),
            Need::AsIs => quote!(#name),
            Need::Dual => self.dual(v),
            // An absorbed chain value has only its primal (a comparison reads it).
            Need::Primal if self.is(v) && self.lin.is_some_and(|l| l.absorbed(v)) => {
                let p = self.lin_primal_name(v);
                quote!(#p)
            }
            Need::Primal if self.is(v) => quote!(#name.primal),
            Need::Primal => quote!(#name),
        }
    }

    /// The values `vs` coerced to the activity of `targets` (merges).
    /// Merged duals under their target's annotation go through `coerce_to`, the
    /// conversions of a call's arguments (an array or `Vec` reference into a slice), as
    /// the plain value would coerce to the annotated variable. `let p: T;`'s `undef()`
    /// (among `vs`) takes its type from the annotation itself.
    fn coerce_annotated(
        &self,
        ys: Vec<TokenStream>,
        vs: &[Value],
        targets: &[Value],
    ) -> Vec<TokenStream> {
        let rt = self.rt;
        ys.into_iter()
            .zip(vs.iter().zip(targets))
            .map(|(y, (v, t))| {
                if self.is(*t) && self.func.annotations.contains_key(t) && !self.is_undef(*v) {
                    quote!(#rt::coerce_to(#y))
                } else {
                    y
                }
            })
            .collect()
    }

    fn merge_values(&mut self, vs: &[Value], targets: &[Value]) -> Vec<TokenStream> {
        vs.iter()
            .zip(targets)
            .map(|(&v, &t)| {
                // A diverging arm's value (`_ => panic!(..)`) is `!`: it takes any type, and
                // a promotion would need a zero tangent of it (none for a `&mut f64`).
                if self.diverges(v) {
                    let name = self.name(v);
                    return quote!(#name);
                }
                if self.is_undef(v) {
                    return self.undef_dual_at(v, self.is(t) && !*self.lib.get(t));
                }
                if self.is(t) && !self.is(v) && self.merges_with_shared_ref(t) {
                    // A constant reference a call returned, merged with a reference into
                    // active data: it is a reference too, promoted like `&c`.
                    match self.promoted_call_result(v) {
                        Some(p) => quote!(#p.dual()),
                        None => self.dual(v),
                    }
                } else if self.is(t) && *self.lib.get(t) && !*self.lib.get(v) {
                    // A library value over duals takes the dual of a whole value a rule
                    // returned (`x = xn` of `let (xn, pn) = predict(&x, &p)`) lifted.
                    let (rt, mode) = (self.rt, self.mode);
                    let d = self.dual(v);
                    quote!(#rt::lift::<#mode, _>(#d))
                } else if self.is(t) {
                    self.dual(v)
                } else {
                    self.operand(v, Need::Primal)
                }
            })
            .collect()
    }

    fn region(&mut self, r: Region, tail: Tail) -> TokenStream {
        let mut out = TokenStream::new();
        let insts = self.func.regions[r].insts.clone();
        let scopes = guard_scopes(self.func, &insts);
        let mut k = 0;
        while k < insts.len() {
            let Some(scope) = scopes.iter().find(|s| s.chain[0] == k) else {
                out.extend(self.inst(insts[k]));
                k += 1;
                continue;
            };
            // What the statement computes between the guard and its last reader reads no
            // value of the chain: it runs first, then the chain in a block that drops the
            // guard, as the end of the user's statement does.
            let end = *scope.chain.last().unwrap_or(&k);
            for (p, &inst) in insts.iter().enumerate().take(end + 1).skip(k) {
                if !scope.chain.contains(&p) {
                    out.extend(self.inst(inst));
                }
            }
            let inner: TokenStream = scope.chain.iter().map(|p| self.inst(insts[*p])).collect();
            out.extend(match scope.result {
                Some(v) if scope.chain.len() > 1 => {
                    let name = self.name(v);
                    quote!(let mut #name = { #inner #name };)
                }
                Some(_) => inner,
                None => quote!({ #inner }),
            });
            k = end + 1;
            // The readers and writers through the guard, then its drop.
            if let Some((last, v)) = scope.drop_after {
                while k <= last {
                    out.extend(self.inst(insts[k]));
                    k += 1;
                }
                let (rt, name) = (self.rt, self.name(v));
                out.extend(quote!(#rt::drop(#name);));
            }
        }
        let term = match (&self.func.regions[r].term, tail) {
            // The Jacobian entry's value: whether it ran (a forwarding body: the callee's).
            (Terminator::Return(_) | Terminator::Yield(_), Tail::Return)
                if self.jac.is_some() && r == self.func.body =>
            {
                match self.jac.and_then(|p| p.call.as_ref()) {
                    Some((call, _)) => {
                        let ok = self.name(self.func.insts[*call].results[0]);
                        quote!(#ok)
                    }
                    None => quote!(true),
                }
            }
            (Terminator::Return(v), Tail::Return)
                if matches!(self.func.regions[r].term, Terminator::Return(_))
                    && r == self.func.body =>
            {
                let d = self.returned(*v);
                quote!(#d)
            }
            (Terminator::Return(v), _) => {
                let d = self.returned(*v);
                quote!(return #d;)
            }
            (Terminator::Yield(vs), Tail::Return) => {
                // The body region yields only if lowering ended without a return.
                let ds: Vec<_> = vs.iter().map(|v| self.returned(*v)).collect();
                quote!(#(#ds)*)
            }
            (Terminator::Yield(vs), Tail::If(inst)) => {
                let results = self.func.insts[inst].results.clone();
                let ys = self.merge_values(vs, &results);
                let ys = self.coerce_annotated(ys, vs, &results);
                match ys.as_slice() {
                    [y] => quote!(#y),
                    ys => quote!((#(#ys),*)),
                }
            }
            (Terminator::Yield(vs), Tail::Guard) => {
                let g: Vec<_> = vs.iter().map(|v| self.operand(*v, Need::Primal)).collect();
                quote!(#(#g)*)
            }
            (Terminator::Yield(vs), Tail::Loop(inst)) => {
                let assigns = self.assign_cells(inst, vs);
                quote!(#assigns)
            }
            (Terminator::Break { depth, values }, _) => self.jump(*depth, values, true),
            (Terminator::Continue { depth, values }, _) => self.jump(*depth, values, false),
            // The diverging `if` or `match` before it ends the block.
            (Terminator::Unreachable, _) => quote!(),
        };
        out.extend(term);
        out
    }

    /// The carried-value parameters of a loop body (after the element, for `for`).
    fn carried_params(&self, inst: Inst) -> Vec<Value> {
        match &self.func.insts[inst].kind {
            InstKind::Loop { body, .. } => self.func.regions[*body].params.clone(),
            InstKind::For { body, .. } => self.func.regions[*body].params[1..].to_vec(),
            _ => vec![],
        }
    }

    /// `__c_k = v_k;` for a loop's carried cells.
    fn assign_cells(&mut self, inst: Inst, vs: &[Value]) -> TokenStream {
        let params = self.carried_params(inst);
        let ys = self.merge_values(vs, &params);
        let ys = self.coerce_annotated(ys, vs, &params);
        let cells: Vec<_> = (0..params.len()).map(|k| self.cell(inst, k)).collect();
        quote!(#(#cells = #ys;)*)
    }

    fn jump(&mut self, depth: usize, values: &[Value], is_break: bool) -> TokenStream {
        let Some(&target) = self
            .loops
            .len()
            .checked_sub(depth + 1)
            .and_then(|i| self.loops.get(i))
        else {
            return quote!(::core::unreachable!());
        };
        let label = self.label(target);
        if !is_break {
            let assigns = self.assign_cells(target, values);
            return quote!({ #assigns continue #label; });
        }
        match &self.func.insts[target].kind {
            InstKind::Loop { .. } => {
                let value_target = self.func.insts[target].results[0];
                let v = self.merge_values(&values[..1], &[value_target]);
                let assigns = self.assign_cells(target, &values[1..]);
                let v = &v[0];
                quote!({ let __fwdad_break = #v; #assigns break #label __fwdad_break; })
            }
            _ => {
                let assigns = self.assign_cells(target, values);
                quote!({ #assigns break #label; })
            }
        }
    }

    fn inst(&mut self, inst: Inst) -> TokenStream {
        let scope = self.cells.len() - 1;
        for &r in &self.func.insts[inst].results {
            self.depth.insert(r, scope);
        }
        // `let p;`: its value is written where it is used (see `is_undef`).
        if self.func.insts[inst]
            .results
            .first()
            .is_some_and(|&r| self.is_undef(r))
        {
            return TokenStream::new();
        }
        if self.jac.is_some_and(|p| p.output == Some(inst)) {
            return TokenStream::new(); // the entry writes the returned values to its sink
        }
        if let Some(lin) = self.lin.filter(|l| l.lin_ifs.contains_key(&inst)) {
            let mut out = self.lin_if(inst, lin);
            if lin.ops.contains_key(&inst) {
                out.extend(self.lin_inst(inst, lin)); // an `if` of one result: its phi
            }
            return out;
        }
        if let Some(lin) = self.lin.filter(|l| l.ops.contains_key(&inst)) {
            return self.lin_inst(inst, lin);
        }
        // Each family of instructions is emitted by a function of its own, out of line:
        // `inst` recurses once per nested `if`, `match` or loop (through `region`), so its
        // frame is kept small (see `crate::nesting`). Keep code out of it.
        match &self.func.insts[inst].kind {
            InstKind::If {
                then_region,
                else_region,
                ..
            } => self.emit_if(inst, *then_region, *else_region),
            InstKind::Match { scrutinee, arms } => self.emit_match_inst(inst, *scrutinee, arms),
            InstKind::Loop { init, .. } | InstKind::For { init, .. } => {
                self.emit_loop_inst(inst, init)
            }
            _ => self.emit_value(inst),
        }
    }

    /// The operands of `inst`, each in the form its plan reads it.
    #[inline(never)]
    fn inst_args(&mut self, inst: Inst) -> Vec<TokenStream> {
        let data = &self.func.insts[inst];
        let plan = self.plans.get(inst).clone();
        let ops = self.func.operands(inst);
        // Scalar rules read their operands by value: an active `&mut f64` (`r.sin()` on a
        // `&mut f64` parameter) is read through `*`, not reborrowed.
        let scalar_rule = matches!(plan.form, Form::Op(_) | Form::SinCos);
        let rt = self.rt;
        let rule_call = matches!(plan.form, Form::Frule | Form::AssocFrule | Form::UserMethod);
        // Into a tuple, array, struct or `Some(..)`, a `&mut` moves, as in Rust (a reborrow of
        // an arm's binding would not outlive the arm: `let Some(d) = &mut o else { .. }`).
        let aggregate = match &plan.form {
            Form::Tuple | Form::Array | Form::Struct | Form::VecList | Form::Range => true,
            // `Some(d)`, `Ok(d)`; not `swap(a, b)` and the other runtime calls.
            Form::Wrap(w) => w.is_constructor(),
            _ => false,
        };
        // A library value over duals stored into a plain container or value (`out.push(z)`
        // of a `Complex`, `Some(z)`, `Filter { z, .. }`): the dual of the whole value, as
        // those hold it.
        // So is one stored into a field or through a reference (`self.z = z * step`).
        // Not in plain Rust (`fixed.mul_vec3(v)` of constants, beside `turn.mul_vec3(v)`).
        let into_plain = plan.form != Form::Lib
            && plan.form != (Form::Primal { promote: false })
            && !rule_call
            && (aggregate
                || matches!(data.kind, InstKind::MethodCall { .. })
                || matches!(
                    &data.kind,
                    InstKind::Store {
                        place: Place::Field(..) | Place::Deref(_),
                        ..
                    }
                ));
        let args: Vec<TokenStream> = ops
            .iter()
            .zip(plan.needs.iter().chain(std::iter::repeat(&Need::AsIs)))
            .enumerate()
            .map(|(k, (&v, &n))| {
                let receiver = k == 0
                    && matches!(
                        data.kind,
                        InstKind::MethodCall { .. } | InstKind::Store { .. }
                    );
                if into_plain && !receiver && *self.lib.get(v) {
                    if self.is(v) && !crate::libtypes::is_param(self.func, v) {
                        let (name, mode_ts) = (self.name(v), self.mode);
                        quote!(#rt::unlift::<#mode_ts, _>(#name))
                    } else {
                        self.dual_of_whole(v)
                    }
                } else if scalar_rule && self.is(v) && self.is_mut_ref(v) {
                    let name = self.name(v);
                    quote!(#rt::deref(&#name))
                } else if (aggregate && self.is(v) && self.is_mut_ref(v))
                    || (rule_call && n == Need::Dual && self.is_unit_enum(v))
                {
                    // A `&mut` dual passed on as it is; an enum of units, which a rule
                    // takes plain.
                    let name = self.name(v);
                    quote!(#name)
                } else if rule_call && n == Need::Dual && !self.is(v) {
                    match self.promoted_arg(v, true) {
                        Some(arg) => arg,
                        // A constant `Box::new(..)` to a function: `ConstBox` also unsizes
                        // to a `Box<dyn Tr>` parameter (`traits::UnsizeFrom` in the runtime).
                        None if plan.form == Form::Frule && !receiver && self.is_box_new(v) => {
                            let (name, mode) = (self.name(v), self.mode);
                            let vspan = self.func.value_span(v);
                            quote_spanned!(vspan=> #rt::traits::ConstBox::<_, #mode>::new(#name))
                        }
                        None if *self.lib.get(v) => self.dual_of_whole(v),
                        // A `const`/`static` item (a coefficient table `ERF_AN: &[f64]`):
                        // its type is not known here, and a borrowed one has no zero
                        // tangent in memory; `const_arg` gives it one by type.
                        None if self.is_const_item(v) => {
                            let (name, mode) = (self.name(v), self.mode);
                            let vspan = self.func.value_span(v);
                            quote_spanned!(vspan=> #rt::const_arg::<#mode, _>(#name))
                        }
                        None => self.operand(v, n),
                    }
                } else if (rule_call || aggregate) && *self.lib.get(v) {
                    // A library value over duals passed to a rule: the dual of the whole
                    // value, borrowed where the value is a reference (`g(&v)`).
                    let name = self.name(v);
                    let mode_ts = self.mode;
                    if crate::libtypes::is_param(self.func, v) {
                        quote!(#name)
                    } else if matches!(self.func.values[v].ty, TypeHint::Ref(_)) {
                        quote!(&#rt::unlift::<#mode_ts, _>(#name))
                    } else {
                        quote!(#rt::unlift::<#mode_ts, _>(#name))
                    }
                } else {
                    self.operand(v, n)
                }
            })
            .collect();
        args
    }

    /// An `if` (`inst`) with its arms.
    #[inline(never)]
    fn emit_if(&mut self, inst: Inst, t: Region, e: Region) -> TokenStream {
        let span = self.func.insts[inst].span;
        let args = self.inst_args(inst);
        let cond = &args[0];
        let (hoisted, new) = self.hoist_arm_temporaries(inst);
        let then_b = self.region(t, Tail::If(inst));
        let else_b = self.region(e, Tail::If(inst));
        let lhs = self.lhs(inst);
        self.hoisted.retain(|v| !new.contains(v));
        quote_spanned!(span=> #hoisted #lhs if #cond { #then_b } else { #else_b };)
    }

    /// A `match` (`inst`) with its arms.
    #[inline(never)]
    fn emit_match_inst(&mut self, inst: Inst, scrutinee: Value, arms: &[Arm]) -> TokenStream {
        let args = self.inst_args(inst);
        let arms = arms.to_vec();
        let (hoisted, new) = self.hoist_arm_temporaries(inst);
        let out = self.emit_match(inst, scrutinee, &arms, &args[0], hoisted);
        self.hoisted.retain(|v| !new.contains(v));
        out
    }

    /// A loop (`inst`) with its body.
    #[inline(never)]
    fn emit_loop_inst(&mut self, inst: Inst, init: &[Value]) -> TokenStream {
        // Its operands are read as any instruction's (which may declare their cells).
        self.inst_args(inst);
        self.emit_loop(inst, init.to_vec(), TokenStream::new())
    }

    /// An instruction that computes values (not control flow): `let vN = ..;`.
    #[inline(never)]
    fn emit_value(&mut self, inst: Inst) -> TokenStream {
        let args = self.inst_args(inst);
        let data = &self.func.insts[inst];
        let span = data.span;
        let plan = self.plans.get(inst).clone();
        let ops = self.func.operands(inst);
        let mut pre = TokenStream::new();
        let rt = self.rt;
        let mode = self.mode;
        let expr: TokenStream = match (&data.kind, &plan.form) {
            (kind, Form::Primal { promote }) => self.emit_primal(inst, kind, *promote, &args),
            (_, Form::Op(op)) => self.emit_float_op(inst, *op, &args),
            (_, Form::Copy) => args[0].clone(),
            (kind, Form::Wrap(w)) => self.emit_wrap(inst, kind, *w, &args),
            (_, Form::SinCos) => quote_spanned!(span=> #rt::sin_cos_dual(#(#args),*)),
            // The library's own code on its type over duals: each operand lifted (a
            // constant to constant duals, a parameter's dual to the library's form).
            (kind, Form::Lib) => self.emit_lib(inst, kind, &args, &ops, &mut pre),
            (
                InstKind::MethodCall {
                    receiver, method, ..
                },
                Form::UserMethod,
            ) => self.emit_user_method(inst, *receiver, method, &args, &ops, &mut pre),
            (InstKind::Call { func: path, .. }, Form::AssocFrule) => {
                self.emit_assoc_frule(inst, path, &args, &ops)
            }
            (
                InstKind::Call {
                    callee: PathCallee::UserOp(op),
                    ..
                },
                Form::Frule,
            ) => user_op_call(*op, &args, rt, mode, span),
            // A function value: the dual function, called with duals.
            (
                InstKind::Call {
                    callee: PathCallee::FnValue,
                    ..
                },
                Form::Frule,
            ) => {
                // Each argument converted as a call to a rule converts it (`&v` of a `Vec`
                // dual to the slice dual the function takes).
                // The function by name: a `&mut dyn FnMut` is called, not reborrowed.
                let f = self.name(ops[0]);
                let rest = &args[1..];
                quote_spanned!(span=> (#f)(#(#rt::coerce_to(#rest)),*))
            }
            // A closure passed to a function: its dual form.
            (
                InstKind::Call {
                    func: path,
                    callee: PathCallee::Closure,
                    ..
                },
                _,
            ) => {
                let (held, passed) = self.closure_arg(inst, path, &args, span);
                pre.extend(held);
                passed
            }
            (InstKind::Call { func: path, .. }, Form::Frule) => {
                self.emit_fn_call(inst, path, &args, &ops)
            }
            (InstKind::MethodCall { .. }, Form::Method) => self.emit_method(inst, &args, &mut pre),
            // `let b: Box<dyn Sdf> = Box::new(Sphere { r });`: the box is the trait
            // object already (`Function::box_dyn`).
            (InstKind::Cast { arg, .. }, Form::Cast) if self.func.box_dyn.contains_key(arg) => {
                args[0].clone()
            }
            (InstKind::Cast { ty, .. }, Form::Cast) => {
                let a = &args[0];
                quote_spanned!(span=> #rt::cast::<#mode, #ty, _>(#a))
            }
            (_, Form::Tuple) => quote_spanned!(span=> #rt::tuple((#(#args,)*))),
            (_, Form::Range) => quote_spanned!(span=> #rt::range(#(#args),*)),
            (_, Form::Array) => quote_spanned!(span=> #rt::array([#(#args),*])),
            (_, Form::VecList) => quote_spanned!(span=> #rt::vec_from([#(#args),*])),
            (InstKind::Struct { path, fields, base }, Form::Struct) => {
                self.emit_struct(inst, path, fields, base.is_some(), &args)
            }
            (
                InstKind::FieldRef {
                    base,
                    member,
                    mutable,
                },
                Form::FieldRef,
            ) => {
                let b = self.name(*base);
                if *mutable {
                    quote_spanned!(span=> #rt::Dual::new(&mut #b.primal.#member, &mut #b.tangent.#member))
                } else {
                    quote_spanned!(span=> #rt::Dual::new(&#b.primal.#member, &#b.tangent.#member))
                }
            }
            (_, Form::VecRepeat) => {
                let (e, n) = (&args[0], &args[1]);
                quote_spanned!(span=> #rt::vec_repeat(#e, #n))
            }
            (InstKind::Repeat { len, .. }, Form::Repeat) => {
                let a = &args[0];
                quote_spanned!(span=> #rt::array([#a; #len]))
            }
            (InstKind::Field { base, member }, Form::Field) => {
                // Through a `&mut` dual, the field itself, not a reborrow of the whole
                // dual: `self.k` is read while `self.v` is borrowed, as in Rust.
                let b = match self.is_mut_ref(*base) {
                    true => self.name(*base).into_token_stream(),
                    false => args[0].clone(),
                };
                if self.field_matched_in_place(inst, *base) {
                    let clone = quote!(::core::clone::Clone::clone);
                    quote_spanned!(span=> #rt::Dual::new(#clone(&#b.primal.#member), #clone(&#b.tangent.#member)))
                } else {
                    quote_spanned!(span=> #rt::Dual::new(#b.primal.#member, #b.tangent.#member))
                }
            }
            (InstKind::Index { base, .. }, Form::Index) => self.emit_index(inst, *base, &args),
            (InstKind::Slice { base, mutable, .. }, Form::Slice) => {
                // Borrow the base variable itself (not a reborrowed temporary), so the
                // sub-slice can be bound and used later, as in `let rest = &mut x[2..];`.
                let b = self.name(*base);
                let r = &args[1];
                if *mutable {
                    quote_spanned!(span=> #rt::slice_mut(&mut #b, #r))
                } else {
                    self.elem_at = true;
                    quote_spanned!(span=> #b.sub_slice(#r))
                }
            }
            (InstKind::ElemRef { base, mutable, .. }, Form::ElemRef) => {
                self.emit_elem_ref(inst, *base, *mutable, &args)
            }
            // A function value borrowed to pass it on (`step(&f, ..)`): the dual function's
            // reference.
            (InstKind::Ref { mutable, arg }, Form::Ref) if self.func.fn_sources.contains(arg) => {
                let a = &args[0];
                match mutable {
                    true => quote_spanned!(span=> &mut #a),
                    false => quote_spanned!(span=> &#a),
                }
            }
            (InstKind::Ref { mutable, .. }, Form::Ref) => {
                let a = &args[0];
                if *mutable {
                    quote_spanned!(span=> #a.as_mut())
                } else {
                    quote_spanned!(span=> #a.as_ref())
                }
            }
            (_, Form::Deref) => {
                let a = &args[0];
                quote_spanned!(span=> #rt::deref(&#a))
            }
            (InstKind::Store { place, .. }, Form::Store) => {
                return self.emit_store(inst, place, &args, &ops, pre);
            }
            (kind, form) => {
                // A plan that does not fit its instruction is a bug in `dual`.
                let msg = format!(
                    "internal error in `#[derive_frule]`: no emission for {form:?} on {}",
                    kind_name(kind)
                );
                quote_spanned!(span=> ::core::compile_error!(#msg))
            }
        };
        let lhs = self.lhs(inst);
        let expr = self.annotated_result(inst, expr);
        quote!(#pre #lhs #expr;)
    }

    /// `expr`, the value of `inst`, converted to the type the user wrote on its result.
    #[inline(never)]
    fn annotated_result(&self, inst: Inst, expr: TokenStream) -> TokenStream {
        // A written type on an active value (`let d: &[f64] = &v;`): the dual converts to it
        // as the primal coerces (`&Vec<f64>` to `&[f64]`).
        let expr = match self.func.insts[inst].results.as_slice() {
            [v] if self.is(*v) && self.func.annotations.contains_key(v) && !*self.lib.get(*v) => {
                let rt = self.rt;
                // An element of a float parameter (`let t: f64 = x[i];`) carries the
                // argument's element tangent, which may be a constant's: the mode's first.
                let float = match (&self.func.insts[inst].kind, &self.func.annotations[v]) {
                    (InstKind::Index { .. }, syn::Type::Path(p))
                        if p.qself.is_none()
                            && p.path.segments.len() == 1
                            && crate::callee::StdType::of_path(&p.path)
                                .is_some_and(|t| t.class() == crate::callee::TypeClass::Float) =>
                    {
                        Some(p.path.clone())
                    }
                    _ => None,
                };
                match float {
                    Some(f) => {
                        let mode = self.mode;
                        quote!(#rt::coerce_to(#rt::active_scalar::<#f, <#f as #rt::Differentiable>::TangentIn<#mode>, _>(#expr)))
                    }
                    None => quote!(#rt::coerce_to(#expr)),
                }
            }
            _ => expr,
        };
        expr
    }

    /// A value computed in `f64` (`Form::Primal`), promoted to a constant dual if `promote`.
    #[inline(never)]
    fn emit_primal(
        &mut self,
        inst: Inst,
        kind: &InstKind,
        promote: bool,
        args: &[TokenStream],
    ) -> TokenStream {
        let promote = &promote;
        let data = &self.func.insts[inst];
        let span = data.span;
        let (rt, mode) = (self.rt, self.mode);
        let e = self.primal_expr(inst, kind, args, span);
        let e = self.typed_ndarray_ctor(kind, e, span);
        let lib_result = data.results.first().is_some_and(|r| *self.lib.get(*r));
        if *promote && lib_result {
            // A library constant made active (by a later store): its form over
            // constant duals.
            quote_spanned!(span=> #rt::lift::<#mode, _>(#e))
        } else if *promote && is_vec_new_call(kind) {
            // Empty where it is made: no element needs a zero tangent.
            quote_spanned!(span=> #rt::empty_vec_in::<#mode, _>(#e))
        } else if *promote {
            quote_spanned!(span=> #rt::constant_in::<#mode, _>(#e))
        } else {
            e
        }
    }

    /// A float operation's rule (`Form::Op`).
    #[inline(never)]
    fn emit_float_op(&mut self, inst: Inst, op: FloatOp, args: &[TokenStream]) -> TokenStream {
        let data = &self.func.insts[inst];
        let span = data.span;
        let rt = self.rt;
        if let FloatOp::Sq = op {
            let x = located_at(&args[0], span);
            quote_spanned!(span=> #rt::ops::sq(#x))
        } else {
            let f = op.ident(span);
            let mut args: Vec<TokenStream> = args.iter().map(|a| located_at(a, span)).collect();
            // `b.pos.abs()` on a field of a type of the user's, which the macro took for
            // the float method: reported at the field, by its type (`FloatMethodField`).
            // Not in generic code, whose float fields are of a type parameter.
            if let (InstKind::MethodCall { receiver, .. }, Some(recv)) =
                (&data.kind, args.first_mut())
            {
                if self.is(*receiver) && self.is_field(*receiver) && !self.func.type_params {
                    *recv = quote_spanned!(span=> #rt::user_ops::float_method_field(#recv));
                }
            }
            quote_spanned!(span=> #rt::ops::#f(#(#args),*))
        }
    }

    /// A call of one of the runtime's wrappers (`Form::Wrap`).
    #[inline(never)]
    fn emit_wrap(
        &mut self,
        inst: Inst,
        kind: &InstKind,
        w: Wrapper,
        args: &[TokenStream],
    ) -> TokenStream {
        let span = self.func.insts[inst].span;
        let (rt, mode) = (self.rt, self.mode);
        match (kind, w) {
            // `mem_take` makes a zero tangent in the mode.
            (_, Wrapper::MemTake) => {
                quote_spanned!(span=> #rt::mem_take::<#mode, _>(#(#args),*))
            }
            // `x.to_f64()` of a dual: `Some(x as f64)`.
            (
                InstKind::MethodCall {
                    callee: MethodCallee::Std(m),
                    ..
                },
                w,
            ) if w.is_conversion() => {
                let f = w.ident(span);
                let ty = m.float_conversion_target(span);
                let x = &args[0];
                quote_spanned!(span=> #rt::#f::<#mode, #ty, _>(#x))
            }
            // `x as T` of a dual (`Some` of it for `T::from`): the target is in the path.
            (InstKind::Call { func, .. }, w) if w.is_conversion() => {
                let f = w.ident(span);
                let ty = match w.conversion_target(func) {
                    Some(ty) => ty.into_token_stream(),
                    None => quote_spanned!(span=> _),
                };
                quote_spanned!(span=> #rt::#f::<#mode, #ty, _>(#(#args),*))
            }
            (_, w) => {
                let f = w.ident(span);
                quote_spanned!(span=> #rt::#f(#(#args),*))
            }
        }
    }

    /// The library's own code on its type over duals (`Form::Lib`).
    #[inline(never)]
    fn emit_lib(
        &mut self,
        inst: Inst,
        kind: &InstKind,
        args: &[TokenStream],
        ops: &[Value],
        pre: &mut TokenStream,
    ) -> TokenStream {
        let span = self.func.insts[inst].span;
        let (rt, mode) = (self.rt, self.mode);
        // Indices and other integers, and library values already over duals, stay
        // as they are.
        let glam_f32 = ops
            .iter()
            .chain(&self.func.insts[inst].results)
            .any(|v| *self.glam_f32.get(*v));
        let mut lifted: Vec<TokenStream> = args
            .iter()
            .zip(ops)
            .map(|(a, &v)| match self.func.closures.contains_key(&v) {
                // A closure mapped over the elements is already over duals.
                true => a.clone(),
                // A scalar beside an `f32` glam value: an `f32` dual.
                false if glam_f32 && self.is_glam_f32_scalar(v) => {
                    quote_spanned!(span=> #rt::glam::f32_scalar::<#mode, _>(#a))
                }
                false => self.lift(a, v, span),
            })
            .collect();
        // A parameter's method (`u.slice(s![1..])`, `a.t()`) may borrow from its
        // lifted form: that lives in a local, not a temporary of the statement.
        if let InstKind::MethodCall { receiver, .. } = kind {
            if crate::libtypes::is_param(self.func, *receiver) && self.is(*receiver) {
                if let Some(recv) = lifted.first_mut() {
                    let tmp = self.temp("__lifted");
                    pre.extend(quote_spanned!(span=> let #tmp = #recv;));
                    *recv = quote!(#tmp);
                }
            }
        }
        match kind {
            // A method of constant library data whose result is active only as it
            // may later be written (`qr.r()` of a constant `qr`, solved with an
            // active right-hand side): computed in `f64` and lifted, as a
            // decomposition of constants has no form over duals.
            InstKind::MethodCall { .. } if ops.iter().all(|v| !self.is(*v)) => {
                let call = self.primal_expr(inst, kind, args, span);
                quote_spanned!(span=> #rt::lift::<#mode, _>(#call))
            }
            // An inactive nalgebra matrix with an active one: a mixed operation, the
            // inactive side plain (its zero tangent is never multiplied).
            InstKind::Binary { op, lhs, rhs }
                if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul)
                    && *self.nalgebra.get(*lhs)
                    && *self.nalgebra.get(*rhs)
                    && self.is(*lhs) != self.is(*rhs) =>
            {
                let plain_lhs = !self.is(*lhs);
                let f = match (op, plain_lhs) {
                    (BinOp::Add, true) => "mixed_add_pd",
                    (BinOp::Add, false) => "mixed_add_dp",
                    (BinOp::Sub, true) => "mixed_sub_pd",
                    (BinOp::Sub, false) => "mixed_sub_dp",
                    (_, true) => "mixed_mul_pd",
                    (_, false) => "mixed_mul_dp",
                };
                let f = syn::Ident::new(f, span);
                let (l, r) = if plain_lhs {
                    (&args[0], &lifted[1])
                } else {
                    (&lifted[0], &args[1])
                };
                quote_spanned!(span=> #rt::na_linalg::#f::<#mode, _, _>(#l, #r))
            }
            // Two active nalgebra matrices: their product with the tangent terms of
            // a matrix that does not move skipped.
            InstKind::Binary {
                op: BinOp::Mul,
                lhs,
                rhs,
            } if *self.nalgebra.get(*lhs)
                && *self.nalgebra.get(*rhs)
                && self.is(*lhs)
                && self.is(*rhs) =>
            {
                let (l, r) = (&lifted[0], &lifted[1]);
                quote_spanned!(span=> #rt::na_linalg::dual_mul::<#mode, _, _>(#l, #r))
            }
            // A factorisation or norm of a nalgebra matrix over duals: the runtime's.
            InstKind::MethodCall {
                method, receiver, ..
            } if lifted.len() == 1 && *self.nalgebra.get(*receiver) => {
                match crate::libtypes::NalgebraMethod::of_method(method) {
                    // A view of a row (`row.norm()` in `for row in
                    // m.row_iter_mut()`) is not `Copy`: borrowed.
                    Some(f) if f.borrows() => {
                        let f = syn::Ident::new(f.runtime_fn(), span);
                        let recv = &lifted[0];
                        quote_spanned!(span=> #rt::na_linalg::#f::<#mode, _>(&#recv))
                    }
                    Some(f) => {
                        let f = syn::Ident::new(f.runtime_fn(), span);
                        let recv = &lifted[0];
                        quote_spanned!(span=> #rt::na_linalg::#f::<#mode, _>(#recv))
                    }
                    None => self.primal_expr(inst, kind, &lifted, span),
                }
            }
            InstKind::Call { func, .. } => match crate::libtypes::glam_fn(func) {
                Some((ty, f)) => {
                    quote_spanned!(span=> #rt::glam::#ty::<#mode>::#f(#(#lifted),*))
                }
                // ndarray's `arr1(&[x, y])` of duals: the array over duals as it is.
                None if crate::libtypes::ndarray_free_ctor(func).is_some() => {
                    self.ndarray_ctor_of_duals(inst, kind, args, span)
                }
                None if crate::libtypes::scalar_alias_ctor(func).is_some() => {
                    let f = crate::libtypes::scalar_alias_ctor(func);
                    quote_spanned!(span=> #rt::complex::Complex::#f(#(#lifted),*))
                }
                // A constant made active by a later store (`let mut e =
                // DVector::zeros(n); e[i] = ..`): built from sizes alone, lifted.
                None if ops.iter().all(|v| self.func.values[*v].ty == TypeHint::Int) => {
                    let f = crate::libtypes::default_scalar(func, self.one_float());
                    let f = f.as_ref().unwrap_or(func);
                    quote_spanned!(span=> #rt::lift::<#mode, _>(#f(#(#lifted),*)))
                }
                // `SVector::<f64, 3>::new(x, ..)` over duals: its scalar inferred.
                None => match crate::libtypes::infer_scalar(func, &self.func.float_params) {
                    Some(func) => {
                        let mut kind = kind.clone();
                        if let InstKind::Call { func: f, .. } = &mut kind {
                            *f = func;
                        }
                        self.primal_expr(inst, &kind, &lifted, span)
                    }
                    None => self.primal_expr(inst, kind, &lifted, span),
                },
            },
            // A scalar field of a library value over duals (`p.x.atan2(p.y)`):
            // the scalar dual, by value.
            InstKind::FieldRef { member, .. } if self.is_lib_scalar_field(inst) => {
                let x = &lifted[0];
                quote_spanned!(span=> #x.#member)
            }
            // `x[i]` of a nalgebra parameter: the element's dual alone.
            InstKind::Index { base, .. }
                if crate::libtypes::is_nalgebra_param(self.func, *base) =>
            {
                let (x, i) = (&args[0], &args[1]);
                quote_spanned!(span=> #rt::lift_index::<#mode, _, _>(#x, #i))
            }
            _ => self.primal_expr(inst, kind, &lifted, span),
        }
    }

    /// A method of the user's (`Form::UserMethod`): its rule, dispatched on the receiver.
    #[inline(never)]
    fn emit_user_method(
        &mut self,
        inst: Inst,
        receiver: Value,
        method: &syn::Ident,
        args: &[TokenStream],
        ops: &[Value],
        pre: &mut TokenStream,
    ) -> TokenStream {
        let receiver = &receiver;
        let span = self.func.insts[inst].span;
        let (rt, mode) = (self.rt, self.mode);
        // Dispatch through the receiver's primal type, then pass `&mut` the receiver
        // dual; `CoerceTo` makes it the rule's `&self`/`&mut self`/`self` form (an
        // inactive receiver is promoted first).
        let recv = self.name(*receiver);
        let rule = self.user_method_dispatch(*receiver, method);
        // An argument from the receiver's own variable (`self.dot(self)`) is read
        // before the receiver is lent `&mut`, as Rust's two-phase borrow does.
        let root = self.func.place_root(*receiver);
        let shares_root = ops[1..].iter().any(|&v| self.func.place_root(v) == root);
        // One lent by reference (`a.dot(&a)`, `self.dot(self)`): the method takes
        // `&self`, as Rust accepts nothing else, and the receiver is lent shared.
        // Only for a receiver that is the variable itself: a field's method may take
        // `&mut self` next to a borrow of a disjoint field (`self.pos.add(&self.vel)`).
        let lends_root = root == *receiver
            && ops[1..].iter().any(|&v| {
                self.func.place_root(v) == root
                    && matches!(self.func.values[v].ty, TypeHint::Ref(_))
            });
        let mut rest = args[1..].to_vec();
        // A function value lent on (`self.line_search(&f, ..)`): converted as the
        // call would (`&F` to `&dyn Fn`) by the method's helper.
        for (k, a) in rest.iter_mut().enumerate() {
            if self.lends_fn_value(ops[k + 1]) {
                let pass = crate::register::method_helper_name("fn_pass", k + 1, method, span);
                let recv = self.method_helper_receiver(*receiver);
                let tmp = self.temp("__fn");
                let float = self.helper_float();
                let call = quote_spanned!(span=> #recv.#pass::<#mode, #float, _>(#a));
                let call = match self.no_rule_helper_bound(*receiver, method, span) {
                    Some((missing, bound)) => {
                        let call = no_rule_helper_fallback(rt, &missing, &pass, call, span);
                        quote_spanned!(span=> { #bound #call })
                    }
                    None => call,
                };
                pre.extend(quote_spanned!(span=> let mut #tmp = #call;));
                *a = quote!(#tmp);
            }
        }
        if shares_root && !lends_root {
            for a in rest.iter_mut() {
                let tmp = self.temp("__arg");
                pre.extend(quote_spanned!(span=> let #tmp = #a;));
                *a = quote!(#tmp);
            }
        }
        let (dispatch, arg) = if self.is(*receiver) {
            let lent = if lends_root {
                quote_spanned!(span=> &#recv)
            } else {
                quote_spanned!(span=> &mut #recv)
            };
            // Through one reference to the receiver: a generic receiver's rule is
            // the trait's `self: &&Self` dispatch (`traits.rs`), found from an owned
            // `M`, a `&M` and a `&mut M` alike.
            let dispatch = match self.func.values[*receiver].ty {
                TypeHint::Ref(_) => quote_spanned!(span=> (&*#recv.primal).#rule()),
                _ => quote_spanned!(span=> (&#recv.primal).#rule()),
            };
            (dispatch, lent)
        } else {
            let promoted = self.temp("__recv");
            // A constant behind a shared reference (an `inactive(..)` parameter, an
            // element of one) lends its zero tangent from a cell, as an argument does;
            // an owned constant is cloned into a constant dual.
            let dual = if self.is_dyn_ref_param(*receiver) {
                // A trait object's tangent is `NoTangent` whatever its value.
                quote_spanned!(span=> #rt::Dual::new(#recv, &#rt::NoTangent))
            } else {
                self.const_receiver(*receiver, span)
            };
            pre.extend(quote_spanned!(span=> let mut #promoted = #dual;));
            let dispatch = match self.func.values[*receiver].ty {
                TypeHint::Ref(_) => quote_spanned!(span=> (&*#recv).#rule()),
                _ => quote_spanned!(span=> (&#recv).#rule()),
            };
            (dispatch, quote_spanned!(span=> &mut #promoted))
        };
        let dispatch = if self.func.bound_receivers.contains(receiver) {
            dispatch
        } else {
            let m = method.unraw().to_string();
            let n = self.stand_ins.entry(m).or_default();
            *n += 1;
            let glam_f32 = recv_notes(self.func, *receiver);
            no_rule_fallback(
                rt,
                &self.func.name,
                method,
                (*n, glam_f32),
                &rule,
                dispatch,
                span,
            )
        };
        let call = self.user_method_call(*receiver);
        let call =
            quote_spanned!(span=> #rt::#call::<#mode, _, _, _>(&#dispatch, (#arg, #(#rest,)*)));
        lend_guarded(self.func, inst, rt, call)
    }

    /// A constant receiver's form for a method's rule: a constant behind a shared
    /// reference (an `inactive(..)` parameter, an element of one) lends its zero tangent
    /// from a cell, as an argument does; an owned constant is cloned into a constant dual.
    /// Either is passed as the plain reference where its type has no zero tangent (a
    /// struct declared without `Differentiable`, `ch.discharge(y)` with `ch: &Channel`,
    /// whose methods' rules take the receiver so: `derive_frule::plain_impl_inactive`).
    #[inline(never)]
    fn const_receiver(&mut self, receiver: Value, span: Span) -> TokenStream {
        let (rt, mode) = (self.rt, self.mode);
        let recv = self.name(receiver);
        match self.promoted_arg(receiver, true) {
            Some(p) => quote_spanned!(span=> #rt::into_recv(#p)),
            None => quote_spanned!(span=> {
                #[allow(unused_imports)]
                use #rt::{RecvPlain as _, RecvZero as _};
                (&#rt::RecvProbe::<_, #mode>(&#recv, ::core::marker::PhantomData)).promote_recv()
            }),
        }
    }

    /// An associated function's rule (`Form::AssocFrule`).
    #[inline(never)]
    fn emit_assoc_frule(
        &mut self,
        inst: Inst,
        path: &syn::Path,
        args: &[TokenStream],
        ops: &[Value],
    ) -> TokenStream {
        let span = self.func.insts[inst].span;
        let (rt, mode) = (self.rt, self.mode);
        // A value boxed as a trait object of the user's (`Function::box_dyn`): the box
        // carries its tangent.
        if crate::callee::is_box_new(path)
            && args.len() == 1
            && self.func.insts[inst]
                .results
                .first()
                .is_some_and(|r| self.func.box_dyn.contains_key(r))
        {
            return self.carried_box(inst, ops[0], &args[0], span);
        }
        // The type keeps its arguments (`Pendulum::<T>::m`), which a generic
        // `impl` needs to pick its dispatch method.
        let mut ty = path.clone();
        let last = ty.segments.pop().map(|p| p.into_value().ident);
        let ty_path: Vec<_> = ty.segments.iter().collect();
        let colon = ty.leading_colon;
        // `Ty::from(x)`: the rule of `Ty`'s `impl From` for `x`'s type (a type may
        // have several, `FromRule<Src>`), not a method named `from` alone.
        let kind = last
            .as_ref()
            .map(|m| crate::callee::AssocCall::of(m, args.len()));
        // `<Decay as Model>::new(a, b)`: the trait's path, at the type written.
        let qself = self.func.insts[inst]
            .results
            .first()
            .and_then(|r| self.func.qualified_self.get(r));
        let of = last.map(|m| crate::register::by_type_rule_name(&m));
        match (kind, qself) {
            (Some(crate::callee::AssocCall::Conversion), Some(q)) => {
                let arg = &args[0];
                quote_spanned!(span=> #rt::Frule::<_, #mode>::frule(&#rt::user_ops::ConvertTo::<#q>::new(), (#arg,)))
            }
            (Some(crate::callee::AssocCall::Conversion), None) => {
                let arg = &args[0];
                quote_spanned!(span=> #rt::Frule::<_, #mode>::frule(&#rt::user_ops::ConvertTo::<#colon #(#ty_path)::*>::new(), (#arg,)))
            }
            (_, Some(q)) => {
                quote_spanned!(span=> #rt::call::<#mode, _, _, _>(&<#q as #colon #(#ty_path)::*>:: #of(), (#(#args,)*)))
            }
            (_, None) => {
                quote_spanned!(span=> #rt::call::<#mode, _, _, _>(&#colon #(#ty_path)::* :: #of(), (#(#args,)*)))
            }
        }
    }

    /// A call of a function with a rule (`Form::Frule`).
    #[inline(never)]
    fn emit_fn_call(
        &mut self,
        inst: Inst,
        path: &syn::Path,
        args: &[TokenStream],
        ops: &[Value],
    ) -> TokenStream {
        let data = &self.func.insts[inst];
        let span = data.span;
        let (rt, mode) = (self.rt, self.mode);
        let marker = match turbofish_marker(path) {
            Some(m) => m,
            None => {
                let path = strip_generics(path);
                quote!(#path {})
            }
        };
        // A function value lent on (`solve(&f, ..)`): converted as the call would
        // (`&F` to `&dyn Fn`) by the callee's helper.
        let mut args = args.to_vec();
        for (k, a) in args.iter_mut().enumerate() {
            // `&mut log` of a constant `Vec<String>` (or array of integers): lent
            // beside a zero tangent the callee's `&mut Vec<String>` can borrow.
            if self.lends_constant_buffer(ops[k]) {
                *a = quote_spanned!(span=> &mut #rt::lend_mut::<#mode, _>(#a));
            }
            if self.lends_fn_value(ops[k]) {
                let pass = format_ident!("__fwdad_fn_pass{}", k, span = span);
                let callee = strip_generics(path);
                let float = self.helper_float();
                *a = quote_spanned!(span=> #callee::#pass::<#mode, #float, _>(#a));
            }
        }
        if let Some((_, cols)) = self
            .jac
            .and_then(|p| p.call.as_ref())
            .filter(|(c, _)| *c == inst)
        {
            // The Jacobian entry of a forwarding body: the callee's, its
            // arguments' columns shifted by their sub-slices and indices.
            let cols: Vec<TokenStream> = cols
                .iter()
                .map(|c| match c {
                    Some(c) => self.jac_column(c),
                    None => quote!(::core::option::Option::None),
                })
                .collect();
            let sink = jac_ident("out");
            quote_spanned!(span=> #rt::call::<#mode, _, _, _>(
                        &#rt::ChainJacobianOf::new(&#marker, &[#(#cols),*], #sink),
                        (#(#args,)*)))
        } else {
            let call = quote_spanned!(span=>
                        #rt::call::<#mode, _, _, _>(&#marker, (#(#args,)*)));
            let call = lend_guarded(self.func, inst, rt, call);
            // A result typed as non-differentiable (`let i: usize = argmax(x);`)
            // is inactive: keep its value.
            match data.results.first() {
                Some(&r) if !self.is(r) => quote_spanned!(span=> #call.primal),
                _ => call,
            }
        }
    }

    /// A method called on the dual as it is (`Form::Method`).
    #[inline(never)]
    fn emit_method(
        &mut self,
        inst: Inst,
        args: &[TokenStream],
        pre: &mut TokenStream,
    ) -> TokenStream {
        let span = self.func.insts[inst].span;
        let rt = self.rt;
        let InstKind::MethodCall {
            receiver,
            method,
            turbofish,
            callee,
            ..
        } = &self.func.insts[inst].kind
        else {
            return TokenStream::new();
        };
        if callee.std().is_some_and(StdMethod::clones)
            && matches!(self.func.values[*receiver].ty, TypeHint::Ref(_))
        {
            // `r.clone()` on a reference clones the referent, as Rust's auto-deref does.
            let recv = &args[0];
            quote_spanned!(span=> #recv.cloned())
        } else {
            // A `&mut` element borrowed from a `&mut` variable (`v.get_mut(i)` of a
            // `&mut [f64]` parameter) borrows the variable itself: a reborrow would be a
            // temporary the element cannot outlive.
            let borrows_element = callee.std().is_some_and(StdMethod::lends_mut);
            // A method that reads (`len`, `get`, `first`) takes `&self`: called on
            // the `&mut` variable itself it borrows it shared, so other reads may
            // overlap (`for v in out.iter() { .. out.len() .. }`), and a returned
            // element borrows the variable, not a temporary reborrow of it.
            let reads = callee.std().is_some_and(StdMethod::reads_shared);
            // A map's methods (`values`, `values_mut`, `entry`) return what borrows the
            // variable.
            let map = matches!(
                self.func.values[*receiver].ty.deref_all_pub(),
                TypeHint::Map(..)
            );
            let recv = if (borrows_element || reads || map) && self.is_mut_ref(*receiver) {
                self.name(*receiver).to_token_stream()
            } else {
                args[0].clone()
            };
            let rest = &args[1..];
            pre.extend(self.forget_fresh_pushed(inst));
            // `len`/`is_empty` on a field's dual, whose type the macro does not see:
            // `std`'s method on the primal, or an error naming the field's type if it
            // is the user's (a method of the user's named `len`).
            let field_len = match callee.std() {
                Some(StdMethod::Len) => Some("field_len"),
                Some(StdMethod::IsEmpty) => Some("field_is_empty"),
                _ => None,
            };
            // A `std` name a method of the user's may have, on a dual whose type the
            // syntax does not show: an error naming the user's type if it has one.
            if self.is(*receiver)
                && !(field_len.is_some() && self.is_field(*receiver))
                && crate::callee::is_std_named_user_method(&method.to_string())
                && self.is_untyped_receiver(*receiver)
            {
                let at = method.span();
                let h = crate::callee::std_name_hash(&method.to_string());
                let r = self.name(*receiver);
                pre.extend(quote_spanned! {at=>
                    #rt::user_ops::std_method_receiver({
                        #[allow(unused_imports)]
                        use #rt::user_ops::{ProbeStd as _, ProbeUser as _};
                        (&#rt::user_ops::std_probe::<_, #h>(&#r)).__fwdad_probe()
                    });
                });
            }
            if let Some(f) = field_len.filter(|_| self.is(*receiver) && self.is_field(*receiver)) {
                // At the method's name: what the error is about.
                let at = method.span();
                let f = syn::Ident::new(f, at);
                let rt = self.rt;
                let recv = self.name(*receiver);
                quote_spanned!(at=> #rt::user_ops::#f(&#recv))
            } else {
                quote_spanned!(span=> #recv.#method #turbofish (#(#rest),*))
            }
        }
    }

    /// A struct or variant literal (`Form::Struct`).
    #[inline(never)]
    fn emit_struct(
        &mut self,
        inst: Inst,
        path: &syn::Path,
        fields: &[(syn::Member, Value)],
        base: bool,
        args: &[TokenStream],
    ) -> TokenStream {
        let span = self.func.insts[inst].span;
        let (rt, mode) = (self.rt, self.mode);
        let base = base.then_some(());
        // The tangent is the struct's `..Tangent` twin (the derive's contract).
        let tpath = tangent_path(path);
        let members: Vec<_> = fields.iter().map(|(m, _)| m).collect();
        let vals = &args[..fields.len()];
        // The base is bound once (a promoted constant is an expression that would
        // move it twice), after the fields, as Rust evaluates them; its primal and
        // tangent then move out of it separately.
        let base_name = format_ident!("__base", span = Span::mixed_site());
        let (bind_base, pb, tb) = match base {
            Some(_) => {
                let b = &args[fields.len()];
                (
                    quote!(let #base_name = #b;),
                    quote!(..#base_name.primal),
                    quote!(..#base_name.tangent),
                )
            }
            None => (quote!(), quote!(), quote!()),
        };
        let bind: Vec<_> = (0..fields.len())
            .map(|k| format_ident!("__f{}", k, span = Span::mixed_site()))
            .collect();
        // Each field's tangent goes through `FieldTangent`, which the field's
        // type (found from the primal) turns into the tangent itself (coerced by
        // the field, as the primal is), or into `NoTangent` for a field that
        // carries none (`skip`): see the runtime's `struct_literal`.
        // `struct_dual` types the tangent struct, so its generics need not be
        // inferred from its fields.
        let sl = quote!(#rt::struct_literal);
        let (p, t, tt, x) = (
            format_ident!("__primal", span = Span::mixed_site()),
            format_ident!("__tangent", span = Span::mixed_site()),
            format_ident!("__tangent_type", span = Span::mixed_site()),
            format_ident!("__t", span = Span::mixed_site()),
        );
        // A variant's field is reached by a match (`ShapeTangent::Circle { r, .. }`).
        let field_of: Vec<TokenStream> = members
            .iter()
            .map(|m| {
                if is_variant_path(path) {
                    let f = format_ident!("__field", span = Span::mixed_site());
                    quote!(|#x| match #x {
                        #tpath { #m: #f, .. } => #f,
                        #[allow(unreachable_patterns)]
                        _ => ::core::unreachable!(),
                    })
                } else {
                    quote!(|#x| &#x.#m)
                }
            })
            .collect();
        quote_spanned! {span=> {
            #[allow(unused_imports)]
            use #sl::{Dropped as _, Kept as _, Same as _};
            #(let #bind = #vals;)*
            #bind_base
            let #p = #path { #(#members: #bind.primal,)* #pb };
            let #tt = #sl::struct_tangent::<#mode, _>(&#p);
            let #t = #tpath {
                #(#members: (&&&#sl::FieldTangent::new(
                    #bind.tangent,
                    #sl::field_type(#tt, #field_of),
                )).field_tangent(),)*
                #tb
            };
            #sl::struct_dual::<#mode, _>(#p, #t)
        }}
    }

    /// `x[i]` (`Form::Index`).
    #[inline(never)]
    fn emit_index(&mut self, inst: Inst, base: Value, args: &[TokenStream]) -> TokenStream {
        let base = &base;
        let data = &self.func.insts[inst];
        let span = data.span;
        let rt = self.rt;
        // Read through a shared borrow of a `&mut` variable itself (not of a
        // mutable reborrow), so it may overlap other reads (`g(&out[..], out[1])`).
        let b = match self.is_mut_ref(*base) {
            true => self.name(*base).into_token_stream(),
            false => args[0].clone(),
        };
        let i = &args[1];
        // `m[&k]` of a map of floats: the value's dual looked up by key.
        if matches!(
            self.func.values[*base].ty.deref_all_pub(),
            TypeHint::Map(..)
        ) {
            quote_spanned!(span=> #b.at_key(#i).copied())
        } else if self.reads_element_by_ref(inst, data.results[0]) {
            quote_spanned!(span=> #rt::index_ref(&#b, #i))
        } else {
            quote_spanned!(span=> #rt::index(&#b, #i))
        }
    }

    /// `&x[i]`, `&mut x[i]` (`Form::ElemRef`).
    #[inline(never)]
    fn emit_elem_ref(
        &mut self,
        inst: Inst,
        base: Value,
        mutable: bool,
        args: &[TokenStream],
    ) -> TokenStream {
        let (base, mutable) = (&base, &mutable);
        let span = self.func.insts[inst].span;
        let rt = self.rt;
        // Borrow the base variable itself, so the element can be bound and written.
        let b = self.name(*base);
        let i = &args[1];
        // Returned (`-> &'a mut f64`) from a `&mut` parameter: the borrow moves the
        // parameter's dual, so it keeps the parameter's lifetime.
        // So does a field of one (`&mut self.m[k]` in an `IndexMut` impl).
        let param_or_field = match self.func.values[*base].def {
            crate::ir::ValueDef::Param(p) => self.func.params[p].is_mut_ref(),
            crate::ir::ValueDef::Inst(b, 0) => matches!(
                self.func.insts[b].kind,
                InstKind::FieldRef { mutable: true, .. }
            ),
            _ => false,
        };
        let returned_from_param = param_or_field
            && self.func.insts[inst]
                .results
                .first()
                .is_some_and(|&r| self.is_returned(r));
        let lib_over_duals =
            self.is(*base) && *self.lib.get(*base) && !crate::libtypes::is_param(self.func, *base);
        let map = matches!(
            self.func.values[*base].ty.deref_all_pub(),
            TypeHint::Map(..)
        );
        if map {
            // `&m[&k]`, `&mut m[&k]` of a map of floats: by key.
            match mutable {
                true => quote_spanned!(span=> #b.at_key_mut(#i)),
                false => quote_spanned!(span=> #b.at_key(#i)),
            }
        } else if *mutable && returned_from_param {
            quote_spanned!(span=> #rt::at_mut_owned(#b, #i))
        } else if *mutable && lib_over_duals {
            // An element of a library value over duals written in place
            // (`for v in a.iter_mut()` of a local `Array1` or `Vector3`).
            quote_spanned!(span=> #rt::lib_elem_at_mut(&mut #b, #i))
        } else if *mutable {
            quote_spanned!(span=> #rt::at_mut(&mut #b, #i))
        } else if self.is(*base)
            && *self.lib.get(*base)
            && !crate::libtypes::is_param(self.func, *base)
        {
            // An element of a library value over duals (`d.iter()` of
            // `let d = chol.l().diagonal();`), stored as dual scalars.
            quote_spanned!(span=> #rt::lib_elem_at(&#b, #i))
        } else {
            self.elem_at = true;
            quote_spanned!(span=> #b.elem_at(#i))
        }
    }

    /// Before a store into an element of a parameter whose type holds trait objects
    /// (`bodies[i] = fresh_ball();`, `*b = ..` of a `&mut Box<dyn Body>`): the lanes kept
    /// beside the object it overwrites are dropped (`fwdad_runtime::traits::Forget`), so
    /// that the next object at its address does not start from them.
    #[inline(never)]
    fn forget_overwritten(&self, place: &Place, old: TokenStream) -> TokenStream {
        let (Place::Index(t, _) | Place::Deref(t)) = place else {
            return TokenStream::new();
        };
        let ValueDef::Param(k) = self.func.values[self.func.place_root(*t)].def else {
            return TokenStream::new();
        };
        if !self.func.params.get(k).is_some_and(|p| writes_dyn(&p.ty)) {
            return TokenStream::new();
        }
        let rt = self.rt;
        quote! {{
            use #rt::traits::{ForgetBoxedLanes as _, ForgetNoLanes as _};
            (&&#rt::traits::Forget(#old)).forget_lanes();
        }}
    }

    /// Before `bodies.push(fresh_ball())` (or `insert(i, ..)`) into a parameter whose type
    /// writes `dyn`, of a box a function call just returned: the lanes kept beside an object
    /// the parameter held and dropped meanwhile (`bodies.clear()`, `bodies.pop();`,
    /// `bodies.remove(i);`) are dropped first, as `forget_overwritten` does for a store,
    /// since the new box, allocated where the old one was, would start from them.
    #[inline(never)]
    fn forget_fresh_pushed(&self, inst: Inst) -> TokenStream {
        let InstKind::MethodCall {
            receiver,
            args,
            callee: MethodCallee::Std(m @ (StdMethod::Push | StdMethod::Insert)),
            ..
        } = &self.func.insts[inst].kind
        else {
            return TokenStream::new();
        };
        let Some(&new) = args.get(usize::from(*m == StdMethod::Insert)) else {
            return TokenStream::new();
        };
        // A box a call returned (`fresh_ball()`, `Factory::ball()`), through `let`s.
        let mut v = new;
        let fresh = loop {
            let ValueDef::Inst(i, 0) = self.func.values[v].def else {
                break false;
            };
            match &self.func.insts[i].kind {
                InstKind::Copy(src) => v = *src,
                InstKind::Call {
                    callee: PathCallee::Function | PathCallee::Assoc,
                    ..
                } => break true,
                _ => break false,
            }
        };
        if !fresh || self.is(new) {
            return TokenStream::new();
        }
        let ValueDef::Param(k) = self.func.values[self.func.place_root(*receiver)].def else {
            return TokenStream::new();
        };
        if !self.func.params.get(k).is_some_and(|p| writes_dyn(&p.ty)) {
            return TokenStream::new();
        }
        let (rt, name) = (self.rt, self.name(new));
        quote! {{
            use #rt::traits::{ForgetBoxedLanes as _, ForgetNoLanes as _};
            (&&#rt::traits::Forget(&#name)).forget_lanes();
        }}
    }

    /// A store into a place (`Form::Store`): a statement, after `pre`.
    #[inline(never)]
    fn emit_store(
        &mut self,
        inst: Inst,
        place: &Place,
        args: &[TokenStream],
        ops: &[Value],
        pre: TokenStream,
    ) -> TokenStream {
        let span = self.func.insts[inst].span;
        let (rt, mode) = (self.rt, self.mode);
        match place {
            // `e[i] = v` into a library value over duals (`let mut e = DVector::zeros(n);`):
            // nalgebra's own `IndexMut`, the value lifted to the element's dual.
            Place::Index(t, _)
                if *self.lib.get(*t) && !crate::libtypes::is_param(self.func, *t) =>
            {
                let (t, i, v) = (&args[0], &args[1], &args[2]);
                let lhs = self.lhs(inst);
                quote!(#pre #t[#i] = #rt::lift::<#mode, _>(#v); #lhs ();)
            }
            // `p.y = v` into a library value over duals (a glam value's field): the field
            // is a scalar dual.
            Place::Field(t, m)
                if *self.lib.get(*t) && !crate::libtypes::is_param(self.func, *t) =>
            {
                let (t, v) = (self.name(*t), &args[1]);
                let lhs = self.lhs(inst);
                let v = quote_spanned!(span=> #rt::lift::<#mode, _>(#v));
                quote!(#pre #rt::store_field(&mut #t.#m, #v); #lhs ();)
            }
            _ => {
                let stmt = match place {
                    Place::Deref(_) => {
                        let (t, v) = (&args[0], &args[1]);
                        quote_spanned!(span=> #rt::store_deref(&mut #t, #v))
                    }
                    // A linearised chain's value is a real scalar, and so is a number
                    // literal stored into a differentiated buffer (`acc[j] = 0.0` before
                    // a sum): its tangent is written by `ScalarTangent::store`, which
                    // leaves a known zero in place.
                    Place::Index(..)
                        if self.is_lin_scalar(ops[2])
                            || (!self.is(ops[2]) && self.func.is_number_literal(ops[2])) =>
                    {
                        let (t, i, v) = (&args[0], &args[1], &args[2]);
                        quote_spanned!(span=> #rt::store_index_real(&mut #t, #i, #v))
                    }
                    Place::Index(..) => {
                        let (t, i, v) = (&args[0], &args[1], &args[2]);
                        quote_spanned!(span=> #rt::store_index(&mut #t, #i, #v))
                    }
                    Place::Field(t, m) => {
                        let t = self.name(*t);
                        let v = &args[1];
                        quote_spanned!(span=> { let __v = #v; #t.primal.#m = __v.primal; #t.tangent.#m = __v.tangent; })
                    }
                };
                let lhs = self.lhs(inst);
                let forget = match place {
                    Place::Index(..) => {
                        let (t, i) = (&args[0], &args[1]);
                        self.forget_overwritten(place, quote!(&(#t).primal[#i]))
                    }
                    _ => {
                        let t = &args[0];
                        self.forget_overwritten(place, quote!(&*(#t).primal))
                    }
                };
                quote!(#pre #forget #stmt; #lhs ();)
            }
        }
    }

    /// `let mut vN =` / `let (mut vA, mut vB) =` for an instruction's results, with the
    /// user's type annotation when there is one.
    /// The declarations, before `if`/`match` `inst`, of the temporaries its arms borrow
    /// (`if c { &Lin { k: 2.0 } } else { .. }`, recursively through nested arms): Rust
    /// extends such a temporary to the enclosing `let`, while the rule binds it inside the
    /// arm's block, so it is declared outside (`let mut v;`) and assigned in the arm.
    /// Also the values newly declared, which the caller forgets after the arms (the body
    /// may be emitted twice, linearised and plain).
    fn hoist_arm_temporaries(&mut self, inst: Inst) -> (TokenStream, Vec<Value>) {
        let mut found = Vec::new();
        self.arm_temporaries(inst, &mut found);
        let mut out = TokenStream::new();
        let mut new = Vec::new();
        for v in found {
            if !self.hoisted.insert(v) {
                continue;
            }
            new.push(v);
            let name = self.name(v);
            out.extend(match self.annotated_type(v) {
                Some(ty) => quote!(let mut #name: #ty;),
                None => quote!(let mut #name;),
            });
        }
        (out, new)
    }

    fn arm_temporaries(&self, inst: Inst, found: &mut Vec<Value>) {
        if !matches!(
            self.func.insts[inst].kind,
            InstKind::If { .. } | InstKind::Match { .. }
        ) {
            return;
        }
        for r in self.func.inst_regions(inst) {
            let insts = &self.func.regions[r].insts;
            for &i in insts {
                if let InstKind::Ref { arg, .. } = self.func.insts[i].kind {
                    // A struct, tuple or array literal: what such a `let` borrows (a
                    // float temporary is linearised on its own, never borrowed out).
                    let temporary = match self.func.values[arg].def {
                        ValueDef::Inst(d, 0) => {
                            insts.contains(&d)
                                && self.func.insts[d].results.len() == 1
                                && matches!(
                                    self.func.insts[d].kind,
                                    InstKind::Struct { .. }
                                        | InstKind::Tuple(_)
                                        | InstKind::Array(_)
                                )
                        }
                        _ => false,
                    };
                    if temporary && !self.is_undef(arg) {
                        found.push(arg);
                    }
                }
                self.arm_temporaries(i, found);
            }
        }
    }

    fn lhs(&self, inst: Inst) -> TokenStream {
        let results = &self.func.insts[inst].results;
        match results.as_slice() {
            [] => quote!(),
            [v] if self.hoisted.contains(v) => {
                let name = self.name(*v);
                quote!(#name =)
            }
            [v] => {
                let name = self.name(*v);
                match self.annotated_type(*v) {
                    Some(ty) => quote!(let mut #name: #ty =),
                    None => quote!(let mut #name =),
                }
            }
            vs => {
                let names: Vec<_> = vs.iter().map(|v| self.name(*v)).collect();
                if vs.iter().all(|v| !self.func.annotations.contains_key(v)) {
                    return quote!(let (#(mut #names),*) =);
                }
                let tys: Vec<_> = vs
                    .iter()
                    .map(|v| self.annotated_type(*v).unwrap_or_else(|| quote!(_)))
                    .collect();
                quote!(let (#(mut #names),*): (#(#tys),*) =)
            }
        }
    }

    /// The emitted type of `v` under the user's annotation: the written type, or its dual
    /// in the mode when `v` is active.
    fn annotated_type(&self, v: Value) -> Option<TokenStream> {
        let ty = self.func.annotations.get(&v)?;
        // An active library value is the library's type over duals: inferred.
        if self.is(v) && *self.lib.get(v) {
            return None;
        }
        Some(if self.is(v) {
            let (rt, mode) = (self.rt, self.mode);
            quote!(#rt::Dual<#ty, <#ty as #rt::Differentiable>::TangentIn<#mode>>)
        } else {
            quote!(#ty)
        })
    }

    /// A loop's body, preceded by the zero-tangent cells of the references it promotes.
    fn loop_body(&mut self, body: Region, inst: Inst) -> TokenStream {
        self.cells.push(Vec::new());
        for &p in &self.func.regions[body].params {
            self.depth.insert(p, self.cells.len() - 1);
        }
        let body_ts = self.region(body, Tail::Loop(inst));
        let mut out = self.take_cells();
        self.cells.pop();
        out.extend(body_ts);
        out
    }

    /// Declarations of the innermost scope's zero-tangent cells (emptying it).
    fn take_cells(&mut self) -> TokenStream {
        let innermost = self.cells.len() - 1;
        let cells = std::mem::take(&mut self.cells[innermost]);
        quote!(#(let #cells = ::core::cell::OnceCell::new();)*)
    }

    fn emit_loop(&mut self, inst: Inst, init: Vec<Value>, pre: TokenStream) -> TokenStream {
        let span = self.func.insts[inst].span;
        let params = self.carried_params(inst);
        let inits = self.merge_values(&init, &params);
        let inits = self.coerce_annotated(inits, &init, &params);
        let cell_names: Vec<_> = (0..params.len()).map(|k| self.cell(inst, k)).collect();
        // A carried variable's cell has its written type, so that later iterations may
        // store what coerces to it.
        let cells: Vec<_> = cell_names
            .iter()
            .zip(&params)
            .map(|(cell, p)| match self.annotated_type(*p) {
                Some(ty) => quote!(#cell: #ty),
                None => quote!(#cell),
            })
            .collect();
        let param_names: Vec<_> = params.iter().map(|p| self.name(*p)).collect();
        let label = self.label(inst);
        let results = self.func.insts[inst].results.clone();
        self.loops.push(inst);
        let out = match self.func.insts[inst].kind.clone() {
            InstKind::Loop { body, .. } => {
                let body_ts = self.loop_body(body, inst);
                let value = self.name(results[0]);
                let outs: Vec<_> = results[1..].iter().map(|r| self.name(*r)).collect();
                quote_spanned! {span=>
                    #pre
                    #(let mut #cells = #inits;)*
                    let mut #value = #label: loop {
                        #(let mut #param_names = #cell_names;)*
                        #body_ts
                    };
                    #(let mut #outs = #cell_names;)*
                }
            }
            InstKind::For { iter, body, .. } => {
                let item = self.func.regions[body].params[0];
                let elem = self.name(item);
                // A view of a library value's row (`for mut row in m.row_iter_mut()`),
                // which the body may write through.
                // So is a value of a map lent by `values_mut()`/`iter_mut()`/`&mut m`.
                let lends_mut = match self.func.values[iter].def {
                    ValueDef::Inst(i, _) => match &self.func.insts[i].kind {
                        InstKind::MethodCall { callee, .. } => matches!(
                            callee.std(),
                            Some(StdMethod::ValuesMut | StdMethod::IterMut)
                        ),
                        InstKind::Ref { mutable, .. } => *mutable,
                        _ => false,
                    },
                    _ => false,
                };
                let elem = match *self.lib.get(item) || lends_mut {
                    true => quote!(mut #elem),
                    false => quote!(#elem),
                };
                let iter_ts = self.operand(iter, Need::AsIs);
                let body_ts = self.loop_body(body, inst);
                let outs: Vec<_> = results.iter().map(|r| self.name(*r)).collect();
                // An accumulator carrying its tangent divided by `2ᵏ` (one direction,
                // `Linear::accumulators`): divided on entry, multiplied back on exit.
                let scales: Vec<i32> = params
                    .iter()
                    .map(|p| self.scales.get(p).copied().unwrap_or(0))
                    .collect();
                let rt = self.rt;
                let inits: Vec<TokenStream> = inits
                    .into_iter()
                    .zip(&scales)
                    .map(|(i, k)| match k {
                        0 => i,
                        k => {
                            let k = -k;
                            quote!(#rt::lin::rescaled(#i, #k))
                        }
                    })
                    .collect();
                let exits: Vec<TokenStream> = cell_names
                    .iter()
                    .zip(&scales)
                    .map(|(c, k)| match k {
                        0 => quote!(#c),
                        k => quote!(#rt::lin::rescaled(#c, #k)),
                    })
                    .collect();
                // Loop-invariant roots of an accumulator's update (`Linear::hoists`).
                let hoist_inits = self.hoist_inits(inst, &params, &cell_names);
                let hoist_exits = self.hoist_exits(inst, &params, &outs);
                quote_spanned! {span=>
                    #pre
                    #(let mut #cells = #inits;)*
                    #hoist_inits
                    #label: for #elem in #iter_ts {
                        #(let mut #param_names = #cell_names;)*
                        #body_ts
                    }
                    #(let mut #outs = #exits;)*
                    #hoist_exits
                }
            }
            _ => quote!(),
        };
        self.loops.pop();
        out
    }

    /// Whether the field read `inst` of `base` is only matched on (`match s.load { .. }`)
    /// and `base` is read again: Rust's `match` of a place moves nothing but what the arms
    /// bind by value, whereas reading the field into a dual moves it out of `base`; so read
    /// a clone (a copy for a `Copy` field).
    #[inline(never)]
    fn field_matched_in_place(&self, inst: Inst, base: Value) -> bool {
        let Some(&field) = self.func.insts[inst].results.first() else {
            return false;
        };
        let uses = self.uses.get_or_init(|| crate::linear::uses(self.func));
        let matched = uses.get(&field).is_some_and(|us| {
            !us.is_empty()
                && us.iter().all(|u| {
                    u.is_some_and(|u| {
                        matches!(self.func.insts[u].kind, InstKind::Match { scrutinee, .. } if scrutinee == field)
                    })
                })
        });
        matched && self.scrutinee_read_again(inst, base)
    }

    /// Whether the value `v` matched on by `inst` is an owned value (not a borrow) read
    /// again after the match: later in its region or an enclosing one, or in a loop around
    /// the match that `v` was defined outside of (the next iteration). Reads in other arms
    /// of an enclosing `if`/`match` do not count: only one of them runs.
    fn scrutinee_read_again(&self, inst: Inst, v: Value) -> bool {
        if matches!(self.func.values[v].ty, TypeHint::Ref(_)) {
            return false;
        }
        if let ValueDef::Inst(def, _) = self.func.values[v].def {
            if matches!(
                self.func.insts[def].kind,
                InstKind::Ref { .. } | InstKind::FieldRef { .. } | InstKind::ElemRef { .. }
            ) {
                return false;
            }
        }
        // Where each instruction sits: its region and index; each region's instruction.
        let mut at = std::collections::HashMap::new();
        let mut owner = std::collections::HashMap::new();
        let mut todo = vec![self.func.body];
        while let Some(r) = todo.pop() {
            for (k, &i) in self.func.regions[r].insts.iter().enumerate() {
                at.insert(i, (r, k));
                for c in self.func.inst_regions(i) {
                    owner.insert(c, i);
                    todo.push(c);
                }
            }
        }
        let reads_in = |r: Region, from: usize| -> bool {
            let mut todo: Vec<(Region, usize)> = vec![(r, from)];
            while let Some((r, from)) = todo.pop() {
                let data = &self.func.regions[r];
                for &i in &data.insts[from.min(data.insts.len())..] {
                    if self.func.operands(i).contains(&v) {
                        return true;
                    }
                    todo.extend(self.func.inst_regions(i).into_iter().map(|c| (c, 0)));
                }
                if self.func.term_operands(r).contains(&v) {
                    return true;
                }
            }
            false
        };
        let defined_in = |i: Inst| -> bool {
            // Whether `v` is defined inside instruction `i` (in one of its regions).
            let mut todo = self.func.inst_regions(i);
            while let Some(r) = todo.pop() {
                if self.func.regions[r].params.contains(&v) {
                    return true;
                }
                for &j in &self.func.regions[r].insts {
                    if self.func.insts[j].results.contains(&v) {
                        return true;
                    }
                    todo.extend(self.func.inst_regions(j));
                }
            }
            false
        };
        let mut cur = inst;
        while let Some(&(r, k)) = at.get(&cur) {
            if reads_in(r, k + 1) {
                return true;
            }
            let Some(&parent) = owner.get(&r) else { break };
            let looped = matches!(
                self.func.insts[parent].kind,
                InstKind::Loop { .. } | InstKind::For { .. }
            );
            if looped && !defined_in(parent) {
                // Read again by this match itself on the next iteration.
                return true;
            }
            cur = parent;
        }
        false
    }

    /// `match`: on the primal; for an active scrutinee, on `(primal, tangent)`, where each
    /// active binding gets its tangent from a match of the tangent against the same-shaped
    /// pattern (the tangent has the primal's variant by construction).
    fn emit_match(
        &mut self,
        inst: Inst,
        scrutinee: Value,
        arms: &[Arm],
        scrut: &TokenStream,
        pre: TokenStream,
    ) -> TokenStream {
        let span = self.func.insts[inst].span;
        // A library value over duals (`UnitQuaternion::rotation_between(..)`, an `Option` of
        // a quaternion over duals) is matched as it is: its parts are over duals too.
        let over_duals =
            *self.lib.get(scrutinee) && !crate::libtypes::is_param(self.func, scrutinee);
        let active = self.is(scrutinee) && !over_duals;
        let tan = format_ident!("__fwdad_tan", span = Span::mixed_site());
        // Bound once: a `&mut` scrutinee (`if let Some(d) = &mut s.opt`) is one reborrow,
        // split into its primal and tangent borrows.
        let whole = format_ident!("__fwdad_scrut", span = Span::mixed_site());
        let scrut_ts = if active && self.scrutinee_read_again(inst, scrutinee) {
            // `matches!(s, ..)`, `if let Shape::Rect { w, h } = s` of a value read again
            // later: Rust's `match` of a place moves nothing but what the arms bind by
            // value, whereas splitting the dual moves it; so split a clone (a copy for a
            // `Copy` value).
            quote!({ let #whole = ::core::clone::Clone::clone(&#scrut); (#whole.primal, #whole.tangent) })
        } else if active {
            quote!({ let #whole = #scrut; (#whole.primal, #whole.tangent) })
        } else {
            quote!(#scrut)
        };
        let mut out_arms = Vec::new();
        for (ai, arm) in arms.iter().enumerate() {
            let mut names = Vec::new();
            crate::lower::pattern_bindings(&arm.pat, &TypeHint::Unknown, &mut names);
            let fresh = |prefix: &str, k: usize| {
                format_ident!(
                    "__{}{}_{}_{}",
                    prefix,
                    crate::ir::entity::EntityRef::index(inst),
                    ai,
                    k,
                    span = Span::mixed_site()
                )
            };
            let by_name = |prefix: &str| -> std::collections::HashMap<String, syn::Ident> {
                names
                    .iter()
                    .enumerate()
                    .map(|(k, (n, _))| (n.to_string(), fresh(prefix, k)))
                    .collect()
            };
            let primal_names = by_name("p");
            let mut pat_p = arm.pat.clone();
            RenameBindings {
                names: &primal_names,
            }
            .visit_pat_mut(&mut pat_p);
            // Which bindings carry tangents: those of the body's active parameters.
            let body_params = self.func.regions[arm.body].params.clone();
            let active_names: std::collections::HashMap<String, syn::Ident> = names
                .iter()
                .enumerate()
                .filter(|(k, _)| active && body_params.get(*k).is_some_and(|p| self.is(*p)))
                .map(|(k, (n, _))| (n.to_string(), fresh("t", k)))
                .collect();
            let arm_pat = if active {
                quote!((#pat_p, #tan))
            } else {
                quote!(#pat_p)
            };
            let lets = |e: &Self, region: Region| -> TokenStream {
                let params = e.func.regions[region].params.clone();
                let mut out = TokenStream::new();
                if !active_names.is_empty() {
                    let tpat = tangent_pattern(&arm.pat, &active_names);
                    let ts: Vec<_> = (0..names.len())
                        .filter_map(|k| active_names.get(&names[k].0.to_string()))
                        .collect();
                    let msg = "fwdad: a dual's tangent must have the primal's shape (same variant)";
                    out.extend(quote!(let (#(#ts,)*) = match #tan { #tpat => (#(#ts,)*), _ => ::core::panic!(#msg) };));
                }
                for (k, p) in params.iter().enumerate() {
                    let pname = e.name(*p);
                    let bp = fresh("p", k);
                    let rt = e.rt;
                    out.extend(match (active, active_names.get(&names[k].0.to_string())) {
                        (true, Some(t)) => quote!(let mut #pname = #rt::Dual::new(#bp, #t);),
                        (true, None) => quote!(let mut #pname = #bp;),
                        (false, _) => quote!(let mut #pname = #bp;),
                    });
                }
                out
            };
            let guard = arm.guard.map(|g| {
                let l = lets(self, g);
                let body = self.region(g, Tail::Guard);
                quote!(if { #l #body })
            });
            let l = lets(self, arm.body);
            let body = self.region(arm.body, Tail::If(inst));
            out_arms.push(quote!(#arm_pat #guard => { #l #body }));
        }
        let lhs = self.lhs(inst);
        quote_spanned!(span=> #pre #lhs match #scrut_ts { #(#out_arms),* };)
    }

    /// A macro the registry does not know, naming locals: run on their primals, each
    /// rebound under its own name. Its value must carry no derivative (the runtime's
    /// `opaque_macro` checks its type), unless no local it names carries one (libm's
    /// `i!(ATANHI, id as usize)`: a constant, float or not) or its value is dropped
    /// (libm's `force_eval!(x as f32);`, a statement; also a statement macro expanding
    /// to statements, `select_implementation! { .. }`).
    #[inline(never)]
    fn opaque_macro(
        &self,
        inst: Inst,
        kind: &InstKind,
        a: &[TokenStream],
        span: Span,
    ) -> TokenStream {
        let InstKind::Opaque {
            mac,
            captures,
            args,
            lent,
        } = kind
        else {
            return quote!();
        };
        let rt = self.rt;
        let lets = captures.iter().zip(a).enumerate().map(|(i, (c, a))| {
            if i == 0 && *lent {
                quote_spanned!(span=> let #c = &mut #a;)
            } else if args.get(i).is_some_and(|v| self.is_mut_ref_param(*v)) {
                // A `&mut f64` parameter read by the macro (statrs' `relative_eq!(*x,
                // x_new)` in `fn convergence(x: &mut f64, ..)`): read through a shared
                // reborrow, as a `&mut` is not `Clone`.
                quote_spanned!(span=> let #c = &*#a;)
            } else {
                quote_spanned!(span=> let #c = ::core::clone::Clone::clone(&#a);)
            }
        });
        let result = self.func.insts[inst].results.first().copied();
        let uses = self.uses.get_or_init(|| crate::linear::uses(self.func));
        // (`write!(out, ..)`, which lends its destination, keeps its checked form: its
        // `fmt::Result` dropped as a statement would be `unused_must_use`.)
        let dropped = !*lent && result.is_none_or(|r| uses.get(&r).is_none_or(|us| us.is_empty()));
        if dropped {
            quote_spanned!(span=> { #(#lets)* #mac; })
        } else if args.iter().all(|v| !self.is(*v)) {
            quote_spanned!(span=> { #(#lets)* #mac })
        } else {
            quote_spanned!(span=> { #(#lets)* #rt::opaque_macro(#mac) })
        }
    }

    /// Whether `v` is a parameter of a `&mut` type (`x: &mut f64`).
    #[inline(never)]
    fn is_mut_ref_param(&self, v: Value) -> bool {
        match self.func.values[v].def {
            crate::ir::ValueDef::Param(i) => self.func.params.get(i).is_some_and(
                |p| matches!(&p.ty, syn::Type::Reference(r) if r.mutability.is_some()),
            ),
            _ => false,
        }
    }

    /// Whether some `return` hands back `v` itself.
    fn is_returned(&self, v: Value) -> bool {
        (self.func.regions.iter()).any(|(_, r)| matches!(r.term, Terminator::Return(x) if x == v))
    }

    /// The source operation on (already coerced) operands.
    fn primal_expr(
        &self,
        inst: Inst,
        kind: &InstKind,
        a: &[TokenStream],
        span: Span,
    ) -> TokenStream {
        match kind {
            InstKind::Copy(_) => a[0].clone(),
            InstKind::Lit(l) => l.to_token_stream(),
            InstKind::Const(p)
                if self.const_item_read_in_place(self.func.insts[inst].results[0]) =>
            {
                quote_spanned!(span=> &#p)
            }
            InstKind::Const(p) => p.to_token_stream(),
            InstKind::Binary { op, .. } => {
                let (l, r) = (&a[0], &a[1]);
                let op = binop_tokens(*op, span);
                quote_spanned!(span=> #l #op #r)
            }
            InstKind::Unary { op, .. } => {
                let x = &a[0];
                match op {
                    UnOp::Neg => quote_spanned!(span=> -#x),
                    UnOp::Not => quote_spanned!(span=> !#x),
                    UnOp::Deref => quote_spanned!(span=> *#x),
                }
            }
            InstKind::Ref { mutable: true, .. } => quote_spanned!(span=> &mut #(#a)*),
            InstKind::Ref { mutable: false, .. } => quote_spanned!(span=> &#(#a)*),
            InstKind::Cast { ty, .. } => {
                let x = &a[0];
                // `&p as &dyn Tr` of a type whose derived `impl` is generic: an error here
                // (it has no table of rules for a trait object), not a panic at the call;
                // every other cast compiles as before (`traits::CastCheck`).
                match crate::traits::dyn_ref_trait_key(ty) {
                    Some(key) => {
                        let rt = self.rt;
                        quote_spanned! {span=> {
                            #[allow(unused_imports)]
                            use #rt::traits::{CastOfGenericImpl as _, CastOfOtherImpl as _};
                            (&#rt::traits::CastCheck::<_, #key>::of(&#x)).check_dyn_cast();
                            #x as #ty
                        }}
                    }
                    None => quote_spanned!(span=> #x as #ty),
                }
            }
            InstKind::Tuple(_) => quote_spanned!(span=> (#(#a,)*)),
            InstKind::Array(_) => quote_spanned!(span=> [#(#a),*]),
            InstKind::Repeat { len, .. } => {
                let x = &a[0];
                quote_spanned!(span=> [#x; #len])
            }
            InstKind::VecList(_) => {
                let rt = self.rt;
                quote_spanned!(span=> #rt::alloc::vec![#(#a),*])
            }
            InstKind::Struct { path, fields, base } => {
                let members: Vec<_> = fields.iter().map(|(m, _)| m).collect();
                let vals = &a[..fields.len()];
                let b = base.map(|_| {
                    let b = &a[fields.len()];
                    quote!(..#b)
                });
                quote_spanned!(span=> #path { #(#members: #vals,)* #b })
            }
            InstKind::FieldRef {
                member, mutable, ..
            } => {
                let x = &a[0];
                if *mutable {
                    quote_spanned!(span=> &mut #x.#member)
                } else {
                    quote_spanned!(span=> &#x.#member)
                }
            }
            InstKind::VecRepeat { .. } => {
                let (x, n, rt) = (&a[0], &a[1], self.rt);
                quote_spanned!(span=> #rt::alloc::vec![#x; #n])
            }
            InstKind::Field { member, .. } => {
                let x = &a[0];
                quote_spanned!(span=> #x.#member)
            }
            InstKind::Index { .. } => {
                let (x, i) = (&a[0], &a[1]);
                quote_spanned!(span=> #x[#i])
            }
            InstKind::ElemRef { base, mutable, .. } if *self.ndarray.get(*base) => {
                let (x, i) = (&a[0], &a[1]);
                let iter = match mutable {
                    true => quote_spanned!(span=> iter_mut),
                    false => quote_spanned!(span=> iter),
                };
                quote_spanned!(span=> #x.#iter().nth(#i).expect("index out of bounds"))
            }
            InstKind::ElemRef { mutable, .. } => {
                let (x, i) = (&a[0], &a[1]);
                if *mutable {
                    quote_spanned!(span=> &mut #x[#i])
                } else {
                    quote_spanned!(span=> &#x[#i])
                }
            }
            InstKind::Slice { mutable, .. } => {
                let (x, r) = (&a[0], &a[1]);
                if *mutable {
                    quote_spanned!(span=> &mut #x[#r])
                } else {
                    quote_spanned!(span=> &#x[#r])
                }
            }
            InstKind::Range { start, end, closed } => {
                let mut it = a.iter();
                let s = start.map(|_| it.next().cloned().unwrap_or_default());
                let e = end.map(|_| it.next().cloned().unwrap_or_default());
                if *closed {
                    quote_spanned!(span=> (#s..=#e))
                } else {
                    quote_spanned!(span=> (#s..#e))
                }
            }
            InstKind::MethodCall {
                receiver,
                method,
                turbofish,
                callee,
                ..
            } => {
                let recv = &a[0];
                let rest = &a[1..];
                // An integer method on a borrowed field (`c.n.min(x.len())`): `Ord::min` on
                // `&usize` would want a `&usize` argument, so the integer is copied out.
                let int_result = self.func.insts[inst]
                    .results
                    .first()
                    .is_some_and(|&r| self.func.values[r].ty == TypeHint::Int);
                // Typed integer by its name or its integer argument, not by its receiver.
                let int_method = match callee {
                    MethodCallee::Float(op) => op.is_int_arg(),
                    MethodCallee::Std(m) => m.is_integer() || m.takes_int_arg(),
                    MethodCallee::User | MethodCallee::Unknown | MethodCallee::Unresolved => false,
                };
                let by_ref = matches!(self.func.values[*receiver].ty, TypeHint::Ref(_));
                // A float method in a generic function by its trait: `T` may also have
                // nalgebra's `RealField`, which has methods of the same names. Not on a
                // library value (`z.exp()` of a `Complex<T>`: its own method).
                let by_trait = self.func.type_params
                    && matches!(callee, MethodCallee::Float(_))
                    && !*self.lib.get(*receiver)
                    && !int_result
                    && *self.func.values[*receiver].ty.deref_all_pub() != TypeHint::Int;
                // `row /= n` of a view of a library value's row, column or lane (lowered
                // as `row.div_assign(n)`): the view's operator, written through it.
                let view_op = match *self.lib.get(*receiver) && rest.len() == 1 {
                    true => crate::libtypes::assign_trait(method),
                    false => None,
                };
                let call = if let Some(tr) = view_op {
                    let tr = syn::Ident::new(tr, span);
                    quote_spanned!(span=> ::core::ops::#tr::#method(&mut #recv, #(#rest),*))
                } else if int_result && by_ref && int_method {
                    quote_spanned!(span=> (*#recv).#method #turbofish (#(#rest),*))
                } else if by_trait {
                    let rt = self.rt;
                    quote_spanned!(span=> #rt::NumFloat::#method #turbofish (#recv #(, #rest)*))
                } else {
                    quote_spanned!(span=> #recv.#method #turbofish (#(#rest),*))
                };
                // Taken for an integer's method by its name or argument alone: a float result
                // (a user type's method of that name, `s.max(2)`) must not pass as a
                // constant.
                if int_result
                    && int_method
                    && *self.func.values[*receiver].ty.deref_all_pub() != TypeHint::Int
                {
                    let rt = self.rt;
                    quote_spanned!(span=> #rt::integer(#call))
                } else {
                    call
                }
            }
            InstKind::Call { func, .. } => {
                // A library constant without float arguments and without a written type
                // (`Matrix3::identity()`) names its scalar, `f64`.
                let untyped = self.func.insts[inst]
                    .results
                    .first()
                    .is_some_and(|r| !self.func.annotations.contains_key(r))
                    && self
                        .func
                        .operands(inst)
                        .iter()
                        .all(|v| self.func.values[*v].ty == TypeHint::Int);
                let qself = self.func.insts[inst]
                    .results
                    .first()
                    .and_then(|r| self.func.qualified_self.get(r));
                match crate::libtypes::default_scalar(func, self.one_float()).filter(|_| untyped) {
                    Some(func) => quote_spanned!(span=> #func(#(#a),*)),
                    None => match qself {
                        // `<Decay as Model>::new(a, b)` as written.
                        Some(q) => {
                            let mut tr = func.clone();
                            let last = tr.segments.pop().map(|p| p.into_value());
                            let colon = tr.leading_colon;
                            let tr: Vec<_> = tr.segments.iter().collect();
                            quote_spanned!(span=> <#q as #colon #(#tr)::*>::#last(#(#a),*))
                        }
                        None => quote_spanned!(span=> #func(#(#a),*)),
                    },
                }
            }
            InstKind::Store { place, .. } => match place {
                Place::Deref(_) => {
                    let (t, v) = (&a[0], &a[1]);
                    let forget = self.forget_overwritten(place, quote!(&*#t));
                    quote_spanned!(span=> { #forget *#t = #v; })
                }
                Place::Index(..) => {
                    let (t, i, v) = (&a[0], &a[1], &a[2]);
                    let forget = self.forget_overwritten(place, quote!(&#t[#i]));
                    quote_spanned!(span=> { #forget #t[#i] = #v; })
                }
                Place::Field(_, m) => {
                    let (t, v) = (&a[0], &a[1]);
                    quote_spanned!(span=> { #t.#m = #v; })
                }
            },
            // `dbg!` as it prints: `file!()`/`line!()` at the user's span give the user's
            // location.
            InstKind::Print {
                mac: StdMacro::Dbg,
                shown,
                ..
            } => match a.first() {
                Some(v) => quote_spanned!(span=> ::std::eprintln!(
                    "[{}:{}:{}] {} = {:#?}", ::std::file!(), ::std::line!(), ::std::column!(),
                    ::std::stringify!(#shown), #v
                )),
                None => quote_spanned!(span=> ::std::eprintln!(
                    "[{}:{}:{}]", ::std::file!(), ::std::line!(), ::std::column!()
                )),
            },
            InstKind::Print {
                mac, fmt, names, ..
            } => {
                let args = names.iter().zip(a).map(|(n, a)| match n {
                    Some(n) => quote_spanned!(span=> #n = #a),
                    None => quote_spanned!(span=> #a),
                });
                // `format!` from `alloc`, the printing macros from `std` (a `no_std`
                // crate has none), the others (`assert!`, `panic!`) from `core`.
                let krate = match mac {
                    StdMacro::Format => {
                        let rt = self.rt;
                        quote_spanned!(span=> #rt::alloc)
                    }
                    StdMacro::Println
                    | StdMacro::Print
                    | StdMacro::Eprintln
                    | StdMacro::Eprint
                    | StdMacro::Dbg => quote_spanned!(span=> ::std),
                    _ => quote_spanned!(span=> ::core),
                };
                let mac = mac.ident(span);
                quote_spanned!(span=> #krate::#mac!(#fmt #(, #args)*))
            }
            // Each named local rebound to its primal (immutably: a macro that assigns one
            // fails to compile instead of changing a copy).
            // Naming no local, its value is a constant of any type (see lowering).
            InstKind::Opaque { mac, captures, .. } if captures.is_empty() => quote!(#mac),
            InstKind::Opaque { .. } => self.opaque_macro(inst, kind, a, span),
            InstKind::Poison => quote_spanned!(span=> ::core::unreachable!()),
            InstKind::If { .. }
            | InstKind::Match { .. }
            | InstKind::Loop { .. }
            | InstKind::For { .. } => quote!(),
        }
    }
}

/// `ts` reported at `span` (the operation), resolved where it was: an operand that is not a
/// float (a struct given to `+`) is then reported in the expression, not at the variable's
/// declaration.
impl Emitter<'_> {
    /// The dual form of a closure passed as an argument of `path`'s function: its
    /// differentiated body (`crate::higher_order::prepare`) as a closure whose parameters
    /// are duals, given to the callee's `__fwdad_fn_arg<i>` for their types; the captures
    /// (`args`) are bound inside, copied, as the body's last parameters.
    fn closure_arg(
        &mut self,
        inst: Inst,
        path: &syn::Path,
        args: &[TokenStream],
        span: Span,
    ) -> (TokenStream, TokenStream) {
        let Some(result) = self.func.insts[inst].results.first() else {
            return Default::default();
        };
        let Some(ca) = self.func.closures.get(result) else {
            return Default::default();
        };
        let marker = strip_generics(path);
        let mode = self.mode;
        let float = self.helper_float();
        // For a method of the user's: one bound reporting a receiver type without a rule,
        // shared by the closure's two helpers, so that rustc reports it once.
        let stand_in = match &ca.target {
            crate::ir::ClosureTarget::Method { receiver } => {
                self.no_rule_helper_bound(*receiver, &path_ident(path), span)
            }
            _ => None,
        };
        let f = match &ca.named {
            // A function passed by name: its rule, as a function of duals.
            Some(named) => {
                let rule = strip_generics(named);
                let helper = format_ident!("__fwdad_rule_arg{}", ca.index, span = span);
                match &ca.target {
                    crate::ir::ClosureTarget::Method { receiver } => {
                        let recv = self.method_helper_receiver(*receiver);
                        let helper = crate::register::method_helper_name(
                            "rule_arg",
                            ca.index,
                            &path_ident(path),
                            span,
                        );
                        quote_spanned!(span=> #recv.#helper::<#mode, #float, _>(#rule {}))
                    }
                    crate::ir::ClosureTarget::Assoc => {
                        let (ty, helper) = assoc_helper(path, &helper, span);
                        quote_spanned!(span=> #ty::#helper::<#mode, #float, _>(#rule {}))
                    }
                    _ => quote_spanned!(span=> #marker::#helper::<#mode, #float, _>(#rule {})),
                }
            }
            None => {
                let body = ca.body.clone().unwrap_or_default();
                let n = ca.closure.inputs.len();
                let params: Vec<_> = (0..n).map(param_ident).collect();
                // Each capture held as the closure holds it (`crate::ir::Capture`): a
                // copy, the caller's reference (`ref`, `ref_mut` operands), or the value
                // moved in; what is held is lent to the body at each call, never copied.
                let held: Vec<_> = (0..args.len())
                    .map(|k| format_ident!("__fwdad_cap{}", k, span = Span::mixed_site()))
                    .collect();
                let rt = self.rt;
                let ops = self.func.operands(inst);
                let mode_of = |k: usize| ca.modes.get(k).copied().unwrap_or(Capture::Copy);
                let is_dual = |k: usize| ops.get(k).is_some_and(|v| self.is(*v));
                let hold = args
                    .iter()
                    .zip(&held)
                    .enumerate()
                    .map(|(k, (a, h))| match mode_of(k) {
                        // Of the parameter's binding itself (its operand is a reborrow
                        // already, a temporary).
                        Capture::Reborrow { mutable } => {
                            let r = self.name(ops[k]);
                            match (mutable, is_dual(k)) {
                                (true, true) => quote!(let mut #h = #rt::reborrow(&mut #r);),
                                (true, false) => quote!(let mut #h = &mut *#r;),
                                (false, true) => {
                                    quote!(let #h = #rt::Dual::new(&*#r.primal, &*#r.tangent);)
                                }
                                (false, false) => quote!(let #h = &*#r;),
                            }
                        }
                        Capture::MoveCell
                            if !is_dual(k) && crate::higher_order::is_owned_float_state(ca, k) =>
                        {
                            let mode = self.mode;
                            quote!(let #h = ::core::cell::RefCell::new(#rt::constant_in::<#mode, _>(#a));)
                        }
                        Capture::LendCell | Capture::MoveCell => {
                            quote!(let #h = ::core::cell::RefCell::new(#a);)
                        }
                        Capture::LendMut | Capture::Move => quote!(let mut #h = #a;),
                        Capture::Borrow => quote!(let #h = #a;),
                        Capture::Copy => quote!(let #h = ::core::clone::Clone::clone(&#a);),
                    });
                let caps = held.iter().enumerate().map(|(k, h)| {
                    let p = param_ident(n + k);
                    match (mode_of(k), is_dual(k)) {
                        (Capture::LendMut | Capture::Reborrow { mutable: true }, true) => {
                            quote!(let #p = #rt::reborrow(&mut #h);)
                        }
                        (Capture::LendMut | Capture::Reborrow { mutable: true }, false) => {
                            quote!(let #p = &mut *#h;)
                        }
                        // The guard lives to the end of the call.
                        (Capture::LendCell, dual) => {
                            let g = format_ident!("__fwdad_guard{}", k, span = Span::mixed_site());
                            match dual {
                                true => quote!(let mut #g = #h.borrow_mut(); let #p = #rt::reborrow(&mut *#g);),
                                false => quote!(let mut #g = #h.borrow_mut(); let #p = &mut **#g;),
                            }
                        }
                        (Capture::MoveCell, dual) => {
                            let dual = dual || crate::higher_order::is_owned_float_state(ca, k);
                            let g = format_ident!("__fwdad_guard{}", k, span = Span::mixed_site());
                            match dual {
                                true => quote!(let mut #g = #h.borrow_mut(); let #p = #g.as_mut();),
                                false => quote!(let mut #g = #h.borrow_mut(); let #p = &mut *#g;),
                            }
                        }
                        (Capture::Reborrow { mutable: false }, _) => quote!(let #p = #h;),
                        (Capture::Move, true) => quote!(let #p = #h.as_ref();),
                        (Capture::Move, false) => quote!(let #p = &#h;),
                        (Capture::Borrow, _) => quote!(let #p = #h;),
                        (Capture::Copy, _) => quote!(let #p = ::core::clone::Clone::clone(&#h);),
                    }
                });
                let helper = match ca.index {
                    crate::ir::RETURNED => format_ident!("__fwdad_fn_ret", span = span),
                    i => format_ident!("__fwdad_fn_arg{}", i, span = span),
                };
                match &ca.target {
                    crate::ir::ClosureTarget::Function => {
                        quote_spanned!(span=> { #(#hold)* #marker::#helper::<#mode, #float, _>(move |#(#params),*| { #(#caps)* #body }) })
                    }
                    crate::ir::ClosureTarget::Method { receiver } => {
                        let recv = self.method_helper_receiver(*receiver);
                        let helper = crate::register::method_helper_name(
                            "fn_arg",
                            ca.index,
                            &path_ident(path),
                            span,
                        );
                        let call = quote_spanned!(span=> #recv.#helper::<#mode, #float, _>(move |#(#params),*| { #(#caps)* #body }));
                        let call = match &stand_in {
                            Some((missing, _)) => {
                                no_rule_helper_fallback(self.rt, missing, &helper, call, span)
                            }
                            None => call,
                        };
                        quote_spanned!(span=> { #(#hold)* #call })
                    }
                    crate::ir::ClosureTarget::Assoc => {
                        let (ty, helper) = assoc_helper(path, &helper, span);
                        quote_spanned!(span=> { #(#hold)* #ty::#helper::<#mode, #float, _>(move |#(#params),*| { #(#caps)* #body }) })
                    }
                    // The library maps it over its elements, scalar duals of the mode
                    // (ndarray's `map` lends each one) over the function's float type:
                    // `f64`, or `T` in `fn f<T: Float>`, whose library values are over `T`.
                    crate::ir::ClosureTarget::Library { receiver, map, .. } => {
                        let rt = self.rt;
                        let scalar = quote!(#rt::Dual<#float, <#float as #rt::Differentiable>::TangentIn<#mode>>);
                        let by_ref =
                            |k: usize| map.lends_in_ndarray(k) && !*self.nalgebra.get(*receiver);
                        let typed = params.iter().enumerate().map(|(k, p)| match by_ref(k) {
                            true => quote!(#p: &#scalar),
                            false => quote!(#p: #scalar),
                        });
                        // A lent element is read by copy; in a function generic over its
                        // float type as a borrowed dual, whose `*v` (`&v`) is generic
                        // where a dual's own is per float type.
                        let generic = !self.func.float_params.is_empty();
                        let deref =
                            params
                                .iter()
                                .enumerate()
                                .filter(|(k, _)| by_ref(*k))
                                .map(|(_, p)| match generic {
                                    true => {
                                        quote!(let #p = #rt::Dual::new(&#p.primal, &#p.tangent);)
                                    }
                                    false => quote!(let #p = ::core::clone::Clone::clone(#p);),
                                });
                        quote_spanned!(span=> { #(#hold)* move |#(#typed),*| { #(#deref)* #(#caps)* #body } })
                    }
                }
            }
        };
        self.temps += 1;
        let held = format_ident!("__fwdad_fn{}", self.temps, span = Span::mixed_site());
        let bound = stand_in.as_ref().map(|(_, b)| b);
        let pre = quote_spanned!(span=> #bound let mut #held = #f;);
        let passed = match ca.wrap {
            crate::ir::ArgWrap::Plain => quote_spanned!(span=> #held),
            crate::ir::ArgWrap::Ref => quote_spanned!(span=> &#held),
            crate::ir::ArgWrap::RefMut => quote_spanned!(span=> &mut #held),
            crate::ir::ArgWrap::Boxed => {
                let rt = self.rt;
                quote_spanned!(span=> #rt::alloc::Box::new(#held))
            }
        };
        if ca.index == crate::ir::RETURNED {
            return (pre, passed);
        }
        let pass = format_ident!("__fwdad_fn_pass{}", ca.index, span = span);
        match &ca.target {
            crate::ir::ClosureTarget::Function => (
                pre,
                quote_spanned!(span=> #marker::#pass::<#mode, #float, _>(#passed)),
            ),
            // Converted before the call, which lends the receiver `&mut`.
            crate::ir::ClosureTarget::Method { receiver } => {
                let recv = self.method_helper_receiver(*receiver);
                let pass = crate::register::method_helper_name(
                    "fn_pass",
                    ca.index,
                    &path_ident(path),
                    span,
                );
                self.temps += 1;
                let conv = format_ident!("__fwdad_fn{}", self.temps, span = Span::mixed_site());
                let call = quote_spanned!(span=> #recv.#pass::<#mode, #float, _>(#passed));
                let call = match &stand_in {
                    Some((missing, _)) => {
                        no_rule_helper_fallback(self.rt, missing, &pass, call, span)
                    }
                    None => call,
                };
                let pre = quote_spanned!(span=> #pre let mut #conv = #call;);
                (pre, quote_spanned!(span=> #conv))
            }
            crate::ir::ClosureTarget::Assoc => {
                let (ty, pass) = assoc_helper(path, &pass, span);
                (
                    pre,
                    quote_spanned!(span=> #ty::#pass::<#mode, #float, _>(#passed)),
                )
            }
            crate::ir::ClosureTarget::Library { .. } => (pre, passed),
        }
    }

    /// Whether `v` is `&f` (or `&mut f`) of a function value: a call converts it to the
    /// parameter's type (`&dyn Fn(..)`) through the callee's helper.
    fn lends_fn_value(&self, v: Value) -> bool {
        match self.func.values[v].def {
            crate::ir::ValueDef::Inst(i, _) => matches!(
                &self.func.insts[i].kind,
                InstKind::Ref { arg, .. } if self.func.fn_sources.contains(arg)
            ),
            _ => false,
        }
    }

    /// The function's float type parameter when it has exactly one (`T` of `fn fk<T:
    /// RealField>`): the scalar of a library constant whose scalar is not written.
    fn one_float(&self) -> Option<&syn::Ident> {
        match self.func.float_params.as_slice() {
            [t] => Some(t),
            _ => None,
        }
    }

    /// The float type the helpers of a callee taking function values are named at: the
    /// function's float type parameter, `f64` without one (lowering rejects a closure
    /// from a function with more than one; a function value lent on takes the first).
    fn helper_float(&self) -> TokenStream {
        match self.func.float_params.first() {
            None => quote!(f64),
            Some(t) => quote!(#t),
        }
    }

    /// The bound that reports `receiver`'s type as having no rule for `method`, for the
    /// stand-ins of the helpers that hand a closure to it ([`no_rule_helper_fallback`]),
    /// and its name; none for a receiver bound by a trait (its rules are the trait's).
    fn no_rule_helper_bound(
        &mut self,
        receiver: Value,
        method: &syn::Ident,
        span: Span,
    ) -> Option<(syn::Ident, TokenStream)> {
        if self.func.bound_receivers.contains(&receiver) {
            return None;
        }
        let m = method.unraw();
        let n = self.stand_ins.entry(format!("{m}/closure")).or_default();
        *n += 1;
        let label = format!("`{m}` has no forward rule, so this closure cannot be passed to it");
        Some(no_rule_bound(
            &self.func.name,
            method,
            (*n, RecvNotes::default()),
            ("_with_a_closure", &label),
            span,
        ))
    }

    /// The receiver through which a call reaches the helpers of a method of the user's:
    /// its primal.
    fn method_helper_receiver(&self, receiver: crate::ir::Value) -> TokenStream {
        let recv = self.name(receiver);
        match self.is(receiver) {
            true => quote!(#recv.primal),
            false => quote!(#recv),
        }
    }
}

/// For a method called by path (`Ty::m`, `Ty::<T>::m`): the type's path and the name of
/// its helper `base` for that method (`__fwdad_fn_arg1_of_m`).
fn assoc_helper(path: &syn::Path, base: &syn::Ident, span: Span) -> (TokenStream, syn::Ident) {
    let mut ty = path.clone();
    let method = ty.segments.pop().map(|p| p.into_value().ident);
    let method = method.unwrap_or_else(|| format_ident!("__fwdad_unnamed"));
    let segs: Vec<_> = ty.segments.iter().collect();
    let colon = ty.leading_colon;
    (
        quote!(#colon #(#segs)::*),
        format_ident!("{}_of_{}", base, method, span = span),
    )
}

/// The last identifier of `path` (a method's name, for its helpers).
fn path_ident(path: &syn::Path) -> syn::Ident {
    path.segments
        .last()
        .map(|s| s.ident.clone())
        .unwrap_or_else(|| format_ident!("__fwdad_unnamed"))
}

fn located_at(ts: &TokenStream, span: Span) -> TokenStream {
    ts.clone()
        .into_iter()
        .map(|mut t| {
            if let proc_macro2::TokenTree::Group(g) = &t {
                let mut ng = proc_macro2::Group::new(g.delimiter(), located_at(&g.stream(), span));
                ng.set_span(g.span().located_at(span));
                t = proc_macro2::TokenTree::Group(ng);
            } else {
                t.set_span(t.span().located_at(span));
            }
            t
        })
        .collect()
}

fn binop_tokens(op: BinOp, span: Span) -> TokenStream {
    match op {
        BinOp::Add => quote_spanned!(span=> +),
        BinOp::Sub => quote_spanned!(span=> -),
        BinOp::Mul => quote_spanned!(span=> *),
        BinOp::Div => quote_spanned!(span=> /),
        BinOp::Rem => quote_spanned!(span=> %),
        BinOp::BitAnd => quote_spanned!(span=> &),
        BinOp::BitOr => quote_spanned!(span=> |),
        BinOp::BitXor => quote_spanned!(span=> ^),
        BinOp::Shl => quote_spanned!(span=> <<),
        BinOp::Shr => quote_spanned!(span=> >>),
        BinOp::Eq => quote_spanned!(span=> ==),
        BinOp::Ne => quote_spanned!(span=> !=),
        BinOp::Lt => quote_spanned!(span=> <),
        BinOp::Le => quote_spanned!(span=> <=),
        BinOp::Gt => quote_spanned!(span=> >),
        BinOp::Ge => quote_spanned!(span=> >=),
    }
}

/// Renames a pattern's bindings (and drops their `mut`: the arm rebinds them with `let mut`).
struct RenameBindings<'n> {
    names: &'n std::collections::HashMap<String, syn::Ident>,
}

impl syn::visit_mut::VisitMut for RenameBindings<'_> {
    fn visit_pat_ident_mut(&mut self, pi: &mut syn::PatIdent) {
        if let Some(new) = self.names.get(&pi.ident.to_string()) {
            pi.ident = new.clone();
            pi.mutability = None;
        }
        syn::visit_mut::visit_pat_ident_mut(self, pi);
    }
    /// A shorthand field (`Circle { r }`) is written out, `Circle { r: __p0 }`.
    fn visit_field_pat_mut(&mut self, fp: &mut syn::FieldPat) {
        if fp.colon_token.is_none() {
            fp.colon_token = Some(syn::Token![:](syn::spanned::Spanned::span(&fp.member)));
        }
        syn::visit_mut::visit_field_pat_mut(self, fp);
    }
}

/// The pattern that reads the tangents of the active bindings `names` out of a tangent of
/// the scrutinee's shape: bindings kept (renamed), everything without one becomes `_`.
fn tangent_pattern(
    pat: &syn::Pat,
    names: &std::collections::HashMap<String, syn::Ident>,
) -> TokenStream {
    fn binds(pat: &syn::Pat, names: &std::collections::HashMap<String, syn::Ident>) -> bool {
        let mut found = Vec::new();
        crate::lower::pattern_bindings(pat, &TypeHint::Unknown, &mut found);
        found
            .iter()
            .any(|(n, _)| names.contains_key(&n.to_string()))
    }
    if !binds(pat, names) {
        return match pat {
            syn::Pat::Rest(_) => quote!(..),
            _ => quote!(_),
        };
    }
    match pat {
        syn::Pat::Ident(pi) => {
            let name = names.get(&pi.ident.to_string());
            match (&pi.subpat, name) {
                (Some((_, sub)), Some(t)) => {
                    let sub = tangent_pattern(sub, names);
                    quote!(#t @ #sub)
                }
                (Some((_, sub)), None) => tangent_pattern(sub, names),
                (None, Some(t)) => quote!(#t),
                (None, None) => quote!(_),
            }
        }
        // `Shape::Rect { w, .. }` reads `ShapeTangent::Rect { w: __t0, .. }`.
        syn::Pat::Struct(st) => {
            let path = pattern_tangent_path(&st.path);
            let fields = st
                .fields
                .iter()
                .filter(|fp| binds(&fp.pat, names))
                .map(|fp| {
                    let (m, p) = (&fp.member, tangent_pattern(&fp.pat, names));
                    quote!(#m: #p)
                });
            quote!(#path { #(#fields,)* .. })
        }
        syn::Pat::Tuple(t) => {
            let elems: Vec<_> = t.elems.iter().map(|p| tangent_pattern(p, names)).collect();
            quote!((#(#elems,)*))
        }
        syn::Pat::TupleStruct(ts) => {
            let path = pattern_tangent_path(&ts.path);
            let elems: Vec<_> = ts.elems.iter().map(|p| tangent_pattern(p, names)).collect();
            quote!(#path(#(#elems),*))
        }
        syn::Pat::Or(o) => {
            let cases: Vec<_> = o.cases.iter().map(|p| tangent_pattern(p, names)).collect();
            quote!(#(#cases)|*)
        }
        syn::Pat::Paren(p) => tangent_pattern(&p.pat, names),
        syn::Pat::Reference(r) => {
            let inner = tangent_pattern(&r.pat, names);
            let m = r.mutability;
            quote!(&#m #inner)
        }
        syn::Pat::Type(t) => tangent_pattern(&t.pat, names),
        _ => quote!(_),
    }
}

/// `m::Params` → `m::ParamsTangent`: the tangent struct `#[derive(Differentiable)]` makes;
/// for a variant, `m::Shape::Circle` → `m::ShapeTangent::Circle`, the tangent enum's.
fn tangent_path(path: &syn::Path) -> syn::Path {
    let mut p = path.clone();
    let at = if is_variant_path(path) {
        p.segments.len() - 2
    } else {
        p.segments.len().saturating_sub(1)
    };
    if let Some(seg) = p.segments.iter_mut().nth(at) {
        seg.ident = format_ident!("{}Tangent", seg.ident, span = seg.ident.span());
        seg.arguments = syn::PathArguments::None;
    }
    for seg in p.segments.iter_mut().skip(at) {
        seg.arguments = syn::PathArguments::None;
    }
    // A type the file imports alone (`use crate::geometry::Vec3;`): its twin by the path
    // of the type's module, which the `use` does not bring into scope.
    let imported = match (at, path.leading_colon, path.segments.first()) {
        (0, None, Some(first)) => crate::aliases::imported_tangent(&first.ident),
        _ => None,
    };
    if let Some(full) = imported {
        let span = path.segments[0].ident.span();
        // The segments are identifiers' texts (`r#type` a raw one's).
        let head = full.iter().map(|s| match s.strip_prefix("r#") {
            Some(raw) => syn::PathSegment::from(syn::Ident::new_raw(raw, span)),
            None => syn::PathSegment::from(syn::Ident::new(s, span)),
        });
        p.segments = head.chain(p.segments.into_iter().skip(1)).collect();
    }
    p
}

/// `m::scale::<2>` → `m::__fwdad_marker_scale::<2>()`: a turbofish with type or const
/// arguments reaches the marker through its function (which keeps what the marker is
/// generic over). `None` without such a turbofish.
fn turbofish_marker(path: &syn::Path) -> Option<TokenStream> {
    let last = path.segments.last()?;
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    if args
        .args
        .iter()
        .all(|a| matches!(a, syn::GenericArgument::Lifetime(_)))
    {
        return None;
    }
    let mut p = strip_generics(path);
    let f = crate::register::marker_fn_name(&last.ident);
    if let Some(l) = p.segments.last_mut() {
        l.ident = f;
    }
    let args = args
        .args
        .iter()
        .filter(|a| !matches!(a, syn::GenericArgument::Lifetime(_)));
    Some(quote!(#p::<#(#args),*>()))
}

/// Whether `path` names an enum variant, `Shape::Circle` (by the naming convention: a
/// capitalised type before a capitalised last segment; a module is lowercase).
fn is_variant_path(path: &syn::Path) -> bool {
    let n = path.segments.len();
    let capitalised = |i: usize| crate::callee::is_capitalised(&path.segments[i].ident.to_string());
    n >= 2 && capitalised(n - 1) && capitalised(n - 2)
}

/// The path of a pattern on a tangent: `Some`, `Ok`, `Err` (whose tangents are of the
/// same shape) as written, a user's struct or variant as its tangent twin's.
fn pattern_tangent_path(path: &syn::Path) -> syn::Path {
    let std = path
        .segments
        .last()
        .is_some_and(|s| matches!(s.ident.to_string().as_str(), "Some" | "Ok" | "Err" | "None"));
    if std {
        path.clone()
    } else {
        tangent_path(path)
    }
}

/// `m::foo::<f64>` → `m::foo`: the rule marker struct is not generic.
/// A guard (`cell.borrow_mut()`, `m.lock()`) the user's statement reads and drops, and
/// the instructions reading it, by their positions in their region.
struct GuardScope {
    /// The guard's instruction and its readers', in order.
    chain: Vec<usize>,
    /// The last reader's result, if it is read after the statement.
    result: Option<Value>,
    /// A value holding the guard that several instructions read and write in place (`*c
    /// .borrow_mut() += 1`: a read and a store through it), dropped after the last.
    drop_after: Option<(usize, Value)>,
}

/// The guards of `insts` (a region's instructions) that must be dropped where the user's
/// statement ends: lowering binds every temporary to a local, which would hold the guard
/// to the end of the block, and a second `borrow_mut()` of the same cell (two draws of a
/// generator in a `RefCell`, or two closures that each borrow it, called in one loop
/// body) panicked in the rule where the function ran. A guard is a temporary (not bound by
/// the user) made by a method of a cell or lock whose receiver has another such call; its
/// readers are the method calls, fields, indexings and dereferences that read it or a
/// reader's temporary, each read once. The last reader's result must not go to an
/// instruction with a body (`for v in c.borrow().iter()` keeps its guard, as in Rust). A
/// temporary holding the guard that several instructions read or write in place (`*n
/// .borrow_mut() += 1`, `*m.lock().unwrap() += 1`) is dropped after the last of them.
fn guard_scopes(func: &Function, insts: &[Inst]) -> Vec<GuardScope> {
    let guard_of = |i: Inst| match &func.insts[i].kind {
        InstKind::MethodCall {
            receiver,
            method,
            args,
            ..
        } if crate::callee::is_guard_method(method, args.len()) => Some(*receiver),
        _ => None,
    };
    if !insts.iter().any(|i| guard_of(*i).is_some()) {
        return Vec::new();
    }
    // Every read of each value, anywhere in the function (a region's terminator: `None`).
    let mut readers: std::collections::HashMap<Value, Vec<Option<Inst>>> = Default::default();
    let mut receivers: std::collections::HashMap<Value, usize> = Default::default();
    for (r, data) in func.regions.iter() {
        for &i in &data.insts {
            for o in func.operands(i) {
                readers.entry(o).or_default().push(Some(i));
            }
            if let Some(recv) = guard_of(i) {
                *receivers.entry(recv).or_default() += 1;
            }
        }
        for o in func.term_operands(r) {
            readers.entry(o).or_default().push(None);
        }
    }
    let reads = |i: Inst, v: Value| match &func.insts[i].kind {
        InstKind::MethodCall { receiver, args, .. } => *receiver == v && !args.contains(&v),
        InstKind::Field { base, .. } | InstKind::Index { base, .. } => *base == v,
        InstKind::Unary {
            op: UnOp::Deref,
            arg,
        } => *arg == v,
        _ => false,
    };
    let position = |i: Inst| insts.iter().position(|j| *j == i);
    // Where every reader of `v` reads or writes it in place in this region (`*v`, `v.f`,
    // `v[i]`, a store through it), the last one's position.
    let in_place = |v: Value, after: usize| -> Option<usize> {
        let users = readers.get(&v)?;
        let mut last = None;
        for u in users {
            let u = (*u)?;
            let ok = match &func.insts[u].kind {
                InstKind::Store { place, value } => {
                    *value != v
                        && match place {
                            Place::Deref(t) | Place::Field(t, _) => *t == v,
                            Place::Index(t, i) => *t == v && *i != v,
                        }
                }
                InstKind::MethodCall { .. } => false,
                _ => reads(u, v),
            };
            let p = position(u).filter(|p| *p > after)?;
            if !ok {
                return None;
            }
            last = last.max(Some(p));
        }
        last
    };
    let mut scopes = Vec::new();
    for (k, &g) in insts.iter().enumerate() {
        let Some(recv) = guard_of(g) else { continue };
        let guard = func.insts[g].results.first().copied();
        let Some(guard) = guard.filter(|v| func.values[*v].name.is_none()) else {
            continue;
        };
        if receivers.get(&recv).copied().unwrap_or(0) < 2 {
            continue;
        }
        let mut chain = vec![k];
        let mut current = guard;
        let result = loop {
            let users = readers.get(&current).map(Vec::as_slice).unwrap_or_default();
            let next = match users {
                [Some(u)] if reads(*u, current) && func.inst_regions(*u).is_empty() => {
                    position(*u).filter(|p| p > chain.last().unwrap_or(&k))
                }
                _ => None,
            };
            match next {
                Some(p) => {
                    chain.push(p);
                    match func.insts[insts[p]].results.first() {
                        Some(v) if func.values[*v].name.is_none() => current = *v,
                        v => break v.copied(),
                    }
                }
                None => break Some(current),
            }
        };
        let end = *chain.last().unwrap_or(&k);
        let drop_after = result
            .filter(|v| func.values[*v].name.is_none())
            .and_then(|v| in_place(v, end).map(|p| (p, v)));
        // The guard alone, or a last reader whose result a body reads: left as it was.
        let into_body = result.is_some_and(|v| {
            readers.get(&v).is_some_and(|us| {
                us.iter()
                    .any(|u| u.is_none_or(|u| !func.inst_regions(u).is_empty()))
            })
        });
        if (chain.len() < 2 || into_body) && drop_after.is_none() {
            continue;
        }
        let result = result.filter(|v| readers.contains_key(v));
        scopes.push(GuardScope {
            chain,
            result,
            drop_after,
        });
    }
    // A chain inside another's span would be emitted twice: the first wins.
    let mut taken: Vec<GuardScope> = Vec::new();
    for s in scopes {
        let (a, b) = (s.chain[0], *s.chain.last().unwrap_or(&s.chain[0]));
        let overlaps = taken.iter().any(|t| {
            let (c, d) = (t.chain[0], *t.chain.last().unwrap_or(&t.chain[0]));
            a <= d && c <= b
        });
        if !overlaps {
            taken.push(s);
        }
    }
    taken
}

fn strip_generics(path: &syn::Path) -> syn::Path {
    let mut p = path.clone();
    for seg in &mut p.segments {
        seg.arguments = syn::PathArguments::None;
    }
    p
}

fn kind_name(kind: &InstKind) -> &'static str {
    match kind {
        InstKind::Copy(_) => "copy",
        InstKind::Lit(_) => "lit",
        InstKind::Const(_) => "const",
        InstKind::Binary { .. } => "binary",
        InstKind::Unary { .. } => "unary",
        InstKind::Ref { .. } => "ref",
        InstKind::Cast { .. } => "cast",
        InstKind::Tuple(_) => "tuple",
        InstKind::Array(_) => "array",
        InstKind::Repeat { .. } => "repeat",
        InstKind::VecList(_) => "vec",
        InstKind::Struct { .. } => "struct",
        InstKind::FieldRef { .. } => "field_ref",
        InstKind::VecRepeat { .. } => "vec_repeat",
        InstKind::Field { .. } => "field",
        InstKind::Index { .. } => "index",
        InstKind::Slice { .. } => "slice",
        InstKind::ElemRef { .. } => "elem_ref",
        InstKind::Range { .. } => "range",
        InstKind::MethodCall { .. } => "method",
        InstKind::Call { .. } => "call",
        InstKind::Store { .. } => "store",
        InstKind::If { .. } => "if",
        InstKind::Loop { .. } => "loop",
        InstKind::For { .. } => "for",
        InstKind::Match { .. } => "match",
        InstKind::Print { .. } => "print",
        InstKind::Opaque { .. } => "macro",
        InstKind::Poison => "poison",
    }
}

/// A promoted reference to a part of a base (`Emitter::part_of_base`).
struct Part {
    base: Value,
    /// The sub-slice's start or the element's index.
    at: TokenStream,
    /// An element (`&base[i]`), not a sub-slice.
    elem: bool,
}

/// An operator on a user type (`PathCallee::UserOp`): the rule of the operator's `impl`
/// for the operands' primal types (`user_ops::binary`, `unary`; `assign` runs the
/// `*Assign` rule on `a`'s dual and yields it, the new value of the place).
fn user_op_call(
    op: crate::callee::UserOp,
    args: &[TokenStream],
    rt: &TokenStream,
    mode: &syn::Ident,
    span: Span,
) -> TokenStream {
    let tag = op.tag(span);
    let args = args.iter().map(|a| located_at(a, span));
    let f = match (op.is_unary(), op.is_assign()) {
        _ if op == crate::callee::UserOp::Index => {
            quote_spanned!(span=> index::<#mode, _, _, _>)
        }
        _ if op == crate::callee::UserOp::IndexMut => {
            quote_spanned!(span=> index_mut::<#mode, _, _, _>)
        }
        (true, _) => quote_spanned!(span=> unary::<#mode, #rt::user_ops::#tag, _>),
        (false, true) => quote_spanned!(span=> assign::<#mode, #rt::user_ops::#tag, _, _, _>),
        (false, false) => quote_spanned!(span=> binary::<#mode, #rt::user_ops::#tag, _, _>),
    };
    quote_spanned!(span=> #rt::user_ops::#f(#(#args),*))
}

impl Emitter<'_> {
    /// The name of `recv.m(..)`'s dispatch method: the trait's `m_forward_rule`, or on a
    /// slice, an array or a `Vec` (an extension trait, `impl VecOps for [f64]`) its
    /// `__fwdad_rule_unsized_m`, a `&self` method found on the sequence type itself
    /// (`traits::unsized_dispatch`).
    #[inline(never)]
    fn user_method_dispatch(&self, receiver: Value, method: &syn::Ident) -> syn::Ident {
        match self.func.values[receiver].ty.deref_all_pub() {
            TypeHint::Seq(_) => {
                format_ident!("__fwdad_rule_unsized_{}", method, span = method.span())
            }
            _ => crate::register::rule_method_name(method, method.span()),
        }
    }

    /// The runtime's function calling the rule `user_method_dispatch` finds: `call`, or on
    /// a sequence type `traits::call_on_sequence`, whose bound names a missing rule.
    #[inline(never)]
    fn user_method_call(&self, receiver: Value) -> TokenStream {
        match self.func.values[receiver].ty.deref_all_pub() {
            TypeHint::Seq(_) => quote!(traits::call_on_sequence),
            _ => quote!(call),
        }
    }
}

/// `recv.m(..)`'s dispatch with a stand-in `m_forward_rule` in scope, found only when the
/// receiver's type has no rule for `m` (its `impl` lacks `#[derive_frule]`): rustc's
/// method probe tries the real dispatch methods (`&self` of the type, the trait's
/// `self: &&Self`, `dyn Trait`'s `&self`, through any number of derefs) before a method
/// taking `&mut &T`, which is the stand-in's, and the stand-in applies only to a
/// `#[derive(Differentiable)]` type itself, a library value, a float, an `Option` or a
/// `Result` (`UserValue`: not a reference or a `Box`, which must deref on to their own
/// rules). Its bound never holds, so the first error is its message, naming the type and
/// the method, instead of rustc's ``no method named `m_forward_rule` ``; its result type
/// is free, so no second error follows.
fn no_rule_fallback(
    rt: &TokenStream,
    func: &syn::Ident,
    method: &syn::Ident,
    (nth, glam_f32): (usize, RecvNotes),
    rule: &syn::Ident,
    dispatch: TokenStream,
    span: Span,
) -> TokenStream {
    let label = "this method has no forward rule";
    let (missing, bound) = no_rule_bound(func, method, (nth, glam_f32), ("", label), span);
    let m = method.unraw();
    let f = func.unraw().to_string();
    let f = f.trim_start_matches("__fwdad_");
    let again = if nth > 1 {
        format!("_{nth}")
    } else {
        String::new()
    };
    let stand_in = format_ident!("{}_calls_{}_without_a_rule{}", f, m, again);
    // On a slice, an array or a `Vec` (`user_method_dispatch`), the stand-in is the slice's
    // own: probed after every step of the receiver's auto-deref, so a trait's impl for
    // `[f64; 3]` or `Vec<f64>` is found before it, and one for `[f64]` too.
    let (recv_impl, recv_ty) = match rule.to_string().starts_with("__fwdad_rule_unsized_") {
        true => (
            quote_spanned!(span=> impl<__FwdadE> #stand_in<[__FwdadE]> for [__FwdadE]),
            quote_spanned!(span=> [__FwdadE]),
        ),
        false => (
            quote_spanned!(span=>
                impl<__FwdadT: ?::core::marker::Sized + #rt::traits::UserValue> #stand_in<__FwdadT> for &__FwdadT
            ),
            quote_spanned!(span=> __FwdadT),
        ),
    };
    quote_spanned! {span=> {
        #bound
        #[allow(non_camel_case_types, dead_code)]
        trait #stand_in<__FwdadT: ?::core::marker::Sized> {
            fn #rule<__FwdadR>(&mut self) -> __FwdadR
            where
                __FwdadT: #missing;
        }
        #recv_impl {
            fn #rule<__FwdadR>(&mut self) -> __FwdadR
            where
                #recv_ty: #missing,
            {
                ::core::unreachable!()
            }
        }
        #dispatch
    }}
}

/// `recv.m_forward_rule_fn_arg1(|x| ..)` (or `m_forward_rule_fn_pass1`), which hands a
/// closure to the method `m` of the user's, with a stand-in of that helper in scope for a
/// receiver whose type has no rule for `m` (an `Option`'s `get_or_insert_with`, a method
/// of an `impl` without `#[derive_frule]`): the real helper is an inherent method of the
/// type, found first; the stand-in's bound `missing` (from [`no_rule_bound`]) never holds,
/// so the first error names the type and the method (as [`no_rule_fallback`] does for
/// the call), not rustc's ``no method named `m_forward_rule_fn_arg1` ``.
fn no_rule_helper_fallback(
    rt: &TokenStream,
    missing: &syn::Ident,
    helper: &syn::Ident,
    call: TokenStream,
    span: Span,
) -> TokenStream {
    // One name per helper: two traits of one name would be printed with the rule's path.
    let kind = match helper.to_string().contains("_forward_rule_fn_pass") {
        true => "pass",
        false => "arg",
    };
    let stand_in = format_ident!("{}_stand_in_{}", missing, kind);
    quote_spanned! {span=> {
        #[allow(non_camel_case_types, dead_code)]
        trait #stand_in<__FwdadT: ?::core::marker::Sized> {
            fn #helper<__FwdadS, __FwdadF, __FwdadG>(&self, g: __FwdadG) -> __FwdadG
            where
                __FwdadT: #missing;
        }
        impl<__FwdadT: ?::core::marker::Sized + #rt::traits::UserValue> #stand_in<__FwdadT> for __FwdadT {
            fn #helper<__FwdadS, __FwdadF, __FwdadG>(&self, _g: __FwdadG) -> __FwdadG
            where
                __FwdadT: #missing,
            {
                ::core::unreachable!()
            }
        }
        #call
    }}
}

/// What the error of a method without a rule adds about its receiver: a value that may be
/// glam's `f32` type without the feature that recognises it, or a float (whose method, not
/// `std`'s, is an extension trait's: the user's, or another crate's).
#[derive(Clone, Copy, Default)]
struct RecvNotes {
    glam_f32: bool,
    float: bool,
}

/// The [`RecvNotes`] of `receiver`.
#[inline(never)]
fn recv_notes(func: &crate::ir::Function, receiver: crate::ir::Value) -> RecvNotes {
    RecvNotes {
        glam_f32: crate::libtypes::unrecognised_glam_f32(func, receiver),
        float: func.values[receiver].ty == crate::types::TypeHint::Float,
    }
}

/// The trait no type implements whose message says that the receiver's type has no rule
/// for `method` (see [`no_rule_fallback`]), and its name.
fn no_rule_bound(
    func: &syn::Ident,
    method: &syn::Ident,
    (nth, notes): (usize, RecvNotes),
    (suffix, label): (&str, &str),
    span: Span,
) -> (syn::Ident, TokenStream) {
    let m = method.unraw();
    // Names unique in the crate but for a repeated call (rustc prints a unique name bare,
    // and another with the path of the rule around it, `<f as Frule<..>>::frule::..`).
    let again = if nth > 1 {
        format!("_{nth}")
    } else {
        String::new()
    };
    // A method's body is lowered as `__fwdad_Ty_m` (`derive_frule::method_as_fn`).
    let f = func.unraw().to_string();
    let f = f.trim_start_matches("__fwdad_");
    let missing = format_ident!(
        "add_derive_frule_to_the_impl_of_{}_called_in_{}{}{}",
        m,
        f,
        suffix,
        again
    );
    let message = format!("`{{Self}}` has no forward rule for its method `{m}`");
    let note = format!(
        "add `#[derive_frule]` to the `impl` block that defines `{m}` (`#[derive_frule] impl {{Self}}`, \
         or for a trait's method `#[derive_frule]` on the trait's definition and on `impl Trait for {{Self}}`), \
         or to the method `{m}` itself; if `{m}` is a method of the type a wrapper derefs to \
         (`impl Deref for Wrapper`), call it on the inner value (`w.0.{m}(..)`)"
    );
    // An `Option` or a `Result` (a type the macro takes for the user's when its method is
    // not one it has a rule for) has no `impl` to annotate.
    let std_note = format!(
        "an `Option` or a `Result` has no `impl` of yours to annotate: `#[derive_frule]` has no \
         rule for its method `{m}`; write it with `match` or `if let` (`docs/limits.md` lists \
         the methods it supports)"
    );
    // With a library feature on, a value of a library type whose type is not written
    // (`let p = helix(t); p.xy()`) meets the stand-in too.
    let library = cfg!(any(
        feature = "nalgebra",
        feature = "num-complex",
        feature = "glam",
        feature = "ndarray"
    ))
    .then(|| {
        let note = "a library value (nalgebra, glam, ndarray, num-complex) whose type the macro \
                    cannot see, such as one a function returned bound without its type, is taken \
                    for a type of your own: write its type (`let p: Vector3<f64> = f(x);`)";
        quote!(, note = #note)
    });
    // A float's method is an extension trait's: another crate's gets its rule by hand.
    let float = notes.float.then(|| {
        let note = format!(
            "for a method of another crate's trait on floats (`x.{m}()` with the trait \
             imported by `use`), write its rule once, `#[primitive(d = .., method)]` on a \
             function `fn {m}(x: f64) -> f64` that calls `Trait::{m}(x)`, and bring that \
             function into scope with `use`"
        );
        quote!(, note = #note)
    });
    // A parameter written `Vec3` is glam's only with `glam-f32` (the name is a common one).
    let glam_f32 = notes.glam_f32.then(|| {
        let note = "if `{Self}` is glam's `f32` type, enable `fwdad`'s feature `glam-f32`, which \
                    recognises glam's `Vec3`, `Vec3A`, `Quat`, `Mat4`, ... in derived bodies \
                    (without it they are taken for types of your own), or use its `f64` types \
                    (`DVec3`)";
        quote!(, note = #note)
    });
    let bound = quote_spanned! {span=>
        #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note #float, note = #std_note #library #glam_f32)]
        #[allow(non_camel_case_types, dead_code)]
        trait #missing {}
    };
    (missing, bound)
}

/// Whether `kind` is `Vec::new()` or `Vec::with_capacity(n)`.
fn is_vec_new_call(kind: &InstKind) -> bool {
    matches!(kind, InstKind::Call { func, args, .. } if crate::callee::is_empty_vec_ctor(func, args.len()))
}

/// A constant reference `name` from a parameter declared `inactive` passed on to a rule:
/// `Promoted` where its type has a zero tangent, else the plain reference (a
/// configuration or lookup table of a type without `Differentiable`, which only a
/// parameter declared `inactive` can take). Rust's method lookup chooses: the runtime's
/// `PromoteZero` is implemented for the probe itself where the reference has a zero
/// tangent, `PromotePlain` for a reference to it, which the lookup tries next.
#[inline(never)]
fn probe_promotion(
    rt: &TokenStream,
    mode: &syn::Ident,
    name: &syn::Ident,
    cell: &TokenStream,
    vspan: Span,
) -> TokenStream {
    quote_spanned!(vspan=> {
        #[allow(unused_imports)]
        use #rt::{PromotePlain as _, PromoteZero as _};
        (&#rt::PromoteProbe::<_, #mode>(#name, ::core::marker::PhantomData)).promote(#cell)
    })
}

/// `probe_promotion` of a part of a base: an element `&base[at]` (`elem`), or the sub-slice
/// `name` of `base` from `at`; `PromotedElem` or `Promoted::sub` where the elements have a
/// zero tangent, else the plain reference.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn probe_part(
    rt: &TokenStream,
    mode: &syn::Ident,
    base: &syn::Ident,
    at: &TokenStream,
    name: &syn::Ident,
    cell: &TokenStream,
    elem: bool,
    vspan: Span,
) -> TokenStream {
    let phantom = quote!(::core::marker::PhantomData::<#mode>);
    if elem {
        quote_spanned!(vspan=> {
            #[allow(unused_imports)]
            use #rt::{PromoteElemPlain as _, PromoteElemZero as _};
            (&#rt::PromoteElemProbe(&#base[..], #at, #phantom)).promote(#cell)
        })
    } else {
        quote_spanned!(vspan=> {
            #[allow(unused_imports)]
            use #rt::{PromoteSubPlain as _, PromoteSubZero as _};
            (&#rt::PromoteSubProbe(&#base[..], #at, #name, #phantom)).promote(#cell)
        })
    }
}

/// Whether the call `inst` lends a value of a type the macro does not see through (the
/// user's, or one without a written type: `let mut bodies = scene();`) mutably to a
/// function or method of the user's (`step_all(&mut bodies, dt, g)`, `w.run(g)` on a
/// local `w`). Such a value may hold trait objects without a tangent (built by a plain
/// function), whose state's tangents the callee's `&mut self` calls through `dyn` keep
/// beside them (`SideLane`); the body holding them would read them again, and they are
/// keyed by address, which a freed object leaves to the next one allocated there. The call
/// is made under a `DynLend`, which panics when the callee made such tangents.
#[inline(never)]
pub(crate) fn lends_objects(func: &Function, inst: Inst) -> bool {
    let lent = |v: Value| {
        let ValueDef::Inst(i, _) = func.values[v].def else {
            return false;
        };
        let mutable = match &func.insts[i].kind {
            InstKind::Ref { mutable, .. }
            | InstKind::FieldRef { mutable, .. }
            | InstKind::ElemRef { mutable, .. } => *mutable,
            _ => false,
        };
        // Of a value the body holds (not of a parameter, whose objects are the rule's
        // caller's: its `DynScope` keeps their tangents).
        let local = !matches!(func.values[func.place_root(v)].def, ValueDef::Param(_));
        mutable && local && may_hold_objects(&func.values[v].ty)
    };
    // A receiver the body built (`let mut w = World { bodies: scene(), .. };
    // w.run(g)`), which a `&mut self` method borrows mutably.
    let owned = |v: Value| {
        matches!(func.values[v].def, ValueDef::Inst(..))
            && !matches!(func.values[func.place_root(v)].def, ValueDef::Param(_))
            && may_hold_objects(&func.values[v].ty)
    };
    match &func.insts[inst].kind {
        InstKind::Call {
            args,
            callee: PathCallee::Function | PathCallee::Assoc,
            ..
        } => args.iter().any(|a| lent(*a)),
        // Not a method every declaration of which takes `self` shared: it cannot step the
        // objects its receiver holds.
        InstKind::MethodCall {
            receiver,
            args,
            method,
            callee: MethodCallee::User,
            ..
        } => {
            (owned(*receiver) && !crate::plain_fns::method_takes_self_shared(&method.to_string()))
                || lent(*receiver)
                || args.iter().any(|a| lent(*a))
        }
        _ => false,
    }
}

/// Whether a value of this type may hold trait objects: the macro does not see through it.
fn may_hold_objects(ty: &TypeHint) -> bool {
    match ty {
        TypeHint::Unknown | TypeHint::Map(..) => true,
        TypeHint::Float | TypeHint::Int | TypeHint::Bool | TypeHint::NonDiff | TypeHint::Range => {
            false
        }
        TypeHint::Tuple(ts) => ts.iter().any(may_hold_objects),
        TypeHint::Seq(t) | TypeHint::Ref(t) => may_hold_objects(t),
    }
}

/// `call` made under a `DynLend` when it lends objects (`lends_objects`).
fn lend_guarded(func: &Function, inst: Inst, rt: &TokenStream, call: TokenStream) -> TokenStream {
    if !lends_objects(func, inst) || !crate::plain_fns::may_hold_trait_objects() {
        return call;
    }
    let span = func.insts[inst].span;
    let (g, r) = (
        format_ident!("__fwdad_lend", span = Span::mixed_site()),
        format_ident!("__fwdad_lent", span = Span::mixed_site()),
    );
    quote_spanned!(span=> ({
        let #g = #rt::traits::DynLend::enter();
        let #r = #call;
        ::core::mem::drop(#g);
        #r
    }))
}

/// Whether the type `ty` writes a trait object anywhere (`&mut Vec<Box<dyn Body>>`).
fn writes_dyn(ty: &syn::Type) -> bool {
    struct Find(bool);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_type_trait_object(&mut self, _: &'ast syn::TypeTraitObject) {
            self.0 = true;
        }
    }
    let mut f = Find(false);
    syn::visit::Visit::visit_type(&mut f, ty);
    f.0
}
