//! `activity`: which values carry tangents (Slang's propagation).
//!
//! A value is *active* when it depends on an active parameter and its type can hold a
//! derivative. Parameters are active unless their written type has no tangent (`usize`,
//! `&[usize]`, `bool`, ...) or they are declared `inactive(..)`. Inactive values stay plain
//! primal Rust and cost nothing: literals, constants, integer index arithmetic,
//! comparisons, `len()`, `as usize` casts, calls whose arguments are all inactive.
//!
//! Merges (an `If`'s results, a loop's parameters and results) are active when any
//! incoming value is; the inactive incoming values are promoted later (`dual`). A local
//! buffer that receives an active value by a store (`buf[i] = x`) is active from its
//! definition on (its zero tangent is created with it), so the store cannot lose the
//! tangent. The analysis iterates to a fixed point, since loops feed values backwards.
//!
//! Output: a `SecondaryMap<Value, bool>` (`true` = active).

use crate::callee::{MethodCallee, PathCallee};
use crate::ir::entity::SecondaryMap;
use crate::ir::{Function, Inst, InstKind, Place, Region, Terminator, UnOp, Value, ValueDef};

/// The activity of every value.
pub type Activity = SecondaryMap<Value, bool>;

/// Runs the analysis.
pub fn analyze(func: &Function) -> Activity {
    let mut a = Analysis {
        func,
        active: SecondaryMap::with_default(false),
        forced: Vec::new(),
        changed: true,
        bits_of: None,
    };
    for p in &func.params {
        if !p.inactive && !func.values[p.value].ty.is_non_differentiable() {
            a.active.set(p.value, true);
        }
    }
    // A call's result called later as a function is the dual function its rule returns.
    for &v in &func.fn_sources {
        a.active.set(v, true);
    }
    while a.changed {
        a.changed = false;
        a.region(func.body);
        for v in std::mem::take(&mut a.forced) {
            a.mark(v);
        }
    }
    let mut active = a.active;
    for v in error_payloads(func, &active) {
        active.set(v, false);
    }
    active
}

/// The values that hold the bits of a value carrying a derivative: `x.to_bits()` of an
/// active `x`, and what integer arithmetic, casts, merges and stores make of them
/// (libm's `log` takes `x.to_bits()`, replaces the exponent, and rebuilds the mantissa
/// with `f64::from_bits`). A float rebuilt from such bits depends on `x`, but its
/// derivative cannot flow through the integers: `dual::check` reports it. (A float made
/// from an integer that a cast of an active float gave, `f64::from_bits(((k + 0x3ff) as
/// u64) << 52)` with `k = (x / ln 2) as i32`, is a step function of `x`, whose derivative
/// 0 is right: it is not followed.)
#[inline(never)]
pub fn float_bits(func: &Function, active: &Activity) -> Activity {
    let mut a = Analysis {
        func,
        active: SecondaryMap::with_default(false),
        forced: Vec::new(),
        changed: true,
        bits_of: Some(active),
    };
    while a.changed {
        a.changed = false;
        a.region(func.body);
        for v in std::mem::take(&mut a.forced) {
            a.mark(v);
        }
    }
    a.active
}

/// Whether `inst` is `Err(..)`, whose value carries no tangent (the error of a `Result`
/// has none), whatever its payload depends on.
fn is_err_call(func: &Function, inst: Inst) -> bool {
    matches!(
        &func.insts[inst].kind,
        InstKind::Call { func: path, callee: PathCallee::Ctor, .. } if crate::callee::is_err(path)
    )
}

