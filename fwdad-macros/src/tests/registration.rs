//! `#[derive_frule]` and `#[primitive]` register rules through one layer (`register.rs`):
//! for the same signature they emit the same marker struct and the same `name_frule`
//! wrapper, hygienic parameter names included; only the docs name the attribute.

use quote::quote;

/// The items of an expansion named `name` or `name_frule`, docs removed, as text.
fn face(tokens: proc_macro2::TokenStream, name: &str) -> Vec<String> {
    let file: syn::File = syn::parse2(tokens).expect("the expansion parses");
    let wrapper = format!("{name}_frule");
    let mut out = Vec::new();
    for item in file.items {
        let (ident, text) = match item {
            syn::Item::Struct(mut s) => {
                s.attrs.retain(|a| !a.path().is_ident("doc"));
                (s.ident.to_string(), quote!(#s).to_string())
            }
            syn::Item::Fn(mut f) => {
                f.attrs.retain(|a| !a.path().is_ident("doc"));
                // The wrapper's signature; its body calls the marker's rule either way.
                let sig = &f.sig;
                let attrs = &f.attrs;
                (f.sig.ident.to_string(), quote!(#(#attrs)* #sig).to_string())
            }
            _ => continue,
        };
        if ident == name || ident == wrapper {
            out.push(text);
        }
    }
    out
}

#[test]
fn derive_frule_and_primitive_register_the_same_face() {
    let derived = crate::derive_frule::expand(
        quote!(),
        quote! {
            pub fn scale(x: f64, k: f64, this: f64) -> f64 { x * k * this }
        },
    );
    let primitive = crate::primitive::expand(
        quote!(d = (k * this, x * this, x * k)),
        quote! {
            pub fn scale(x: f64, k: f64, this: f64) -> f64 { x * k * this }
        },
    );
    for out in [&derived, &primitive] {
        assert!(!out.to_string().contains("compile_error"), "{out}");
    }
    let (d, p) = (face(derived, "scale"), face(primitive, "scale"));
    // The marker, the user's function (named `scale` too) and the wrapper.
    assert_eq!(d.len(), 3, "{d:?}");
    assert!(d[2].contains("fn scale_frule"), "{d:?}");
    assert_eq!(d[..2], p[..2]);
    // The wrappers have the same parameters; the derived one takes each `f64` with the
    // one-direction tangent or a constant's (`ConstTangent`), a type parameter bounded by
    // `ArgTangent`, where the primitive's takes `Dual<f64>`.
    for param in ["x :", "k :", "this :"] {
        assert!(d[2].contains(param) && p[2].contains(param), "{d:?} {p:?}");
    }
    assert!(d[2].contains("ArgTangent"), "{d:?}");
    assert!(
        p[2].contains("(x : :: fwdad :: __private :: Dual < f64 > ,"),
        "{p:?}"
    );
}
