//! Attribute arguments: `#[derive_frule]`, `#[derive_frule(dump)]`,
//! `#[derive_frule(inactive(a, b))]`, `#[derive_frule(alias(State = SVector<f64, 3>))]`,
//! `#[derive_frule(crate = path::to::fwdad)]`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::parse::{Parse, ParseStream};

/// Parsed arguments.
#[derive(Default)]
pub struct Args {
    /// Print the IR after each pass and the emitted code at compile time.
    pub dump: bool,
    /// The path of the `fwdad` crate, for callers without the facade under that name.
    pub krate: Option<syn::Path>,
    /// Parameters declared constant: `inactive(a, b)` (checked against the signature later).
    pub inactive: Vec<syn::Ident>,
    /// Type aliases of the user's the function names (`alias(State = SVector<f64, 3>)`):
    /// library types are recognised by their names, which an alias hides from the macro.
    pub aliases: Vec<(syn::Ident, syn::Type)>,
}

/// `State = SVector<f64, 3>` in `alias(..)`.
struct AliasArg(syn::Ident, syn::Type);

impl Parse for AliasArg {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let name = input.parse()?;
        input.parse::<syn::Token![=]>()?;
        Ok(AliasArg(name, input.parse()?))
    }
}

impl Args {
    /// The path generated code uses for runtime items.
    pub fn runtime_path(&self) -> TokenStream {
        match &self.krate {
            Some(p) => quote!(#p::__private),
            None => quote!(::fwdad::__private),
        }
    }
}

impl Parse for Args {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut args = Args::default();
        while !input.is_empty() {
            if input.peek(syn::Token![crate]) {
                let krate = input.parse::<syn::Token![crate]>()?;
                if !input.peek(syn::Token![=]) {
                    return Err(syn::Error::new(
                        krate.span,
                        "`crate` takes the path of the `fwdad` crate: `crate = path`, e.g. `crate = ::my_facade::fwdad`",
                    ));
                }
                input.parse::<syn::Token![=]>()?;
                if input.peek(syn::LitStr) {
                    let lit: syn::LitStr = input.parse()?;
                    return Err(syn::Error::new(
                        lit.span(),
                        format!(
                            "`crate = ..` takes a path, not a string: write `crate = {}`",
                            lit.value()
                        ),
                    ));
                }
                args.krate = Some(input.call(syn::Path::parse_mod_style)?);
            } else {
                let ident: syn::Ident = input.parse()?;
                wrong_argument_form(&ident, input)?;
                match ident.to_string().as_str() {
                    "dump" => args.dump = true,
                    "inactive" => {
                        let content;
                        syn::parenthesized!(content in input);
                        let names = content.parse_terminated(inactive_name, syn::Token![,])?;
                        if names.is_empty() {
                            return Err(syn::Error::new(
                                ident.span(),
                                "`inactive(..)` names the parameters to treat as constants, e.g. `inactive(data, scale)`",
                            ));
                        }
                        args.inactive.extend(names);
                    }
                    "alias" => {
                        let content;
                        syn::parenthesized!(content in input);
                        let pairs = content.parse_terminated(AliasArg::parse, syn::Token![,])?;
                        if pairs.is_empty() {
                            return Err(syn::Error::new(
                                ident.span(),
                                "`alias(..)` names your type aliases of library types with what they stand for, e.g. `alias(State = SVector<f64, 3>)`",
                            ));
                        }
                        args.aliases.extend(pairs.into_iter().map(|AliasArg(n, t)| (n, t)));
                    }
                    "wrt" | "with_respect_to" | "active" | "vars" | "variables" | "diff" => {
                        return Err(syn::Error::new(
                            ident.span(),
                            format!("`#[derive_frule]` takes no `{ident}`: the rule `f_frule` is differentiated with respect to every parameter, and the caller chooses the direction by the tangents it passes (`f_frule(Dual::new(x, 1.0), Dual::new(k, 0.0))` for ∂f/∂x), or with a driver (`derivative(bind(f {{}}, (Var(0), k)), x)`); a parameter that is never differentiated is declared constant with `#[derive_frule(inactive(k))]`"),
                        ))
                    }
                    other => {
                        return Err(syn::Error::new(
                            ident.span(),
                            format!("unknown `#[derive_frule]` argument `{other}`; expected `dump`, `inactive(param, ..)`, `alias(Name = Type, ..)` or `crate = path`"),
                        ))
                    }
                }
            }
            if !input.is_empty() && !input.peek(syn::Token![,]) {
                return Err(input.error(
                    "expected `,` between `#[derive_frule]` arguments: `#[derive_frule(dump, inactive(data))]`",
                ));
            }
            if !input.is_empty() {
                input.parse::<syn::Token![,]>()?;
            }
        }
        Ok(args)
    }
}

/// An argument written in another form than its own: `dump = true` (`dump` takes no
/// value), `inactive = k`, `inactive: k` or `inactive[k]` (`inactive(k)`), `alias = ..`.
#[inline(never)]
fn wrong_argument_form(ident: &syn::Ident, input: ParseStream) -> syn::Result<()> {
    let name = ident.to_string();
    let form = match name.as_str() {
        "dump" => "`dump` takes no value: write `#[derive_frule(dump)]`",
        "inactive" => "`inactive` takes the parameters to treat as constants in parentheses: `inactive(data, scale)`",
        "alias" => "`alias` takes your type aliases in parentheses: `alias(State = SVector<f64, 3>)`",
        _ => return Ok(()),
    };
    let wrong = match name.as_str() {
        "dump" => !input.is_empty() && !input.peek(syn::Token![,]),
        _ => !input.peek(syn::token::Paren),
    };
    match wrong {
        true => Err(syn::Error::new(ident.span(), form)),
        false => Ok(()),
    }
}

/// A parameter's name in `inactive(..)`; a string (`inactive("data")`) is named as such.
fn inactive_name(input: ParseStream) -> syn::Result<syn::Ident> {
    if input.peek(syn::LitStr) {
        let lit: syn::LitStr = input.parse()?;
        return Err(syn::Error::new(
            lit.span(),
            format!(
                "`inactive(..)` takes the parameters' names, not strings: write `inactive({})`",
                lit.value()
            ),
        ));
    }
    if input.peek(syn::Token![self]) {
        let recv = input.parse::<syn::Token![self]>()?;
        return Err(syn::Error::new(
            recv.span,
            "`inactive(self)`: `inactive(..)` names parameters of a free function, and `self` is a \
             method's receiver: move the computation into a free function taking the constant data \
             as a parameter (`#[derive_frule(inactive(data))] fn f(data: &Data, x: f64)`) and call \
             it from the method",
        ));
    }
    input.parse()
}
