// A closure capturing active values, passed to a function of the user's: one
// `call [closure]` of its captures, whose dual body is differentiated with their activity.
fn expected_loss(mu: f64, sigma: f64) -> f64 {
    simpson(|x| loss(x) * normal_pdf(x, mu, sigma), -6.0, 6.0, 200)
}
