//! `fwdad-integration`: the workspace's integration tests (`tests/`), examples
//! (`examples/`) and their shared helpers. Not published.
