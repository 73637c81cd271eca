// Mutable locals assigned in branches: SSA merges, an active one that starts as a
// literal and an integer one that stays inactive.
fn branch_assign(x: f64, n: usize) -> f64 {
    let mut y = 1.0;
    let mut k = 0;
    if n > 2 {
        y = x * x;
        k = n;
    } else if n == 0 {
        y += x;
    }
    y * k as f64
}
