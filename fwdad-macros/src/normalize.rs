//! `normalize`: removes instructions whose results are never used and that have no
//! effect: the `()` of every statement, literals and copies nobody reads. Before that, it
//! reads a float rebuilt from its own bits with the sign bit cleared as `x.copysign(1.0)`
//! ([`abs_by_bits`]).
//!
//! Input and output: valid IR (see [`crate::ir::verify`]). Only pure kinds are removed
//! (literals, constants, tuples, arrays, copies, ranges, references, fields, and float or
//! boolean arithmetic); calls, method calls, indexing, stores and control flow stay, since
//! they may panic or write, as in the primal.
//!
//! Before:
//! ```text
//! v16 = tuple () : nondiff
//! v17 = tuple () : nondiff
//! yield v17, v15
//! ```
//! After:
//! ```text
//! v17 = tuple () : nondiff
//! yield v17, v15
//! ```

use crate::ir::{Function, Inst, InstKind, Region};
use crate::types::TypeHint;
use std::collections::HashSet;

/// Removes dead pure instructions until none is left.
pub fn remove_dead(func: &mut Function) {
    loop {
        let used = used_values(func);
        let mut removed = false;
        let regions: Vec<Region> = func.regions.iter().map(|(r, _)| r).collect();
        for r in regions {
            let keep: Vec<Inst> = func.regions[r]
                .insts
                .iter()
                .copied()
                .filter(|&i| {
                    !(is_pure(func, i) && func.insts[i].results.iter().all(|v| !used.contains(v)))
                })
                .collect();
            if keep.len() != func.regions[r].insts.len() {
                removed = true;
                func.regions[r].insts = keep;
            }
        }
        if !removed {
            break;
        }
    }
}

/// Every value read by a placed instruction or a terminator.
fn used_values(func: &Function) -> HashSet<crate::ir::Value> {
    let mut used = HashSet::new();
    for (r, data) in func.regions.iter() {
        for &i in &data.insts {
            used.extend(func.operands(i));
        }
        used.extend(func.term_operands(r));
    }
    used
}

fn is_pure(func: &Function, inst: Inst) -> bool {
    let data = &func.insts[inst];
    let float_or_bool = data.results.first().is_some_and(|v| {
        matches!(
            func.values[*v].ty,
            TypeHint::Float | TypeHint::Bool | TypeHint::NonDiff
        )
    });
    match &data.kind {
        InstKind::Copy(_)
        | InstKind::Lit(_)
        | InstKind::Const(_)
        | InstKind::Tuple(_)
        | InstKind::Array(_)
        | InstKind::Repeat { .. }
        | InstKind::Range { .. }
        | InstKind::Ref { .. }
        | InstKind::Field { .. }
        | InstKind::FieldRef { .. }
        | InstKind::Struct { .. } => true,
        InstKind::Binary { .. } | InstKind::Unary { .. } | InstKind::Cast { .. } => float_or_bool,
        InstKind::VecList(_)
        | InstKind::VecRepeat { .. }
        | InstKind::Index { .. }
        | InstKind::ElemRef { .. }
        | InstKind::Slice { .. }
        | InstKind::MethodCall { .. }
        | InstKind::Call { .. }
        | InstKind::Print { .. }
        | InstKind::Opaque { .. }
        | InstKind::Store { .. }
        | InstKind::If { .. }
        | InstKind::Match { .. }
        | InstKind::Loop { .. }
        | InstKind::For { .. }
        | InstKind::Poison => false,
    }
}

