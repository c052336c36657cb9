import { parseAbi } from 'viem'

/** The Balancer V2 Vault's functions the devnet and tests call (its published interface). */
export const balancerV2VaultAbi = parseAbi([
  'struct SingleSwap { bytes32 poolId; uint8 kind; address assetIn; address assetOut; uint256 amount; bytes userData; }',
  'struct FundManagement { address sender; bool fromInternalBalance; address recipient; bool toInternalBalance; }',
  'struct JoinPoolRequest { address[] assets; uint256[] maxAmountsIn; bytes userData; bool fromInternalBalance; }',
  'function swap(SingleSwap singleSwap, FundManagement funds, uint256 limit, uint256 deadline) payable returns (uint256)',
  'function joinPool(bytes32 poolId, address sender, address recipient, JoinPoolRequest request) payable',
  'function getPoolTokens(bytes32 poolId) view returns (address[] tokens, uint256[] balances, uint256 lastChangeBlock)',
  'function getPool(bytes32 poolId) view returns (address, uint8)',
])
