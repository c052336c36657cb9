//! The one registry of DEX kinds: every `DexId` maps to its model family, its parameters and its
//! gas figures here, and nowhere else. Forks of a family differ only in these parameters.

use crate::dex::DexId;
use crate::pools::SwapOutcome;

/// How a kind's pools are priced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// x·y=k with the fee taken as `fee_bps` out of 10,000 by multiplying the input (Uniswap V2).
    ConstantProduct { fee_bps: u32 },
    /// Solidly pools: volatile x·y=k or stable x³y+xy³, fee floored off the input (Aerodrome).
    Solidly,
    /// Concentrated liquidity with Uniswap V3's exact math; the flavour fixes fee and tick walk.
    Concentrated(ClFlavor),
    /// WOOFi's oracle-priced vault (WooPPV2 and WooracleV2_2): one venue of a quote token and up
    /// to three bases sharing its state.
    Woofi,
    /// Curve StableSwap (NG and legacy plain, 2 to 4 coins), exact: `pools/stableswap`.
    StableSwap,
    /// Known only through sampled (amountIn, amountOut) points, priced with a safety margin.
    Sampled,
    /// DODO V2's PMM (DVM, DSP, DPP) with its R states and the sender's maintainer fee.
    DodoPmm,
    /// Gyroscope's E-CLP on the Balancer V2 Vault (scaling factors, signed fixed point).
    GyroEclp,
    /// LunarBase's PMM pool: the operator's anchor, directional fees with the swap's punishment,
    /// the caller's fee multiplier, block-delay staleness (`pools/lunarbase`).
    Lunarbase,
    /// Maverick V2's ticks with per-tick reserves, directional fees and the protocol's share.
    MaverickV2,
    /// Not modelled yet: its pools are refused with this reason, never silently dropped.
    Unsupported { reason: &'static str },
}

/// The concentrated-liquidity variants; they share TickMath, SqrtPriceMath and SwapMath.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClFlavor {
    /// Uniswap V3 pools and their forks: bitmap tick walk, one fee in pips.
    UniswapV3,
    /// Singleton pool managers (Uniswap V4, Pancake Infinity CL): lp fee and per-direction
    /// protocol fee composed into one swap fee; `max_protocol_fee_pips` is the manager's cap.
    Singleton { max_protocol_fee_pips: u32 },
    /// Algebra Integral: linked-list tick walk; the fee the plugin will charge is given as state.
    AlgebraIntegral,
}

/// One DEX kind's entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DexSpec {
    pub dex: DexId,
    pub model: Model,
    /// Gas units of one leg through our router (`contracts/router/SwapRouter.sol`), excluding the
    /// transaction's fixed costs (21,000 intrinsic, calldata, the router's per-call and per-route
    /// overhead: those are the quote service's, `src/quote/estimateRouterOverheadGas.ts`).
    pub gas_base: u64,
    /// Extra gas units per initialized tick (or level) crossed.
    pub gas_per_crossing: u64,
    /// Extra gas units per swap-loop step that ended on an empty tick-bitmap word's edge
    /// ([`SwapOutcome::words`]): V3-family and singleton pools; 0 for kinds without a bitmap walk.
    pub gas_per_word: u64,
    /// Gas units a leg costs less when an earlier leg of the same transaction swapped in the same
    /// pool: its account and slots are warm (EIP-2929), its writes hit slots already dirty
    /// (EIP-2200), and writes made once per block are not made again (Algebra's plugin timepoint).
    /// Measured per kind by `test/e2e/repeatedPoolGas.test.ts`; 0 for kinds not on the devnet (never
    /// an unmeasured saving: a plan's gas is then overstated, not understated).
    pub gas_repeat_saving: u64,
    /// The repeated leg's further saving per [`SwapOutcome::crossings`]: where crossings count what
    /// a warm pool reads again (a Curve NG pool's coins: each coin's balance, rate and token), not
    /// ticks, whose crossings cost the same warm or cold. 0 for the tick-walking kinds.
    pub gas_repeat_saving_per_crossing: u64,
}

impl DexSpec {
    /// Gas units of one leg that had `outcome`: base + crossings · per crossing + words · per word.
    /// The one place leg gas is computed (routes, split plans and `simulate` all call it).
    /// Saturating: no leg reaches u64::MAX (crossings and words are u32, the per-unit figures and
    /// the market's L1 overhead are bounded, `Market::MAX_LEG_OVERHEAD_GAS`), and a saturated
    /// figure is over every gas cap, never a wrapped small one.
    pub fn leg_gas_units(&self, outcome: &SwapOutcome) -> u64 {
        self.gas_base
            .saturating_add(u64::from(outcome.crossings).saturating_mul(self.gas_per_crossing))
            .saturating_add(u64::from(outcome.words).saturating_mul(self.gas_per_word))
    }

    /// Gas units a leg that had `outcome` saves when an earlier leg of the same transaction used
    /// its pool: [`Self::gas_repeat_saving`] + crossings · [`Self::gas_repeat_saving_per_crossing`].
    pub fn repeat_saving(&self, outcome: &SwapOutcome) -> u64 {
        self.gas_repeat_saving.saturating_add(
            u64::from(outcome.crossings).saturating_mul(self.gas_repeat_saving_per_crossing),
        )
    }

