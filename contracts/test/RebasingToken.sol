// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title RebasingToken
/// @notice Discovery tests only: an elastic-supply token in the manner of Ampleforth. Balances are
/// shares divided by `sharesPerToken`; a transfer moves `value * sharesPerToken` shares, so it
/// moves exactly `value` (a transfer probe sees a plain token), while `rebase` changes
/// `sharesPerToken` and with it every balance, the pools' included, without a Transfer event.
contract RebasingToken {
    string public constant name = "Rebasing";
    string public constant symbol = "RBS";
    uint8 public constant decimals = 18;

    uint256 public sharesPerToken = 1e9;
    uint256 public totalShares;
    mapping(address => uint256) public sharesOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    /// Every balance was multiplied by about numerator / denominator.
    event Rebase(uint256 sharesPerToken);

    function totalSupply() external view returns (uint256) {
        return totalShares / sharesPerToken;
    }

    function balanceOf(address account) external view returns (uint256) {
        return sharesOf[account] / sharesPerToken;
    }

    function mint(address to, uint256 amount) external {
        totalShares += amount * sharesPerToken;
        sharesOf[to] += amount * sharesPerToken;
        emit Transfer(address(0), to, amount);
    }

    /// Multiplies every balance by about `numerator / denominator` (rounded down per account).
    function rebase(uint256 numerator, uint256 denominator) external {
        require(numerator > 0 && denominator > 0, "ratio");
        sharesPerToken = (sharesPerToken * denominator) / numerator;
        require(sharesPerToken > 0, "too far");
        emit Rebase(sharesPerToken);
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "allowance");
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) private {
        uint256 shares = value * sharesPerToken;
        require(sharesOf[from] >= shares, "balance");
        sharesOf[from] -= shares;
        sharesOf[to] += shares;
        emit Transfer(from, to, value);
    }
}
