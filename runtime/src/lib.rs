//! srgfn runtime: compiles the generated OpenCL kernels and runs FFTs.
