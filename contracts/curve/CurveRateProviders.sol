// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LpToken} from "../common/LpToken.sol";

/// @title CurveRateOracle
/// @notice Tests and the devnet only: a rate oracle of the kind a StableSwap-NG pool's oracle coin
/// (asset type 1) names with a method id, answering `rate()` with 18 decimals (a wstETH-style
/// exchange rate). Anyone may set it: the tests move it between trades.
contract CurveRateOracle {
    uint256 public rate;

    constructor(uint256 rate_) {
        rate = rate_;
    }

    function setRate(uint256 rate_) external {
        rate = rate_;
    }
}

/// @title CurveRateVault
/// @notice Tests and the devnet only: an ERC-4626 share token (18 decimals, the shared `LpToken`
/// bookkeeping) as a StableSwap-NG pool's asset type 3 sees it: `asset()`, `decimals()` and
/// `convertToAssets(shares)`, the last one `shares · assetsPerShare / 1e18` with `assetsPerShare`
/// (assets for one whole share, in the asset's units) set by anyone. Open `mint`; deposits and
/// redemptions are left out.
contract CurveRateVault is LpToken {
    address public immutable asset;
    uint256 public assetsPerShare;

    constructor(string memory name_, string memory symbol_, address asset_, uint256 assetsPerShare_) {
        _setNameAndSymbol(name_, symbol_);
        asset = asset_;
        assetsPerShare = assetsPerShare_;
    }

    function convertToAssets(uint256 shares) external view returns (uint256) {
        return (shares * assetsPerShare) / 1e18;
    }

    function setAssetsPerShare(uint256 assetsPerShare_) external {
        assetsPerShare = assetsPerShare_;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
