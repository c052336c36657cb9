//! Bound-curve shapes that several families build (docs/solver-optimizer.md, *The bound*): the
//! hyperbola of a constant-product pair (V2 and its forks, Solidly volatile) and linear pieces
//! (the sampled venues, WOOFi's vault, and every family whose curve is proven beside its model:
//! DODO, E-CLP, LunarBase, Maverick). `pools/` owns them rather than the convex bound because a
//! family builds its curve from its own state and proves there why it bounds the model; the bound
//! (`route/convex/curve`) only evaluates a [`Shape`](crate::route::convex::curve::Shape) through
//! the `Curve` dispatch. A shape one family alone uses lives in that family's directory
//! (concentrated liquidity's ranges: `clmm/ranges.rs`; Solidly stable's level curve:
//! `solidly/stable_bound.rs`).
//!
//! Amounts are raw token units as `f64`, rates raw out per raw in. Only IEEE-exact operations
//! (+, −, ×, ÷, √) are used, so the native and WASM builds compute the same bits.

mod hyperbola;
mod piecewise;

pub use hyperbola::Hyperbola;
pub use piecewise::{pieces_value, Piecewise};
