//! `fwdad-gradbench`: answers GradBench's messages on stdin, one JSON line each, on stdout.

fn main() -> std::io::Result<()> {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    fwdad_gradbench::protocol::serve(stdin, stdout)
}
