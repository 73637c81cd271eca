//! The IR's text form: cranelift's plain style with MLIR's regions, a type hint on every
//! line, and an optional annotation column filled by an analysis (activity, dual plan).
//!
//! ```text
//! fn f(v0: f64, v1: usize) -> f64 {
//!     v2 = call sin(v0) : float                ; active
//!     v3 = if v2 -> (v4) { .. } else { .. }
//!     return v3
//! }
//! ```

use super::{Function, Inst, InstKind, Place, Region, Terminator, Value};
use quote::ToTokens;
use std::fmt::Write;

/// Prints `func`; `note(inst)` adds an annotation column (e.g. activity).
pub fn display_fn(func: &Function, note: &dyn Fn(&Function, Inst) -> String) -> String {
    let mut out = String::new();
    let params: Vec<String> = func
        .params
        .iter()
        .map(|p| {
            let inactive = if p.inactive { "inactive " } else { "" };
            format!("{inactive}{}: {}", p.value, tokens(&p.ty))
        })
        .collect();
    let _ = writeln!(
        out,
        "fn {}({}) -> {} {{",
        func.name,
        params.join(", "),
        tokens(&func.ret)
    );
    for item in &func.items {
        let _ = writeln!(out, "    item {}", tokens(item));
    }
    write_region_body(func, func.body, 1, note, &mut out);
    out.push_str("}\n");
    out
}

fn tokens<T: ToTokens>(t: &T) -> String {
    let s = t.to_token_stream().to_string();
    // `proc_macro2` prints `& [f64]`; tighten the common cases for readability.
    s.replace("& ", "&")
        .replace(" ,", ",")
        .replace(" :: ", "::")
        .replace(":: ", "::")
}