    /// Gas units of a leg that had `outcome` in a pool an earlier leg of the same transaction used:
    /// [`Self::leg_gas_units`] less [`Self::repeat_saving`].
    pub fn repeated_leg_gas_units(&self, outcome: &SwapOutcome) -> u64 {
        self.leg_gas_units(outcome).saturating_sub(self.repeat_saving(outcome))
    }
}

const fn spec_of(
    dex: DexId,
    model: Model,
    gas_base: u64,
    gas_per_crossing: u64,
    gas_per_word: u64,
) -> DexSpec {
    DexSpec {
        dex,
        model,
        gas_base,
        gas_per_crossing,
        gas_per_word,
        gas_repeat_saving: 0,
        gas_repeat_saving_per_crossing: 0,
    }
}

/// `spec` with the kind's measured saving of a repeated leg ([`DexSpec::gas_repeat_saving`]).
const fn repeats_save(spec: DexSpec, gas_repeat_saving: u64) -> DexSpec {
    DexSpec { gas_repeat_saving, ..spec }
}

const V3: Model = Model::Concentrated(ClFlavor::UniswapV3);
const ALGEBRA: Model = Model::Concentrated(ClFlavor::AlgebraIntegral);

/// The registry entry of `dex`. Gas figures of the eleven kinds on the seeded devnet are
/// least-squares fits of executed quotes through our router, per-word figures included, less the
/// router's own cost of a leg (about 2,000 gas, which the service adds:
/// `test/e2e/executeQuotes.test.ts`, docs/gas-model.md). AERODROME_V2LIKE, AERODROME_CL, PANCAKE_V2
/// and PANCAKE_INFINITY_CL are measured on our stand-ins of those protocols (no bytecode of theirs
/// is published), so their figures are the stand-ins' cost; so is DODO_V2's, measured through the
/// router's `dodo_v2` leg (`test/router/dodoLegs.test.ts`). The kinds not on the devnet still carry
/// `research/dex-kinds.md` section 5's figures, which include the router's fixed cost.
pub const fn spec(dex: DexId) -> DexSpec {
    use DexId::*;
    match dex {
        Univ2 => {
            repeats_save(spec_of(dex, Model::ConstantProduct { fee_bps: 30 }, 94_000, 0, 0), 73_500)
        }
        PancakeV2 => repeats_save(
            spec_of(dex, Model::ConstantProduct { fee_bps: 25 }, 103_500, 0, 0),
            71_000,
        ),
        AerodromeV2Like => repeats_save(spec_of(dex, Model::Solidly, 117_000, 0, 0), 67_500),
        Univ3 => repeats_save(spec_of(dex, V3, 81_000, 40_500, 7_300), 51_500),
        AlienBaseV3 => repeats_save(spec_of(dex, V3, 82_000, 41_000, 6_800), 50_000),
        PancakeV3 => repeats_save(spec_of(dex, V3, 107_000, 45_000, 7_600), 73_000),
        AerodromeCl => repeats_save(spec_of(dex, V3, 122_000, 36_000, 7_500), 74_500),
        Univ4 => repeats_save(
            spec_of(
                dex,
                Model::Concentrated(ClFlavor::Singleton { max_protocol_fee_pips: 1_000 }),
                87_000,
                34_000,
                5_400,
            ),
            48_000,
        ),
        PancakeInfinityCl => repeats_save(
            spec_of(
                dex,
                Model::Concentrated(ClFlavor::Singleton { max_protocol_fee_pips: 4_000 }),
                130_000,
                34_000,
                5_700,
            ),
            82_500,
        ),
        QuickswapV4 => repeats_save(spec_of(dex, ALGEBRA, 140_000, 32_500, 0), 98_000),
        Hydrex => repeats_save(spec_of(dex, ALGEBRA, 146_000, 30_000, 0), 104_500),
        Propswap => spec_of(dex, Model::Sampled, 200_000, 0, 0),
        Tessera => spec_of(dex, Model::Sampled, 400_000, 0, 0),
        Elfomofi => spec_of(dex, Model::Sampled, 308_000, 0, 0),
        Lunarbase => spec_of(dex, Model::Lunarbase, 120_000, 0, 0),
        Feltir => spec_of(dex, Model::Sampled, 210_000, 0, 0),
        // Legacy legs 124,000; NG legs 124,000 + 16,500 a coin (`crossings` is an NG pool's coin
        // count): measured through the router on the seeded pools (docs/gas-model.md). A repeated
        // leg saves 72,000 + 12,400 a coin (measured 96,722 on a 2-coin pool, 121,531 on 4).
        Curve => DexSpec {
            gas_repeat_saving_per_crossing: 12_400,
            ..repeats_save(spec_of(dex, Model::StableSwap, 124_000, 16_500, 0), 72_000)
        },
        DodoV2 => spec_of(dex, Model::DodoPmm, 100_000, 0, 0),
        // A second leg through the same vault: near the two of the three cases
        // `test/router/woofiLegs.test.ts` measures that split plans make (docs/gas-model.md,
        // *WOOFi on the devnet*).
        Woofi => repeats_save(spec_of(dex, Model::Woofi, 151_000, 40_000, 0), 80_000),
        // A repeated leg: the middle of the four seeded pools' savings
        // (`test/router/balancerVaultLegs.test.ts`, docs/gas-model.md).
        GyroscopeEclp => repeats_save(spec_of(dex, Model::GyroEclp, 136_000, 0, 0), 51_000),
        MaverickV2 => spec_of(dex, Model::MaverickV2, 125_000, 20_000, 0),
    }
}

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
