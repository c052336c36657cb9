// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title GyroSignedFixedPoint
/// @notice Signed fixed point as Gyroscope's E-CLP math uses it: 18 decimals ("normal precision")
/// and 38 decimals ("extra precision", XP). Rounding is by magnitude: `*DownMag` truncates toward
/// zero, `*UpMag` away from zero, and Solidity's signed `/` and `%` truncate toward zero, which
/// the rounding of every operation below relies on. The `…U` forms skip the overflow checks, as
/// Gyroscope's unchecked forms do (the pool's bounds on balances and parameters keep them in range);
/// the checked forms revert on overflow.
library GyroSignedFixedPoint {
    int256 internal constant ONE = 1e18;
    int256 internal constant ONE_XP = 1e38;
    int256 private constant E19 = 1e19;

    function mulDownMag(int256 a, int256 b) internal pure returns (int256) {
        return (a * b) / ONE;
    }

    function mulDownMagU(int256 a, int256 b) internal pure returns (int256) {
        unchecked {
            return (a * b) / ONE;
        }
    }

    function mulUpMagU(int256 a, int256 b) internal pure returns (int256) {
        unchecked {
            int256 product = a * b;
            if (product > 0) return (product - 1) / ONE + 1;
            if (product < 0) return (product + 1) / ONE - 1;
            return 0;
        }
    }

    function divDownMag(int256 a, int256 b) internal pure returns (int256) {
        if (a == 0) return 0;
        return (a * ONE) / b;
    }

    function divDownMagU(int256 a, int256 b) internal pure returns (int256) {
        unchecked {
            return (a * ONE) / b;
        }
    }

    function divUpMagU(int256 a, int256 b) internal pure returns (int256) {
        if (a == 0) return 0;
        unchecked {
            if (b < 0) {
                b = -b;
                a = -a;
            }
            if (a > 0) return (a * ONE - 1) / b + 1;
            return (a * ONE + 1) / b - 1;
        }
    }

    function mulXp(int256 a, int256 b) internal pure returns (int256) {
        return (a * b) / ONE_XP;
    }

    function mulXpU(int256 a, int256 b) internal pure returns (int256) {
        unchecked {
            return (a * b) / ONE_XP;
        }
    }

    function divXpU(int256 a, int256 b) internal pure returns (int256) {
        unchecked {
            return (a * ONE_XP) / b;
        }
    }

    /// @notice a (18 decimals) times b (38 decimals) to 18 decimals, toward negative infinity; b is
    /// split at 19 decimals so that neither partial product overflows.
    function mulDownXpToNpU(int256 a, int256 b) internal pure returns (int256) {
        unchecked {
            int256 prod1 = a * (b / E19);
            int256 prod2 = a * (b % E19);
            return prod1 >= 0 && prod2 >= 0 ? (prod1 + prod2 / E19) / E19 : (prod1 + prod2 / E19 + 1) / E19 - 1;
        }
    }

    /// @notice As `mulDownXpToNpU`, toward positive infinity.
    function mulUpXpToNpU(int256 a, int256 b) internal pure returns (int256) {
        unchecked {
            int256 prod1 = a * (b / E19);
            int256 prod2 = a * (b % E19);
            return prod1 <= 0 && prod2 <= 0 ? (prod1 + prod2 / E19) / E19 : (prod1 + prod2 / E19 - 1) / E19 + 1;
        }
    }
}