fn values(vs: &[Value]) -> String {
    vs.iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn write_region_body(
    func: &Function,
    region: Region,
    depth: usize,
    note: &dyn Fn(&Function, Inst) -> String,
    out: &mut String,
) {
    let pad = "    ".repeat(depth);
    for &inst in &func.regions[region].insts {
        write_inst(func, inst, depth, note, out);
    }
    let _ = match &func.regions[region].term {
        Terminator::Yield(vs) if vs.is_empty() => writeln!(out, "{pad}yield"),
        Terminator::Yield(vs) => writeln!(out, "{pad}yield {}", values(vs)),
        Terminator::Return(v) => writeln!(out, "{pad}return {v}"),
        Terminator::Unreachable => writeln!(out, "{pad}unreachable"),
        Terminator::Break {
            depth: d,
            values: vs,
        } => writeln!(out, "{pad}break.{d} {}", values(vs)),
        Terminator::Continue {
            depth: d,
            values: vs,
        } => {
            writeln!(out, "{pad}continue.{d} {}", values(vs))
        }
    };
}

fn write_inst(
    func: &Function,
    inst: Inst,
    depth: usize,
    note: &dyn Fn(&Function, Inst) -> String,
    out: &mut String,
) {
    let pad = "    ".repeat(depth);
    let data = &func.insts[inst];
    let results = values(&data.results);
    let lhs = if results.is_empty() {
        String::new()
    } else {
        format!("{results} = ")
    };
    let ty = match data.results.as_slice() {
        [v] => format!(" : {}", func.values[*v].ty.short()),
        _ => String::new(),
    };
    let annotation = note(func, inst);
    let annotation = if annotation.is_empty() {
        String::new()
    } else {
        format!("    ; {annotation}")
    };
    let body = match &data.kind {
        InstKind::Copy(v) => format!("copy {v}"),
        InstKind::Lit(l) => format!("lit {}", tokens(l)),
        InstKind::Const(p) => format!("const {}", tokens(p)),
        InstKind::Binary { op, lhs, rhs } => format!("{} {lhs}, {rhs}", op.name()),
        InstKind::Unary { op, arg } => format!("{} {arg}", format!("{op:?}").to_lowercase()),
        InstKind::Ref { mutable, arg } => {
            format!("ref{} {arg}", if *mutable { "_mut" } else { "" })
        }
        InstKind::Cast { arg, ty } => format!("cast {arg} as {}", tokens(ty)),
        InstKind::Tuple(vs) => format!("tuple ({})", values(vs)),
        InstKind::Array(vs) => format!("array [{}]", values(vs)),
        InstKind::Repeat { elem, len } => format!("repeat [{elem}; {}]", tokens(len)),
        InstKind::VecList(vs) => format!("vec [{}]", values(vs)),
        InstKind::VecRepeat { elem, len } => format!("vec_repeat [{elem}; {len}]"),
        InstKind::Struct { path, fields, base } => format!(
            "struct {} {{ {}{} }}",
            tokens(path),
            fields
                .iter()
                .map(|(m, v)| format!("{}: {v}", tokens(m)))
                .collect::<Vec<_>>()
                .join(", "),
            base.map(|b| format!(", ..{b}")).unwrap_or_default()
        ),
        InstKind::FieldRef {
            base,
            member,
            mutable,
        } => {
            format!(
                "field_ref{} {base}.{}",
                if *mutable { "_mut" } else { "" },
                tokens(member)
            )
        }
        InstKind::Field { base, member } => format!("field {base}.{}", tokens(member)),
        InstKind::Index { base, index } => format!("index {base}[{index}]"),
        InstKind::ElemRef {
            base,
            index,
            mutable,
        } => {
            format!(
                "elem_ref{} {base}[{index}]",
                if *mutable { "_mut" } else { "" }
            )
        }
        InstKind::Slice {
            base,
            range,
            mutable,
        } => {
            format!(
                "slice{} {base}[{range}]",
                if *mutable { "_mut" } else { "" }
            )
        }
        InstKind::Range { start, end, closed } => format!(
            "range {}{}{}",
            start.map(|v| v.to_string()).unwrap_or_default(),
            if *closed { "..=" } else { ".." },
            end.map(|v| v.to_string()).unwrap_or_default()
        ),
        InstKind::MethodCall {
            receiver,
            method,
            args,
            callee,
            ..
        } => {
            format!("method {receiver}.{method}({}) [{callee}]", values(args))
        }
        InstKind::Call {
            func: path,
            args,
            callee,
        } => format!("call {}({}) [{callee}]", tokens(path), values(args)),
        InstKind::Store { place, value } => match place {
            Place::Deref(t) => format!("store *{t} = {value}"),
            Place::Index(t, i) => format!("store {t}[{i}] = {value}"),
            Place::Field(t, m) => format!("store {t}.{} = {value}", tokens(m)),
        },
        InstKind::If {
            cond,
            then_region,
            else_region,
        } => {
            let _ = writeln!(out, "{pad}{lhs}if {cond} {{{annotation}");
            write_region_body(func, *then_region, depth + 1, note, out);
            let _ = writeln!(out, "{pad}}} else {{");
            write_region_body(func, *else_region, depth + 1, note, out);
            let _ = writeln!(out, "{pad}}}");
            return;
        }
        InstKind::Loop { init, body } => {
            let params = values(&func.regions[*body].params);
            let _ = writeln!(
                out,
                "{pad}{lhs}loop ({params}) = ({}) {{{annotation}",
                values(init)
            );
            write_region_body(func, *body, depth + 1, note, out);
            let _ = writeln!(out, "{pad}}}");
            return;
        }
        InstKind::For { iter, init, body } => {
            let params = values(&func.regions[*body].params);
            let _ = writeln!(
                out,
                "{pad}{lhs}for ({params}) in {iter} with ({}) {{{annotation}",
                values(init)
            );
            write_region_body(func, *body, depth + 1, note, out);
            let _ = writeln!(out, "{pad}}}");
            return;
        }
        InstKind::Match { scrutinee, arms } => {
            let _ = writeln!(out, "{pad}{lhs}match {scrutinee} {{{annotation}");
            for arm in arms {
                let params = values(&func.regions[arm.body].params);
                if let Some(g) = arm.guard {
                    let _ = writeln!(out, "{pad}    {} ({params}) if {{", tokens(&arm.pat));
                    write_region_body(func, g, depth + 2, note, out);
                    let _ = writeln!(out, "{pad}    }} => {{");
                } else {
                    let _ = writeln!(out, "{pad}    {} ({params}) => {{", tokens(&arm.pat));
                }
                write_region_body(func, arm.body, depth + 2, note, out);
                let _ = writeln!(out, "{pad}    }}");
            }
            let _ = writeln!(out, "{pad}}}");
            return;
        }
        InstKind::Print {
            mac,
            shown: Some(e),
            args,
            ..
        } => format!(
            "{}!({e}, {})",
            mac.name(),
            args.iter()
                .map(|a| a.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        InstKind::Print {
            mac,
            fmt,
            names,
            args,
            ..
        } => {
            let args: Vec<String> = names
                .iter()
                .zip(args)
                .map(|(n, a)| match n {
                    Some(n) => format!("{n} = {a}"),
                    None => a.to_string(),
                })
                .collect();
            format!("{}!({:?}, {})", mac.name(), fmt.value(), args.join(", "))
        }
        InstKind::Opaque {
            mac,
            captures,
            args,
            ..
        } => {
            let bound: Vec<String> = captures
                .iter()
                .zip(args)
                .map(|(c, a)| format!("{c} = {a}"))
                .collect();
            format!("macro {}!(..) [{}]", tokens(&mac.path), bound.join(", "))
        }
        InstKind::Poison => "poison".to_string(),
    };
    let _ = writeln!(out, "{pad}{lhs}{body}{ty}{annotation}");
}
