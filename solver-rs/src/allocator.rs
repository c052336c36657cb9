//! The native addon's global allocator: mimalloc, not the system's (glibc's malloc).
//!
//! A split quote allocates and frees many small vectors (paths, evaluations, Hessians of up to a
//! few hundred kB), and glibc consolidates its fast bins whenever a chunk of 64 kB or more is
//! freed, so the small allocations that follow miss them: its allocator was a quarter of the
//! quote's CPU in `perf` (docs/solver-optimizer.md, *Where the allocator's share comes from*).
//! mimalloc keeps per-thread free lists by size class. The same code, the same plans; only the
//! time changes (bench/README.md, the solver section). The WASM build keeps Rust's own allocator.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
