import { parseAbi } from 'viem'

/**
 * `contracts/launchpad/LaunchToken.sol`, typed for viem (checked against the compiled ABI by
 * `launchpadAbis.test.ts`).
 *
 * @example
 * const name = await client.readContract({ address: token, abi: launchTokenAbi, functionName: 'name' })
 * // → the token's name, e.g. 'Moon'
 */
export const launchTokenAbi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function extraMetadata() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function admin() view returns (address)',
  'function balanceOf(address account) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function nonces(address owner) view returns (uint256)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function transferFrom(address from, address to, uint256 value) returns (bool)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'function eip712Domain() view returns (bytes1, string, string, uint256, address, bytes32, uint256[])',
  'function updateName(string newName)',
  'function updateSymbol(string newSymbol)',
  'function updateExtraMetadata(string newExtraMetadata)',
  'function setAdmin(address newAdmin)',
  'function MAX_NAME_BYTES() view returns (uint256)',
  'function MAX_SYMBOL_BYTES() view returns (uint256)',
  'function MAX_EXTRA_METADATA_BYTES() view returns (uint256)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event MetadataUpdated(string name, string symbol, string extraMetadata)',
  'event AdminChanged(address indexed previousAdmin, address indexed newAdmin)',
  'error NotAdmin(address caller)',
  'error InvalidName()',
  'error InvalidSymbol()',
  'error InvalidExtraMetadata()',
  'error ZeroAddress()',
  'error InsufficientBalance(address account, uint256 balance, uint256 needed)',
  'error InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error PermitExpired(uint256 deadline)',
  'error InvalidSignature()',
])
