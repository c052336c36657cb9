// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {DodoPmmPool} from "./DodoPmmPool.sol";

/// @title DodoPmmFactory
/// @notice Tests and the devnet only: one registry standing in for DODO V2's three factories
/// (DVMFactory, DSPFactory, DPPFactory), announcing each pool with the event its real factory
/// emits, with the same signatures (`NewDVM`, `NewDSP`, `NewDPP`: base, quote, creator, pool, none
/// indexed), so discovery reads the real topics. Pools name the factory's maintainer and fee-rate
/// model, as the real factories' defaults; the creator owns the pool (its `sync` and, for a DPP,
/// `reset`). Real DODO clones templates; this deploys our `DodoPmmPool` whole.
contract DodoPmmFactory {
    address public immutable _DEFAULT_MAINTAINER_;
    address public immutable _DEFAULT_MT_FEE_RATE_MODEL_;

    event NewDVM(address baseToken, address quoteToken, address creator, address dvm);
    event NewDSP(address baseToken, address quoteToken, address creator, address DSP);
    event NewDPP(address baseToken, address quoteToken, address creator, address dpp);

    constructor(address maintainer, address mtFeeRateModel) {
        (_DEFAULT_MAINTAINER_, _DEFAULT_MT_FEE_RATE_MODEL_) = (maintainer, mtFeeRateModel);
    }

    /// @param kind 0 DVM, 1 DSP, 2 DPP (`DodoPmmPool.kind`).
    function createPool(
        uint256 kind,
        address baseToken,
        address quoteToken,
        uint256 lpFeeRate,
        uint256 i,
        uint256 k
    ) external returns (address pool) {
        pool = address(
            new DodoPmmPool(
                kind,
                baseToken,
                quoteToken,
                _DEFAULT_MAINTAINER_,
                _DEFAULT_MT_FEE_RATE_MODEL_,
                lpFeeRate,
                i,
                k,
                msg.sender
            )
        );
        if (kind == 0) emit NewDVM(baseToken, quoteToken, msg.sender, pool);
        else if (kind == 1) emit NewDSP(baseToken, quoteToken, msg.sender, pool);
        else emit NewDPP(baseToken, quoteToken, msg.sender, pool);
    }
}