/// The active values built only to be an error's payload: an `Err(..)`'s argument, or
/// an error value (`CurveError::Diverged { residual }`) only ever given to `Err`, to
/// another such value, or printed (`eprintln!("{err}")`, which reads primals). They are
/// built on primals, as the error carries no tangent, so an error type of the user's that
/// is not `Differentiable` may hold a computed float.
fn error_payloads(func: &Function, active: &Activity) -> Vec<Value> {
    use std::collections::HashMap;
    // Who reads each value: an instruction, or (`None`) a terminator.
    let mut users: HashMap<Value, Vec<Option<Inst>>> = HashMap::new();
    for (inst, _) in func.insts.iter() {
        for v in func.operands(inst) {
            users.entry(v).or_default().push(Some(inst));
        }
    }
    for (_, region) in func.regions.iter() {
        let read = match &region.term {
            Terminator::Yield(vs)
            | Terminator::Break { values: vs, .. }
            | Terminator::Continue { values: vs, .. } => vs.clone(),
            Terminator::Return(v) => vec![*v],
            Terminator::Unreachable => vec![],
        };
        for v in read {
            users.entry(v).or_default().push(None);
        }
    }
    let builds_value = |inst: Inst| match &func.insts[inst].kind {
        InstKind::Struct { .. } => true,
        InstKind::Call { callee, .. } => *callee == PathCallee::Ctor,
        _ => false,
    };
    let mut payloads: Vec<Value> = Vec::new();
    let mut changed = true;
    while changed {
        changed = false;
        for (inst, data) in func.insts.iter() {
            let [res] = data.results[..] else { continue };
            if !*active.get(res) || payloads.contains(&res) || !builds_value(inst) {
                continue;
            }
            let only_payload = users.get(&res).is_some_and(|us| {
                us.iter().all(|u| {
                    u.is_some_and(|i| {
                        is_err_call(func, i)
                            || matches!(func.insts[i].kind, InstKind::Print { .. })
                            || func.insts[i]
                                .results
                                .first()
                                .is_some_and(|r| payloads.contains(r))
                    })
                })
            });
            if only_payload {
                payloads.push(res);
                changed = true;
            }
        }
    }
    // `Err(..)` itself.
    for (inst, data) in func.insts.iter() {
        if is_err_call(func, inst) {
            payloads.extend(data.results.iter().copied().filter(|r| *active.get(*r)));
        }
    }
    payloads
}

struct Analysis<'f> {
    func: &'f Function,
    active: Activity,
    /// Roots of buffers that received active stores, to mark after the sweep.
    forced: Vec<Value>,
    changed: bool,
    /// In [`float_bits`]: the activity whose floats' bits are followed (`active` then
    /// marks the values holding them, whatever their types).
    bits_of: Option<&'f Activity>,
}

