//! Procedural macros of [fwdad](https://docs.rs/fwdad): `#[derive_frule]` differentiates
//! a plain Rust function by source transformation (see `docs/design.md` for the pipeline).
//!
//! Each entry point only parses and hands over to an `expand` function that takes and
//! returns `proc_macro2` tokens, so every pass is unit-testable.

mod activity;
mod aliases;
mod args;
mod callee;
mod cfg_split;
mod chainjac;
mod const_args;
mod derive_frule;
mod diag;
mod differentiable;
mod dual;
mod emit;
mod fn_fields;
mod higher_order;
mod ir;
mod libtypes;
mod lifetimes;
mod linear;
mod lower;
mod method_rule;
mod nesting;
mod normalize;
mod pipeline;
mod plain_fns;
mod preacc;
mod primitive;
mod reductions;
mod register;
mod simplify;
mod source;
mod splice;
mod traits;
mod types;
mod user_ops;

#[cfg(test)]
mod tests;

use proc_macro::TokenStream;

/// Generates the forward rule of a function: `name_frule`, taking and returning `Dual`s,
/// and registers it so that calls to `name` inside other `#[derive_frule]` bodies use it.
///
/// Arguments: `dump` prints the IR after each pass and the emitted code at compile time
/// (also `FWDAD_DUMP=name` or `FWDAD_DUMP=1` in the environment); `inactive(a, b)`
/// declares borrowed parameters constant data (taken as plain references; only constants
/// may be passed to them); `alias(State = SVector<f64, 3>)` writes out type aliases of
/// library types, which the macro recognises by their names; `crate = path` names the
/// `fwdad` crate when it is not a direct dependency under that name.
///
/// The primal's `#[inline(..)]` steers the rule too: `#[inline(always)]` is put on the
/// rule (worth it for a small function called from a hot loop, whose batched rule is too
/// large for LLVM to inline by itself), and `#[inline(never)]` keeps the rule's body in a
/// function of its own.
#[proc_macro_attribute]
pub fn derive_frule(args: TokenStream, item: TokenStream) -> TokenStream {
    let file = proc_macro::Span::call_site().local_file();
    let expand = || derive_frule::expand(args.into(), item.into());
    source::with_source_file(file.clone(), || aliases::with_source_aliases(file, expand)).into()
}

/// Registers a hand-written forward rule for a function whose body must not be
/// differentiated (see the "Writing rules" guide, `docs/writing-rules.md`).
#[proc_macro_attribute]
pub fn primitive(args: TokenStream, item: TokenStream) -> TokenStream {
    // The file, for a partial that calls a plain function of it (`d = sigmoid(x)`).
    let file = proc_macro::Span::call_site().local_file();
    source::with_source_file(file, || primitive::expand(args.into(), item.into())).into()
}

/// Marks a function whose result carries no tangent (an index, a count, a random draw):
/// calls to it in derived bodies return their value with a zero tangent.
#[proc_macro_attribute]
pub fn non_differentiable(args: TokenStream, item: TokenStream) -> TokenStream {
    primitive::expand_non_differentiable(args.into(), item.into()).into()
}

/// Derives `Differentiable` for a struct: a tangent struct `<Name>Tangent<S: Mode = f64>` with
/// the same field names and visibilities (`f64` fields become `S`, integers/`bool`/`String`
/// become `NoTangent`, nested types their own `TangentIn<S>`), with `Clone`, `Copy`, `Debug`,
/// `PartialEq`, `Default`, `TangentSpace`, plus `ZeroTangent` and `testing::TestTangent` on the
/// struct. A struct with no differentiable field, or a fieldless enum, has tangent `NoTangent`.
/// Attributes: `#[differentiable(crate = path, tangent = Name)]`, `#[differentiable(skip)]` on
/// a field.
///
/// ```text
/// #[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
/// pub struct Params { pub k: f64, pub n: usize }
/// let p = Dual::new(Params { k: 2.0, n: 3 }, ParamsTangent { k: 1.0, n: NoTangent });
/// let b: ParamsTangent<Batch<f64, 4>> = ParamsTangent { k: Batch::unit(2), n: NoTangent };
/// ```
/// The rule handle of a method of a `#[derive_frule] impl`, for the drivers:
/// `rule!(Model::loss)` is to the method `Model::loss` what the marker `f {}` is to a free
/// function `f`. The receiver is the rule's first argument, so `bind` fixes it:
/// `gradient(bind(rule!(Model::loss), (&model, Wrt)), &w)`.
#[proc_macro]
pub fn rule(input: TokenStream) -> TokenStream {
    method_rule::expand(input.into()).into()
}

#[proc_macro_derive(Differentiable, attributes(differentiable))]
pub fn derive_differentiable(item: TokenStream) -> TokenStream {
    differentiable::expand(item.into()).into()
}
