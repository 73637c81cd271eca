//! Benchmark kernels of fwdad (being written).
