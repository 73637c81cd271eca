use fwdad::Differentiable;

// A renamed tangent is also re-exported under the default name (`LocalTangent`) for the
// literals and patterns of derived bodies, from a module that reaches it through `super`:
// inside a function body, where the type lives, that fails. Declare the type at module
// level (or keep the default tangent name).
fn main() {
    #[derive(Clone, Copy, Debug, Differentiable)]
    #[differentiable(tangent = DLocal)]
    struct Local {
        x: f64,
    }
    let _ = Local { x: 1.0 }.x;
}
