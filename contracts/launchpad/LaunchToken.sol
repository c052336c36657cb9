// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title LaunchToken
/// @notice The ERC-20 every launch deploys: a fixed supply minted once to the factory, EIP-2612
/// permit, and a name, symbol and extra-metadata string (by convention `ipfs://<cid>` of the token's
/// metadata document) that its admin may update. The EIP-712 domain keeps the name the token was
/// deployed with, so a later rename never invalidates signatures or changes `DOMAIN_SEPARATOR`
/// (`eip712Domain()` reports it, EIP-5267).
contract LaunchToken {
    uint8 public constant decimals = 18;
    uint256 public constant MAX_NAME_BYTES = 64;
    uint256 public constant MAX_SYMBOL_BYTES = 32;
    uint256 public constant MAX_EXTRA_METADATA_BYTES = 4096;

    bytes32 private constant PERMIT_TYPEHASH = keccak256(
        "Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)"
    );
    bytes32 private constant DOMAIN_TYPEHASH = keccak256(
        "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"
    );
    bytes32 private constant VERSION_HASH = keccak256("1");
    /// Upper bound of `s` in a canonical (low-s) secp256k1 signature.
    uint256 private constant MAX_S = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    uint256 public immutable totalSupply;
    string public name;
    string public symbol;
    string public extraMetadata;
    /// May update name, symbol and extra metadata, and hand the role on; zero once renounced.
    address public admin;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => uint256) public nonces;

    string private domainName;
    bytes32 private immutable domainNameHash;
    uint256 private immutable deployChainId;
    bytes32 private immutable deployDomainSeparator;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    /// Emitted at deployment and on every update, with all three current values.
    event MetadataUpdated(string name, string symbol, string extraMetadata);
    event AdminChanged(address indexed previousAdmin, address indexed newAdmin);

    error NotAdmin(address caller);
    error InvalidName();
    error InvalidSymbol();
    error InvalidExtraMetadata();
    error ZeroAddress();
    error InsufficientBalance(address account, uint256 balance, uint256 needed);
    error InsufficientAllowance(address spender, uint256 allowance, uint256 needed);
    error PermitExpired(uint256 deadline);
    error InvalidSignature();

    constructor(
        string memory name_,
        string memory symbol_,
        string memory extraMetadata_,
        address admin_,
        uint256 supply,
        address holder
    ) {
        _checkName(name_);
        _checkSymbol(symbol_);
        _checkExtraMetadata(extraMetadata_);
        if (holder == address(0)) revert ZeroAddress();
        name = name_;
        symbol = symbol_;
        extraMetadata = extraMetadata_;
        admin = admin_;
        domainName = name_;
        domainNameHash = keccak256(bytes(name_));
        deployChainId = block.chainid;
        deployDomainSeparator = _domainSeparator();
        totalSupply = supply;
        balanceOf[holder] = supply;
        emit Transfer(address(0), holder, supply);
        emit AdminChanged(address(0), admin_);
        emit MetadataUpdated(name_, symbol_, extraMetadata_);
    }

    modifier onlyAdmin() {
        if (msg.sender != admin || admin == address(0)) revert NotAdmin(msg.sender);
        _;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        // An allowance of 2^256-1 is unlimited and never decremented (as in most ERC-20s).
        if (allowed != type(uint256).max) {
            if (allowed < value) revert InsufficientAllowance(msg.sender, allowed, value);
            unchecked {
                allowance[from][msg.sender] = allowed - value;
            }
        }
        _transfer(from, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        _approve(msg.sender, spender, value);
        return true;
    }

    /// EIP-2612. A signature is canonical (low s), from `owner`, for the current nonce, before the deadline.
    function permit(
        address owner,
        address spender,
        uint256 value,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        if (block.timestamp > deadline) revert PermitExpired(deadline);
        if (uint256(s) > MAX_S) revert InvalidSignature();
        bytes32 structHash = keccak256(abi.encode(PERMIT_TYPEHASH, owner, spender, value, nonces[owner]++, deadline));
        bytes32 digest = keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
        address signer = ecrecover(digest, v, r, s);
        if (signer == address(0) || signer != owner) revert InvalidSignature();
        _approve(owner, spender, value);
    }

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        // Recomputed after a chain fork, so a signature for one chain is never valid on the other.
        return block.chainid == deployChainId ? deployDomainSeparator : _domainSeparator();
    }

    /// EIP-5267: the domain's fields (name, version, chainId, verifyingContract).
    function eip712Domain()
        external
        view
        returns (bytes1, string memory, string memory, uint256, address, bytes32, uint256[] memory)
    {
        return (hex"0f", domainName, "1", block.chainid, address(this), bytes32(0), new uint256[](0));
    }

    function updateName(string calldata newName) external onlyAdmin {
        _checkName(newName);
        name = newName;
        emit MetadataUpdated(newName, symbol, extraMetadata);
    }

    function updateSymbol(string calldata newSymbol) external onlyAdmin {
        _checkSymbol(newSymbol);
        symbol = newSymbol;
        emit MetadataUpdated(name, newSymbol, extraMetadata);
    }

    function updateExtraMetadata(string calldata newExtraMetadata) external onlyAdmin {
        _checkExtraMetadata(newExtraMetadata);
        extraMetadata = newExtraMetadata;
        emit MetadataUpdated(name, symbol, newExtraMetadata);
    }

    /// Hands the admin role on; the zero address renounces it for good.
    function setAdmin(address newAdmin) external onlyAdmin {
        emit AdminChanged(admin, newAdmin);
        admin = newAdmin;
    }

    function _transfer(address from, address to, uint256 value) private {
        if (to == address(0)) revert ZeroAddress();
        uint256 balance = balanceOf[from];
        if (balance < value) revert InsufficientBalance(from, balance, value);
        unchecked {
            // Cannot overflow: the sum of all balances is the fixed total supply.
            balanceOf[from] = balance - value;
            balanceOf[to] += value;
        }
        emit Transfer(from, to, value);
    }

    function _approve(address owner, address spender, uint256 value) private {
        if (spender == address(0)) revert ZeroAddress();
        allowance[owner][spender] = value;
        emit Approval(owner, spender, value);
    }

    function _domainSeparator() private view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, domainNameHash, VERSION_HASH, block.chainid, address(this)));
    }

    function _checkName(string memory value) private pure {
        uint256 length = bytes(value).length;
        if (length == 0 || length > MAX_NAME_BYTES) revert InvalidName();
    }

    function _checkSymbol(string memory value) private pure {
        uint256 length = bytes(value).length;
        if (length == 0 || length > MAX_SYMBOL_BYTES) revert InvalidSymbol();
    }

    function _checkExtraMetadata(string memory value) private pure {
        if (bytes(value).length > MAX_EXTRA_METADATA_BYTES) revert InvalidExtraMetadata();
    }
}