impl Analysis<'_> {
    fn is(&self, v: Value) -> bool {
        *self.active.get(v)
    }

    /// Marks `v` active unless its type forbids it.
    fn mark(&mut self, v: Value) {
        let typed_out = self.bits_of.is_none() && self.func.values[v].ty.is_non_differentiable();
        if !self.is(v) && !typed_out {
            self.active.set(v, true);
            self.changed = true;
        }
    }

    /// Whether `v` is a parameter declared `inactive(..)` of a shared reference type,
    /// which the rule takes as the plain reference.
    fn shared_inactive_param(&self, v: Value) -> bool {
        self.func.params.iter().any(|p| {
            p.value == v
                && p.inactive
                && matches!(&p.ty, syn::Type::Reference(r) if r.mutability.is_none())
        })
    }

    /// Whether `v` is a struct literal of a struct the files show declared without
    /// `#[derive(Differentiable)]` (`let ch = Channel { bottom: 3.0, .. };`), or a call of
    /// one of its associated functions (`Channel::new(..)`): it has no
    /// tangent, so no method can store a derivative into it, and it stays constant data
    /// (a field that depends on the inputs makes it active, which `dual` reports).
    #[inline(never)]
    fn plain_struct_literal(&self, v: Value) -> bool {
        let ValueDef::Inst(inst, 0) = self.func.values[v].def else {
            return false;
        };
        let path = match &self.func.insts[inst].kind {
            InstKind::Struct { path, .. } => path.clone(),
            // `Channel::new(..)`: a constructor of the plain struct (its rule-less
            // associated function, called on constants, `derive_frule::plain_self_result`).
            InstKind::Call {
                func,
                callee: PathCallee::Assoc,
                ..
            } if func.segments.len() == 2 => syn::Path::from(func.segments[0].ident.clone()),
            _ => return false,
        };
        crate::plain_fns::not_differentiable(&self.func.name.to_string(), &path).is_some()
    }

    /// In [`float_bits`]: whether a method call reads the bits of an active float
    /// (`x.to_bits()`).
    fn bits_read(&self, callee: MethodCallee, receiver: Value) -> bool {
        self.bits_of.is_some_and(|base| {
            callee.std() == Some(crate::callee::StdMethod::ToBits) && *base.get(receiver)
        })
    }

    /// Makes active, from their definitions on, the buffers lent `&mut` among `args` (a
    /// callee that sees active inputs may store them there).
    fn force_mut_borrows(&mut self, args: &[Value]) {
        for &a in args {
            if self.is_mut_borrow(a) {
                let root = self.root(a);
                self.forced.push(root);
            }
        }
    }

    fn region(&mut self, r: Region) {
        for &inst in &self.func.regions[r].insts {
            self.inst(inst);
        }
    }

    fn inst(&mut self, inst: Inst) {
        let data = &self.func.insts[inst];
        let any = |vs: &[Value], s: &Self| vs.iter().any(|v| s.is(*v));
        let result = data.results.first().copied();
        let active = match &data.kind {
            // `t0..t1` of floats (a curve's `subsegment(t0..t1)`): its ends' tangents.
            InstKind::Range {
                start: Some(s),
                end: Some(e),
                closed: false,
            } => any(&[*s, *e], self),
            InstKind::Lit(_)
            | InstKind::Const(_)
            | InstKind::Range { .. }
            | InstKind::Print { .. }
            | InstKind::Opaque { .. }
            | InstKind::Poison => false,
            InstKind::Binary { op, lhs, rhs } => !op.is_comparison() && any(&[*lhs, *rhs], self),
            // `!b` of a `bool` carries nothing; `!u` of an integer holding a float's bits
            // still holds them.
            InstKind::Unary { op: UnOp::Not, arg } => self.bits_of.is_some() && self.is(*arg),
            InstKind::Unary {
                op: UnOp::Neg | UnOp::Deref,
                arg,
            } => self.is(*arg),
            InstKind::Ref { arg, .. } => self.is(*arg),
            InstKind::Cast { arg, .. } | InstKind::Copy(arg) => self.is(*arg),
            InstKind::Tuple(vs) | InstKind::Array(vs) | InstKind::VecList(vs) => any(vs, self),
            InstKind::VecRepeat { elem, .. } => self.is(*elem),
            InstKind::Struct { fields, base, .. } => {
                fields.iter().any(|(_, v)| self.is(*v)) || base.is_some_and(|b| self.is(b))
            }
            InstKind::FieldRef { base, .. } => self.is(*base),
            InstKind::Repeat { elem, .. } => self.is(*elem),
            InstKind::Field { base, .. }
            | InstKind::Index { base, .. }
            | InstKind::ElemRef { base, .. }
            | InstKind::Slice { base, .. } => self.is(*base),
            InstKind::MethodCall {
                receiver,
                args,
                callee,
                ..
            } => {
                // A buffer receiving active elements (`v.push(x)`) is active from its
                // definition on, as for stores.
                // So is a receiver of a user method given active arguments: it may take
                // `&mut self` and store them (the macro cannot see which).
                let user = *callee == MethodCallee::User;
                let may_store = callee.std().is_some_and(|m| m.stores()) || user;
                if may_store && any(args, self) {
                    let root = self.root(*receiver);
                    // Not a constant reached through a shared reference declared
                    // `inactive(..)` (`model.log_pdf(x)`, `for c in comps { c.eval(x) }`):
                    // no method can store into it, and it is promoted for the call.
                    if !self.shared_inactive_param(root) && !self.plain_struct_literal(root) {
                        self.forced.push(root);
                    }
                }
                // And, as for a call, a buffer lent `&mut` to a user method that sees active
                // inputs, the receiver included (`model.step(&mut state, dt)`).
                if user && (self.is(*receiver) || any(args, self)) {
                    self.force_mut_borrows(args);
                }
                self.is(*receiver) || any(args, self) || self.bits_read(*callee, *receiver)
            }
            InstKind::Call { args, callee, .. } => {
                // A buffer lent `&mut` to a call that sees active inputs may receive active
                // values: it is active from its definition on.
                if any(args, self) {
                    self.force_mut_borrows(args);
                }
                // A function value is called as the dual function it is in the rule, and a
                // closure passed on becomes one: both are duals, whatever they capture.
                let dual_fn = matches!(
                    callee,
                    crate::callee::PathCallee::FnValue | crate::callee::PathCallee::Closure
                );
                // A variable a closure assigns (lent `&mut` to its dual form) may receive
                // values that depend on the inputs.
                if *callee == crate::callee::PathCallee::Closure {
                    self.force_mut_borrows(args);
                }
                // A box of a trait object written on its `let` (`Function::box_dyn`) is
                // built as the carrier of a tangent even from constants: a `&mut self`
                // method called through it later may store values that depend on the
                // inputs (`b.update(dt, g)`).
                let carried = result.is_some_and(|r| self.func.box_dyn.contains_key(&r));
                let dual = self.bits_of.is_none() && (dual_fn || carried);
                !is_err_call(self.func, inst) && (dual || any(args, self))
            }
            InstKind::Store { place, value } => {
                if self.is(*value) {
                    let target = match place {
                        Place::Deref(t) | Place::Index(t, _) | Place::Field(t, _) => *t,
                    };
                    let roots = self.store_roots(target);
                    self.forced.extend(roots);
                }
                false
            }
            InstKind::If {
                then_region,
                else_region,
                ..
            } => {
                let (t, e) = (*then_region, *else_region);
                self.region(t);
                self.region(e);
                for r in [t, e] {
                    if let Terminator::Yield(ys) = &self.func.regions[r].term {
                        for (k, &y) in ys.iter().enumerate() {
                            if self.is(y) {
                                if let Some(&res) = self.func.insts[inst].results.get(k) {
                                    self.mark(res);
                                }
                            }
                        }
                    }
                }
                return;
            }
            InstKind::Match { scrutinee, arms } => {
                let scrutinee_active = self.is(*scrutinee);
                for arm in arms {
                    let regions: Vec<Region> = arm.guard.into_iter().chain([arm.body]).collect();
                    for r in regions {
                        if scrutinee_active {
                            for &p in &self.func.regions[r].params {
                                self.mark(p);
                            }
                        }
                        self.region(r);
                    }
                    if let Terminator::Yield(ys) = &self.func.regions[arm.body].term {
                        for (k, &y) in ys.iter().enumerate() {
                            if self.is(y) {
                                if let Some(&res) = self.func.insts[inst].results.get(k) {
                                    self.mark(res);
                                }
                            }
                        }
                    }
                }
                return;
            }
            InstKind::Loop { init, body } | InstKind::For { init, body, .. } => {
                let body = *body;
                let offset = match &self.func.insts[inst].kind {
                    InstKind::For { iter, .. } => {
                        let elem = self.func.regions[body].params[0];
                        if self.is(*iter) {
                            self.mark(elem);
                        }
                        1
                    }
                    _ => 0,
                };
                let params = self.func.regions[body].params[offset..].to_vec();
                for (p, i) in params.iter().zip(init) {
                    if self.is(*i) {
                        self.mark(*p);
                    }
                }
                self.region(body);
                let extra = usize::from(offset == 0);
                let results = self.func.insts[inst].results.clone();
                // Carried parameters and results follow each other and every exit.
                for (k, &p) in params.iter().enumerate() {
                    if self.is(p) {
                        self.mark(results[extra + k]);
                    }
                }
                let mut exits = Vec::new();
                self.exits(body, 0, &mut exits);
                for (kind, values) in exits {
                    match kind {
                        Exit::Next => {
                            for (p, v) in params.iter().zip(&values) {
                                if self.is(*v) {
                                    self.mark(*p);
                                }
                            }
                        }
                        Exit::Break => {
                            for (r, v) in results.iter().zip(&values) {
                                if self.is(*v) {
                                    self.mark(*r);
                                }
                            }
                        }
                    }
                }
                // An active value leaving by `break` makes its carried cell active too: the
                // loop's state is one set of cells, whichever exit is taken (with an inactive
                // cell the break would store only the primal, dropping the tangent).
                for (k, &p) in params.iter().enumerate() {
                    if self.is(results[extra + k]) {
                        self.mark(p);
                    }
                }
                return;
            }
        };
        if let Some(res) = result {
            if active {
                self.mark(res);
            }
        }
    }

    /// The terminators of `r` and its nested regions that leave or restart the loop whose
    /// body `r` is (`depth` = loops entered since).
    fn exits(&self, r: Region, depth: usize, out: &mut Vec<(Exit, Vec<Value>)>) {
        match &self.func.regions[r].term {
            Terminator::Yield(vs) if depth == 0 && self.is_loop_body(r) => {
                out.push((Exit::Next, vs.clone()))
            }
            Terminator::Continue { depth: d, values } if *d == depth => {
                out.push((Exit::Next, values.clone()))
            }
            Terminator::Break { depth: d, values } if *d == depth => {
                out.push((Exit::Break, values.clone()))
            }
            Terminator::Yield(_)
            | Terminator::Return(_)
            | Terminator::Break { .. }
            | Terminator::Continue { .. }
            | Terminator::Unreachable => {}
        }
        for &inst in &self.func.regions[r].insts {
            let inner = match self.func.insts[inst].kind {
                InstKind::Loop { .. } | InstKind::For { .. } => depth + 1,
                _ => depth,
            };
            for sub in self.func.inst_regions(inst) {
                self.exits(sub, inner, out);
            }
        }
    }

    /// Whether `r` is directly a loop's body (its `Yield` starts the next iteration).
    fn is_loop_body(&self, r: Region) -> bool {
        self.func.insts.iter().any(|(_, d)| match &d.kind {
            InstKind::Loop { body, .. } | InstKind::For { body, .. } => *body == r,
            _ => false,
        })
    }

    /// Whether `v` is a `&mut` borrow made in the body (`&mut x`, `&mut x[i]`, a binding of
    /// a `match` on one: [`Function::is_mut_ref`]), not a `&mut` parameter.
    fn is_mut_borrow(&self, v: Value) -> bool {
        !matches!(self.func.values[v].def, ValueDef::Param(_)) && self.func.is_mut_ref(v)
    }

    /// The variable whose storage a place reaches; through a `match` binding, its
    /// scrutinee's (`d` in `if let Some(d) = &mut o` writes into `o`).
    fn root(&self, v: Value) -> Value {
        let r = self.func.place_root(v);
        if let ValueDef::RegionParam(region, _) = self.func.values[r].def {
            if let Some((scrutinee, _)) = self.func.arm_of(region) {
                return self.root(scrutinee);
            }
        }
        r
    }
}

