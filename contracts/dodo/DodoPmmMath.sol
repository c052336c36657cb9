// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title DodoPmmMath
/// @notice DODO V2's proactive market maker as its published libraries compute it (`DecimalMath`,
/// `DODOMath`, `PMMPricing` of DODOEX/contractV2): 18-decimal fixed point rounded down unless
/// named `Ceil`, the curve's integral, its two quadratic solutions, and the R states (ONE: both
/// reserves at target; ABOVE_ONE: base below its target; BELOW_ONE: quote below its target). Each
/// operation, its order and its rounding follow the published code, since a swap must pay exactly
/// what the deployed pools pay; overflow reverts here as SafeMath's does there, and the one
/// multiplication DODO lets overflow to test for it (`ki * delta`) is unchecked as there.
library DodoPmmMath {
    uint256 internal constant ONE = 1e18;
    uint256 internal constant ONE2 = 1e36;

    uint256 internal constant R_ONE = 0;
    uint256 internal constant R_ABOVE_ONE = 1;
    uint256 internal constant R_BELOW_ONE = 2;

    error DodoTargetIsZero();
    error DodoShouldNotBeZero();

    struct State {
        uint256 i;
        uint256 K;
        uint256 B;
        uint256 Q;
        uint256 B0;
        uint256 Q0;
        uint256 R;
    }

    function mulFloor(uint256 target, uint256 d) internal pure returns (uint256) {
        return (target * d) / ONE;
    }

    function divFloor(uint256 target, uint256 d) internal pure returns (uint256) {
        return (target * ONE) / d;
    }

    function divCeil(uint256 target, uint256 d) internal pure returns (uint256) {
        uint256 a = target * ONE;
        uint256 quotient = a / d;
        return a - quotient * d > 0 ? quotient + 1 : quotient;
    }

    function reciprocalFloor(uint256 target) internal pure returns (uint256) {
        return ONE2 / target;
    }

    /// @notice DODO's integer square root (Babylonian, from x/2 + 1).
    function sqrt(uint256 x) internal pure returns (uint256 y) {
        uint256 z = x / 2 + 1;
        y = x;
        while (z < y) {
            y = z;
            z = (x / z + z) / 2;
        }
    }

    /// @notice i·(V1 − V2)·(1 − k + k·V0²/(V1·V2)), rounded down: what moving from V1 to V2 pays.
    function generalIntegrate(
        uint256 V0,
        uint256 V1,
        uint256 V2,
        uint256 i,
        uint256 k
    ) internal pure returns (uint256) {
        if (V0 == 0) revert DodoTargetIsZero();
        uint256 fairAmount = i * (V1 - V2);
        if (k == 0) return fairAmount / ONE;
        uint256 V0V0V1V2 = divFloor((V0 * V0) / V1, V2);
        uint256 penalty = mulFloor(k, V0V0V1V2);
        return ((ONE - k + penalty) * fairAmount) / ONE2;
    }

    /// @notice The target V0 of a side at V1 after `delta` of the other side moved at price i.
    function solveForTarget(uint256 V1, uint256 delta, uint256 i, uint256 k) internal pure returns (uint256) {
        if (k == 0) return V1 + mulFloor(i, delta);
        if (V1 == 0) return 0;
        uint256 root;
        uint256 ki = (4 * k) * i;
        if (ki == 0) {
            root = ONE;
        } else {
            uint256 product;
            unchecked {
                product = ki * delta;
            }
            if (product / ki == delta) root = sqrt(product / V1 + ONE2);
            else root = sqrt((ki / V1) * delta + ONE2);
        }
        uint256 premium = divFloor(root - ONE, k * 2) + ONE;
        return mulFloor(V1, premium);
    }

    /// @notice What selling `delta` at price i takes out of a side at V1 with target V0.
    function solveForTrade(
        uint256 V0,
        uint256 V1,
        uint256 delta,
        uint256 i,
        uint256 k
    ) internal pure returns (uint256) {
        if (V0 == 0) revert DodoTargetIsZero();
        if (delta == 0) return 0;
        if (k == 0) return mulFloor(i, delta) > V1 ? V1 : mulFloor(i, delta);
        if (k == ONE) {
            uint256 temp;
            uint256 idelta = i * delta;
            if (idelta == 0) {
                temp = 0;
            } else {
                uint256 product;
                unchecked {
                    product = idelta * V1;
                }
                if (product / idelta == V1) temp = product / (V0 * V0);
                else temp = (((delta * V1) / V0) * i) / V0;
            }
            return (V1 * temp) / (temp + ONE);
        }
        uint256 part2 = ((k * V0) / V1) * V0 + i * delta;
        uint256 bAbs = (ONE - k) * V1;
        bool bSig;
        if (bAbs >= part2) {
            bAbs = bAbs - part2;
        } else {
            bAbs = part2 - bAbs;
            bSig = true;
        }
        bAbs = bAbs / ONE;
        uint256 squareRoot = mulFloor((ONE - k) * 4, mulFloor(k, V0) * V0);
        squareRoot = sqrt(bAbs * bAbs + squareRoot);
        uint256 denominator = (ONE - k) * 2;
        uint256 numerator;
        if (bSig) {
            numerator = squareRoot - bAbs;
            if (numerator == 0) revert DodoShouldNotBeZero();
        } else {
            numerator = bAbs + squareRoot;
        }
        uint256 V2 = divCeil(numerator, denominator);
        return V2 > V1 ? 0 : V1 - V2;
    }

    /// @notice Fills in the target the R state leaves implicit (Q0 below one, B0 above one).
    function adjustTarget(State memory s) internal pure {
        if (s.R == R_BELOW_ONE) s.Q0 = solveForTarget(s.Q, s.B - s.B0, s.i, s.K);
        else if (s.R == R_ABOVE_ONE) s.B0 = solveForTarget(s.B, s.Q - s.Q0, reciprocalFloor(s.i), s.K);
    }

    function sellBase(State memory s, uint256 payBase) internal pure returns (uint256 receiveQuote, uint256 newR) {
        if (s.R == R_ONE) {
            receiveQuote = solveForTrade(s.Q0, s.Q0, payBase, s.i, s.K);
            newR = R_BELOW_ONE;
        } else if (s.R == R_ABOVE_ONE) {
            uint256 backToOnePayBase = s.B0 - s.B;
            uint256 backToOneReceiveQuote = s.Q - s.Q0;
            if (payBase < backToOnePayBase) {
                receiveQuote = generalIntegrate(s.B0, s.B + payBase, s.B, s.i, s.K);
                newR = R_ABOVE_ONE;
                if (receiveQuote > backToOneReceiveQuote) receiveQuote = backToOneReceiveQuote;
            } else if (payBase == backToOnePayBase) {
                receiveQuote = backToOneReceiveQuote;
                newR = R_ONE;
            } else {
                receiveQuote = backToOneReceiveQuote + solveForTrade(s.Q0, s.Q0, payBase - backToOnePayBase, s.i, s.K);
                newR = R_BELOW_ONE;
            }
        } else {
            receiveQuote = solveForTrade(s.Q0, s.Q, payBase, s.i, s.K);
            newR = R_BELOW_ONE;
        }
    }

    function sellQuote(State memory s, uint256 payQuote) internal pure returns (uint256 receiveBase, uint256 newR) {
        if (s.R == R_ONE) {
            receiveBase = solveForTrade(s.B0, s.B0, payQuote, reciprocalFloor(s.i), s.K);
            newR = R_ABOVE_ONE;
        } else if (s.R == R_ABOVE_ONE) {
            receiveBase = solveForTrade(s.B0, s.B, payQuote, reciprocalFloor(s.i), s.K);
            newR = R_ABOVE_ONE;
        } else {
            uint256 backToOnePayQuote = s.Q0 - s.Q;
            uint256 backToOneReceiveBase = s.B - s.B0;
            if (payQuote < backToOnePayQuote) {
                receiveBase = generalIntegrate(s.Q0, s.Q + payQuote, s.Q, reciprocalFloor(s.i), s.K);
                newR = R_BELOW_ONE;
                if (receiveBase > backToOneReceiveBase) receiveBase = backToOneReceiveBase;
            } else if (payQuote == backToOnePayQuote) {
                receiveBase = backToOneReceiveBase;
                newR = R_ONE;
            } else {
                receiveBase =
                    backToOneReceiveBase +
                    solveForTrade(s.B0, s.B0, payQuote - backToOnePayQuote, reciprocalFloor(s.i), s.K);
                newR = R_ABOVE_ONE;
            }
        }
    }
}
