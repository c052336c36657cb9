// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ReentrantToken
/// @notice Router security tests only: an open-mint ERC-20 that, once armed, calls `target` with
/// `payload` from inside `transfer`/`transferFrom` (before moving the balance) and re-throws the
/// target's revert, so a refused reentry shows as the outer transaction's revert reason.
contract ReentrantToken {
    string public constant name = "Reentrant";
    string public constant symbol = "REENT";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    address public target;
    bytes public payload;
    bool private entered;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function arm(address target_, bytes calldata payload_) external {
        target = target_;
        payload = payload_;
    }

    function mint(address to, uint256 amount) external {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _reenter();
        _move(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        _reenter();
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) private {
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }

    function _reenter() private {
        if (target == address(0) || entered) return;
        entered = true;
        (bool ok, bytes memory ret) = target.call(payload);
        entered = false;
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(ret, 32), mload(ret))
            }
        }
    }
}
