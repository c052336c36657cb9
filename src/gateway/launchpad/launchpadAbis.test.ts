import assert from 'node:assert/strict'
import { test } from 'vitest'
import type { Abi } from 'viem'
import { formatAbiItem } from 'viem/utils'
import { feeLockerAbi } from './feeLockerAbi.ts'
import { launchFactoryAbi } from './launchFactoryAbi.ts'
import { launchTokenAbi } from './launchTokenAbi.ts'
import { loadLaunchpadArtifacts } from './loadLaunchpadArtifacts.ts'
import { vestingVaultAbi } from './vestingVaultAbi.ts'

const signatures = (abi: Abi, types: string[]) =>
  new Set(
    abi
      .filter((item) => types.includes(item.type))
      .map(
        (item: Abi[number]) => `${item.type} ${formatAbiItem(item as never)}${'stateMutability' in item ? ` ${item.stateMutability}` : ''}`,
      ),
  )

test('the typed ABIs say exactly what the compiled contracts have: every function, event and error', () => {
  const artifacts = loadLaunchpadArtifacts()
  const pairs = [
    ['LaunchFactory', launchFactoryAbi],
    ['LaunchToken', launchTokenAbi],
    ['FeeLocker', feeLockerAbi],
    ['VestingVault', vestingVaultAbi],
  ] as const
  for (const [name, typed] of pairs) {
    const compiled = signatures(artifacts[name].abi, ['function', 'event', 'error'])
    const ours = signatures(typed as Abi, ['function', 'event', 'error'])
    assert.deepEqual(
      [...ours].filter((s) => !compiled.has(s)),
      [],
      `${name}: in the typed ABI but not compiled`,
    )
    assert.deepEqual(
      [...compiled].filter((s) => !ours.has(s)),
      [],
      `${name}: compiled but missing from the typed ABI`,
    )
  }
})