impl Analysis<'_> {
    /// The variables a store through `target` writes into: [`Analysis::root`]'s, and
    /// where that is a reference a `match` or an `if` yields (`get_or_insert`'s `match
    /// &mut acc { Some(v) => v, .. }`, `if let Some(m) = best.as_mut()`), the roots of the
    /// references its arms yield, so that the `Option` local written through becomes
    /// active.
    #[inline(never)]
    fn store_roots(&self, target: Value) -> Vec<Value> {
        let mut out = Vec::new();
        let mut todo = vec![target];
        let mut seen = std::collections::HashSet::new();
        while let Some(v) = todo.pop() {
            let r = self.root(v);
            if !seen.insert(r) {
                continue;
            }
            out.push(r);
            let ValueDef::Inst(inst, k) = self.func.values[r].def else {
                continue;
            };
            let regions: Vec<Region> = match &self.func.insts[inst].kind {
                InstKind::Match { arms, .. } => arms.iter().map(|a| a.body).collect(),
                InstKind::If {
                    then_region,
                    else_region,
                    ..
                } => vec![*then_region, *else_region],
                _ => continue,
            };
            for region in regions {
                let Terminator::Yield(ys) = &self.func.regions[region].term else {
                    continue;
                };
                let Some(&y) = ys.get(k) else { continue };
                // Only references, or `Some` of one (`o.as_mut()`, then `unwrap()`): what
                // the arms yield by value is no storage.
                if self.func.is_mut_ref(y) {
                    todo.push(y);
                } else if let ValueDef::Inst(yi, 0) = self.func.values[y].def {
                    if let InstKind::Call {
                        callee: crate::callee::PathCallee::Wrap(crate::callee::Wrapper::Some),
                        args,
                        ..
                    } = &self.func.insts[yi].kind
                    {
                        todo.extend(args.iter().copied().filter(|a| self.func.is_mut_ref(*a)));
                    }
                }
            }
        }
        out
    }
}

#[derive(Clone, Copy)]
enum Exit {
    Next,
    Break,
}

/// Prints activity as the IR annotation column.
pub fn note(active: &Activity) -> impl Fn(&Function, Inst) -> String + '_ {
    move |func, inst| match func.insts[inst].results.as_slice() {
        [] => String::new(),
        rs => rs
            .iter()
            .map(|r| if *active.get(*r) { "active" } else { "const" })
            .collect::<Vec<_>>()
            .join(", "),
    }
}