/// Rewrites `f64::from_bits(x.to_bits() & 0x7fff_ffff_ffff_ffff)` (and `f32`'s with
/// `0x7fff_ffff`, the mask written any way that evaluates to it: `!1 / 2`, `(!0) >> 1`,
/// `-1i64 as u64 >> 1`) as `x.copysign(1.0)`, which is the same float bit for bit: the
/// absolute value by clearing the sign bit, as libm 0.2.16's `sinh`, `cosh`, `tanh`,
/// `asinh` and `atanh` take it (`ui &= !1 / 2; uf = f64::from_bits(ui);`). Its derivative
/// is then `copysign`'s, `±dx` as the sign bit says, so at `+0.0` the slope is 1 and at
/// `-0.0` it is −1, as the bits' branch takes `x` or `−x` (`abs` would give 0 there, and
/// libm's odd functions, which put the sign back from the same bit, slope 0 at 0). Without
/// the rewrite, a float rebuilt from an input's bits is an error (`dual::check`). The bits
/// stay computed for what else reads them (`w = (ui >> 32) as u32`). Bits merged from
/// branches (a conditional swap) are not followed.
#[inline(never)]
pub fn abs_by_bits(func: &mut Function) {
    let mut found = Vec::new();
    for (r, region) in func.regions.iter() {
        for (at, &inst) in region.insts.iter().enumerate() {
            let InstKind::Call {
                func: path, args, ..
            } = &func.insts[inst].kind
            else {
                continue;
            };
            let (Some(width), [bits]) = (crate::callee::float_from_bits_width(path), &args[..])
            else {
                continue;
            };
            if let Some(x) = sign_cleared(func, *bits, width) {
                found.push((r, at, inst, x));
            }
        }
    }
    // From the last, so that each position is still right when it is reached.
    for (r, at, inst, x) in found.into_iter().rev() {
        let span = func.insts[inst].span;
        let one = func.new_value(crate::ir::ValueDef::Param(0), TypeHint::Float);
        let lit = func.insts.push(crate::ir::InstData {
            kind: InstKind::Lit(syn::Lit::Float(syn::LitFloat::new("1.0", span))),
            results: vec![one],
            span,
        });
        func.values[one].def = crate::ir::ValueDef::Inst(lit, 0);
        func.regions[r].insts.insert(at, lit);
        let copysign = crate::callee::FloatOp::Copysign;
        func.insts[inst].kind = InstKind::MethodCall {
            receiver: x,
            method: syn::Ident::new(copysign.name(), span),
            turbofish: None,
            args: vec![one],
            callee: crate::callee::MethodCallee::Float(copysign),
        };
        if let Some(&res) = func.insts[inst].results.first() {
            func.values[res].ty = TypeHint::Float;
        }
    }
}

/// The instruction defining `v`, through copies (`let mut ui = bits;`).
fn def_through_copies(func: &Function, mut v: crate::ir::Value) -> Option<&InstKind> {
    for _ in 0..32 {
        let crate::ir::ValueDef::Inst(inst, 0) = func.values[v].def else {
            return None;
        };
        match &func.insts[inst].kind {
            InstKind::Copy(src) => v = *src,
            kind => return Some(kind),
        }
    }
    None
}

/// `x` when `bits` is `x.to_bits() & m` (either order) with `m` the mask of every bit but
/// the sign of a `width`-bit float.
fn sign_cleared(func: &Function, bits: crate::ir::Value, width: u32) -> Option<crate::ir::Value> {
    let InstKind::Binary {
        op: crate::ir::BinOp::BitAnd,
        lhs,
        rhs,
    } = def_through_copies(func, bits)?
    else {
        return None;
    };
    let mask = (1u128 << (width - 1)) - 1;
    let unsigned = IntTy {
        bits: width,
        signed: false,
    };
    [(*lhs, *rhs), (*rhs, *lhs)].into_iter().find_map(|(b, m)| {
        let x = float_of_bits(func, b)?;
        (const_int(func, m, unsigned, 0) == Some((mask, unsigned))).then_some(x)
    })
}

/// `x` when `bits` is `x.to_bits()` or `f64::to_bits(x)` (`f32`'s).
fn float_of_bits(func: &Function, bits: crate::ir::Value) -> Option<crate::ir::Value> {
    match def_through_copies(func, bits)? {
        InstKind::MethodCall {
            receiver,
            args,
            callee,
            ..
        } if args.is_empty() && callee.std() == Some(crate::callee::StdMethod::ToBits) => {
            Some(*receiver)
        }
        InstKind::Call {
            func: path, args, ..
        } if args.len() == 1 && crate::callee::is_float_to_bits(path) => Some(args[0]),
        _other => None,
    }
}

/// A primitive integer type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct IntTy {
    bits: u32,
    signed: bool,
}

impl IntTy {
    fn mask(self) -> u128 {
        if self.bits >= 128 {
            u128::MAX
        } else {
            (1u128 << self.bits) - 1
        }
    }
    /// `v` (its bits) read as a number of this type.
    fn value(self, v: u128) -> i128 {
        if self.signed && self.bits < 128 && v >> (self.bits - 1) & 1 == 1 {
            (v | !self.mask()) as i128
        } else {
            v as i128
        }
    }
}

