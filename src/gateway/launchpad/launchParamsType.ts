import type { ContractFunctionArgs } from 'viem'
import type { launchFactoryAbi } from './launchFactoryAbi.ts'

/** `LaunchFactory.LaunchParams`, as viem encodes it (derived from the one ABI). */
export type LaunchParams = ContractFunctionArgs<typeof launchFactoryAbi, 'payable', 'launch'>[0]
