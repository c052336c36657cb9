//! The list of model families: the one place that names them all.

use super::input::{FromWire, PoolInputError};
use super::registry::{DexSpec, Model};
use super::{
    clmm, cpmm, dodo, gyro_eclp, lunarbase, maverick, sampled, solidly, stableswap, woofi, OneWay,
    PoolError, PoolModel, SwapOutcome,
};
use crate::math::U256;
use crate::route::convex::curve::Curve;
use serde::Deserialize;

/// The list of model families, one line each (`Variant(module::Type) = "wire model" for
/// Model::Pattern`, the registry models whose kinds may send the family's state): it
/// generates [`PoolState`] (one variant per family), [`SwapMemo`] (one per family's
/// [`PoolModel::Memo`]), `PoolState`'s [`PoolModel`], whose every method is the family's own
/// through one `match`, and [`StateInput`], the wire state tagged by its `model` (decoded by the
/// family's [`FromWire`]). The registry (`registry.rs`) maps each DEX kind to a family's model and
/// its parameters.
macro_rules! families {
    ($($(#[$doc:meta])* $variant:ident($($family:ident)::+) = $wire:literal for $serves:pat,)+) => {
        /// A pool's state, one variant per model family. Unboxed though the families differ in
        /// size: a swap reads its pool's state directly, and a market holds one per pool.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone, Debug)]
        pub enum PoolState {
            $($(#[$doc])* $variant($($family)::+),)+
        }

        /// One pool's memo ([`PoolModel::Memo`] of its family), empty until its first swap.
        #[derive(Clone, Debug, Default)]
        pub enum SwapMemo {
            #[default]
            Empty,
            $($variant(<$($family)::+ as PoolModel>::Memo),)+
        }

        impl PoolModel for PoolState {
            type Memo = SwapMemo;

            fn amount_out(
                &self,
                token_in: usize,
                token_out: usize,
                amount_in: U256,
            ) -> Result<SwapOutcome, PoolError> {
                crate::route::clock::count_work();
                match self {
                    $(PoolState::$variant(p) => p.amount_out(token_in, token_out, amount_in),)+
                }
            }

            fn apply(
                &self,
                token_in: usize,
                token_out: usize,
                amount_in: U256,
            ) -> Result<(SwapOutcome, Self), PoolError> {
                crate::route::clock::count_work();
                match self {
                    $(PoolState::$variant(p) => p
                        .apply(token_in, token_out, amount_in)
                        .map(|(outcome, next)| (outcome, PoolState::$variant(next))),)+
                }
            }

            fn apply_memoized(
                &self,
                token_in: usize,
                token_out: usize,
                amount_in: U256,
                memo: &mut SwapMemo,
            ) -> Result<(SwapOutcome, Self), PoolError> {
                match self {
                    $(PoolState::$variant(p) => {
                        if !matches!(memo, SwapMemo::$variant(_)) {
                            *memo = SwapMemo::$variant(Default::default());
                        }
                        let SwapMemo::$variant(memo) = memo else {
                            return self.apply(token_in, token_out, amount_in);
                        };
                        p.apply_memoized(token_in, token_out, amount_in, memo)
                            .map(|(outcome, next)| (outcome, PoolState::$variant(next)))
                    })+
                }
            }

            fn spot_price(&self, token_in: usize, token_out: usize) -> f64 {
                match self {
                    $(PoolState::$variant(p) => p.spot_price(token_in, token_out),)+
                }
            }

            fn amount_out_bound(&self, token_in: usize, token_out: usize, amount_in: f64) -> f64 {
                match self {
                    $(PoolState::$variant(p) => p.amount_out_bound(token_in, token_out, amount_in),)+
                }
            }

            fn side_curve(
                &self,
                token_in: usize,
                token_out: usize,
                one_way: OneWay,
            ) -> Option<Curve> {
                match self {
                    $(PoolState::$variant(p) => p.side_curve(token_in, token_out, one_way),)+
                }
            }

            fn token_count(&self) -> usize {
                match self {
                    $(PoolState::$variant(p) => p.token_count(),)+
                }
            }

            fn sides_bounded_apart(&self) -> bool {
                match self {
                    $(PoolState::$variant(p) => p.sides_bounded_apart(),)+
                }
            }
        }

        /// The state, tagged by `model`; the tag must agree with the registry (or be `sampled`).
        /// Unboxed though the families differ in size: it lives only while a pool is decoded.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone, Debug, Deserialize)]
        #[serde(tag = "model")]
        pub enum StateInput {
            $(#[serde(rename = $wire)] $variant(<$($family)::+ as FromWire>::Wire),)+
        }

        impl StateInput {
            /// The wire name of the state's model.
            pub fn model_name(&self) -> &'static str {
                match self {
                    $(StateInput::$variant(_) => $wire,)+
                }
            }

            /// The id of another pool whose state this venue holds inside it (a Curve meta
            /// pool's base pool): the market keeps the two one venue (`market`, *one venue per
            /// shared state*).
            pub fn holds_pool(&self) -> Option<&str> {
                match self {
                    $(StateInput::$variant(w) => <$($family)::+ as FromWire>::holds_pool(w),)+
                }
            }

            /// The family's state, if the registry's model of the kind (`spec`) is the family's.
            pub(super) fn decode(self, spec: &DexSpec) -> Result<PoolState, PoolInputError> {
                match self {
                    $(StateInput::$variant(w) => {
                        if !matches!(spec.model, $serves) {
                            return Err(PoolInputError::WrongModel { dex: spec.dex, model: $wire });
                        }
                        <$($family)::+ as FromWire>::from_wire(w, spec).map(PoolState::$variant)
                    })+
                }
            }
        }
    };
}

// `sampled` serves any modelled kind (`_`): a pool that cannot be priced exactly (a V4 pool with
// hooks, say) still takes part through its samples, with a safety margin.
families! {
    ConstantProduct(cpmm::CpmmPool) = "constant_product" for Model::ConstantProduct { .. },
    Solidly(solidly::SolidlyPool) = "solidly" for Model::Solidly,
    Concentrated(clmm::ClPool) = "concentrated" for Model::Concentrated(_),
    Sampled(sampled::SampledPool) = "sampled" for _,
    Woofi(woofi::WoofiPool) = "woofi" for Model::Woofi,
    StableSwap(stableswap::StableSwapPool) = "stableswap" for Model::StableSwap,
    Dodo(dodo::DodoPool) = "dodo_pmm" for Model::DodoPmm,
    GyroEclp(gyro_eclp::GyroEclpPool) = "gyro_eclp" for Model::GyroEclp,
    Lunarbase(lunarbase::LunarbasePool) = "lunarbase" for Model::Lunarbase,
    MaverickV2(maverick::MaverickPool) = "maverick_v2" for Model::MaverickV2,
}