/// The value of an integer expression made of literals, `!`, `-`, arithmetic, bit
/// operations, shifts and casts, as Rust computes it: its bits in its type, and the type.
/// `expected` is the type an unsuffixed literal takes there.
fn const_int(
    func: &Function,
    v: crate::ir::Value,
    expected: IntTy,
    depth: usize,
) -> Option<(u128, IntTy)> {
    if depth > 32 {
        return None;
    }
    let ty_of = |t: &syn::Type| match t {
        syn::Type::Path(p) if p.qself.is_none() => {
            let (bits, signed) = crate::callee::StdType::of_path(&p.path)?.int_bits()?;
            Some(IntTy { bits, signed })
        }
        _ => None,
    };
    Some(match def_through_copies(func, v)? {
        InstKind::Lit(syn::Lit::Int(l)) => {
            let ty = if l.suffix().is_empty() {
                expected
            } else {
                let (bits, signed) = crate::callee::StdType::from_name(l.suffix())?.int_bits()?;
                IntTy { bits, signed }
            };
            let n: i128 = l.base10_digits().parse().ok()?;
            (n as u128 & ty.mask(), ty)
        }
        InstKind::Unary {
            op: crate::ir::UnOp::Not,
            arg,
        } => {
            let (a, ty) = const_int(func, *arg, expected, depth + 1)?;
            (!a & ty.mask(), ty)
        }
        InstKind::Unary {
            op: crate::ir::UnOp::Neg,
            arg,
        } => {
            let (a, ty) = const_int(func, *arg, expected, depth + 1)?;
            (a.wrapping_neg() & ty.mask(), ty)
        }
        InstKind::Cast { arg, ty } => {
            let to = ty_of(ty)?;
            let (a, from) = const_int(func, *arg, to, depth + 1)?;
            (from.value(a) as u128 & to.mask(), to)
        }
        InstKind::Binary { op, lhs, rhs } => {
            use crate::ir::BinOp;
            let (a, ty) = const_int(func, *lhs, expected, depth + 1)?;
            if matches!(op, BinOp::Shl | BinOp::Shr) {
                let i32_ty = IntTy {
                    bits: 32,
                    signed: true,
                };
                let (s, sty) = const_int(func, *rhs, i32_ty, depth + 1)?;
                let s = u32::try_from(sty.value(s)).ok().filter(|s| *s < ty.bits)?;
                let r = match op {
                    BinOp::Shl => a << s,
                    _ => (ty.value(a) >> s) as u128,
                };
                return Some((r & ty.mask(), ty));
            }
            let (b, bty) = const_int(func, *rhs, ty, depth + 1)?;
            if bty != ty {
                return None;
            }
            let (x, y) = (ty.value(a), ty.value(b));
            let r = match op {
                BinOp::BitAnd => a & b,
                BinOp::BitOr => a | b,
                BinOp::BitXor => a ^ b,
                BinOp::Add => a.wrapping_add(b),
                BinOp::Sub => a.wrapping_sub(b),
                BinOp::Mul => a.wrapping_mul(b),
                BinOp::Div if y != 0 => x.checked_div(y)? as u128,
                BinOp::Rem if y != 0 => x.checked_rem(y)? as u128,
                BinOp::Div
                | BinOp::Rem
                | BinOp::Shl
                | BinOp::Shr
                | BinOp::Eq
                | BinOp::Ne
                | BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge => return None,
            };
            (r & ty.mask(), ty)
        }
        InstKind::Lit(_)
        | InstKind::Unary {
            op: crate::ir::UnOp::Deref,
            ..
        }
        | InstKind::Copy(_)
        | InstKind::Const(_)
        | InstKind::Ref { .. }
        | InstKind::Tuple(_)
        | InstKind::Array(_)
        | InstKind::Repeat { .. }
        | InstKind::VecList(_)
        | InstKind::VecRepeat { .. }
        | InstKind::Struct { .. }
        | InstKind::FieldRef { .. }
        | InstKind::Field { .. }
        | InstKind::Index { .. }
        | InstKind::ElemRef { .. }
        | InstKind::Slice { .. }
        | InstKind::Range { .. }
        | InstKind::MethodCall { .. }
        | InstKind::Call { .. }
        | InstKind::Store { .. }
        | InstKind::If { .. }
        | InstKind::Loop { .. }
        | InstKind::For { .. }
        | InstKind::Match { .. }
        | InstKind::Print { .. }
        | InstKind::Opaque { .. }
        | InstKind::Poison => return None,
    })
}
