import { randomBytes } from 'node:crypto'
import { Type } from 'typebox'
import { type Address, encodeAbiParameters, encodeFunctionData, getAddress, getContractAddress, type Hex, keccak256 } from 'viem'
import { UNISWAP_V3_POOL_INIT_CODE_HASH } from '../../../chains/poolInitCodeHashes.ts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { checkLaunchAllocations } from '../../launches/checkLaunchAllocations.ts'
import { reserveLaunchSalt } from '../../launches/reserveLaunchSalt.ts'
import { parseRawAmount } from '../../swaps/parseRawAmount.ts'
import { buildLaunchParams } from '../../launchpad/buildLaunchParams.ts'
import { launchFactoryAbi } from '../../launchpad/launchFactoryAbi.ts'
import { launchTokenAbi } from '../../launchpad/launchTokenAbi.ts'
import { startingTickForMarketCap } from '../../launchpad/startingTickForMarketCap.ts'
import { ceilings } from '../../limits/ceilings.ts'
import type { PolicyCharge } from '../../limits/LimitPolicy.ts'
import { perMinute, preparationCeilings } from '../../limits/preparationCeilings.ts'
import { readLiveBlock } from '../../live/readLiveBlock.ts'
import { withDeadline } from '../../live/withDeadline.ts'
import { GatewayProblem } from '../../problems/GatewayProblem.ts'
import { DEFAULT_PLAN_TTL_MS, preparePlan } from '../../transactionPlans/preparePlan.ts'
import type { RevertMapping } from '../../transactionPlans/simulateTransaction.ts'
import { requireChain } from '../requireChain.ts'
import { gatewayResponses, KEYED_PROBLEMS } from '../routeSchemaParts.ts'
import { LIVE_PROBLEMS } from '../wallets/walletFeeClaimsRoute.ts'

type Body = {
  chain_id: number
  creator: string
  name: string
  symbol: string
  metadata_uri?: string
  admin?: string
  paired_asset?: string
  starting_market_cap_raw?: string
  rewards?: { recipient: string; bps: number }[]
  vesting?: { beneficiary: string; bps: number; lockup_seconds: number; vesting_seconds: number }
  dev_buy?: { amount_raw: string; recipient?: string; min_amount_out_raw?: string }
  referrer?: string
  salt?: string
}

/** 10 WETH: a launch's default fully diluted market cap, in the paired asset's base units. */
const DEFAULT_MARKET_CAP_RAW = 10n ** 19n
/** `LaunchFactory`'s starting-tick bounds. */
const MIN_STARTING_TICK = -600_000
const MAX_STARTING_TICK = 300_000

const LAUNCH_REVERTS: RevertMapping = {
  PoolAlreadyInitialized: {
    code: 'salt_unavailable',
    detail:
      "Someone initialised this salt's pool first: the launch would revert. Prepare again without this salt for a new salt and token address.",
  },
  PairedTokenNotAllowed: { code: 'unsupported_operation', detail: 'The factory does not allow this paired asset; read /config.' },
  InvalidRewardRecipients: { code: 'invalid_allocation', detail: 'The factory refuses these reward recipients.' },
  InvalidVesting: { code: 'invalid_vesting', detail: 'The factory refuses this vesting schedule.' },
  DevBuyNotSupported: { code: 'unsupported_operation', detail: 'A dev buy needs a launch paired with the wrapped native token.' },
  DevBuyBelowMinimum: { code: 'invalid_amount', detail: 'The dev buy would get less than min_amount_out_raw.' },
  InvalidName: { code: 'invalid_parameter', detail: 'The token refuses this name.' },
  InvalidSymbol: { code: 'invalid_parameter', detail: 'The token refuses this symbol.' },
}

/** Launch ceilings (spec §8): per key, per creator within a key, the shared launch workflow per source and service-wide; minutes and UTC days. */
function launchCeilings(request: FastifyRequest): PolicyCharge[] {
  const key = request.gw.key!.prefix
  const creator = (request.body as Body).creator.toLowerCase()
  const c = ceilings.launches
  const day = (name: string, k: string, limit: number): PolicyCharge => ({
    policy: { kind: 'calendar', name, key: k, limit, period: 'day' },
    group: 'ceiling',
    cost: 1,
  })
  return [
    perMinute({ name: 'launches_per_key', key: `launch:key:${key}`, limit: c.perKeyPerMinute }),
    day('launches_per_key_day', `launch:key:day:${key}`, c.perKeyPerDay),
    perMinute({ name: 'launches_per_creator', key: `launch:creator:${key}:${creator}`, limit: c.perCreatorPerMinute }),
    day('launches_per_creator_day', `launch:creator:day:${key}:${creator}`, c.perCreatorPerDay),
    perMinute({ name: 'launch_workflow_per_source', key: `launch:source:${request.gw.source}`, limit: c.workflowPerSourcePerMinute }),
    day('launch_workflow_per_source_day', `launch:source:day:${request.gw.source}`, c.workflowPerSourcePerDay),
    perMinute({ name: 'launch_workflow_service', key: 'launch:service', limit: c.workflowServiceWidePerMinute }),
    day('launch_workflow_service_day', 'launch:service:day', c.workflowServiceWidePerDay),
    ...preparationCeilings(request),
  ]
}

/**
 * `POST /launches/prepare` (20 units, scope `launch:write`, `Idempotency-Key` required): a token
 * launch as one unsigned `LaunchFactory.launch` transaction from the creator. The allocations are
 * checked first (`invalid_allocation`, `invalid_vesting`, `invalid_referrer`), then the chain
 * (`unsupported_chain`) and the paired asset (`unsupported_operation`); a salt is reserved for
 * the creator (a fresh random one, or the caller's own) with the token address it deploys to;
 * a salt already used (its address has code) or reserved for another creator is
 * `salt_unavailable`, and so is one whose pool someone initialised first (the simulation meets
 * `PoolAlreadyInitialized`): a new prepare without that salt gets a fresh one.
 *
 * @example
 * registerLaunchPrepareRoute(fastify, deps)
 * // POST /launches/prepare now answers the simulated launch plan, summary.predicted_token where the token will be
 */
export function registerLaunchPrepareRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.post(
    '/launches/prepare',
    {
      schema: {
        summary: 'Prepare a token launch as an unsigned transaction',
        operationId: 'prepareLaunch',
        body: Type.Ref('LaunchPrepareRequest'),
        querystring: Type.Object({}, { additionalProperties: false }),
        headers: Type.Object({
          'idempotency-key': Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 255,
              description: 'required: a fresh random UUID per launch; reuse it only to retry the same request',
            }),
          ),
        }),
        response: gatewayResponses({
          ok: Type.Ref('TransactionPlanResponse'),
          description: 'The simulated launch plan: summary.predicted_token is where the token will be',
          problems: [...KEYED_PROBLEMS, 409, 422, ...LIVE_PROBLEMS],
        }),
      },
      config: {
        gateway: {
          operation: 'launches.prepare',
          scope: 'launch:write',
          weight: { base: 20 },
          idempotency: 'required',
          validate: (request) => {
            const body = request.body as Body
            const creator = getAddress(body.creator)
            const chain = requireChain({ deps, chainId: body.chain_id })
            checkLaunchAllocations({
              creator,
              rewards: (body.rewards ?? [{ recipient: creator, bps: 10_000 }]).map((r) => ({
                recipient: getAddress(r.recipient),
                bps: r.bps,
              })),
              vesting: body.vesting ? { ...body.vesting, beneficiary: getAddress(body.vesting.beneficiary) } : undefined,
              referrer: body.referrer ? getAddress(body.referrer) : undefined,
              reserved: [
                chain.launchpad.factory,
                chain.launchpad.feeLocker,
                chain.launchpad.vestingVault,
                '0x000000000000000000000000000000000000dEaD',
              ],
            })
          },
          ceilings: launchCeilings,
        },
      },
    },
    async (request) => {
      const body = request.body as Body
      const chain = requireChain({ deps, chainId: body.chain_id })
      const creator = getAddress(body.creator)
      const paired = getAddress(body.paired_asset ?? chain.wrappedNative)
      const marketCap = BigInt(body.starting_market_cap_raw ?? DEFAULT_MARKET_CAP_RAW)
      const startingTick = startingTickForMarketCap({ marketCapRaw: marketCap })
      if (startingTick < MIN_STARTING_TICK || startingTick > MAX_STARTING_TICK) {
        throw new GatewayProblem('invalid_parameter', {
          detail: 'starting_market_cap_raw is outside what the factory can price.',
          invalidParameters: [{ name: 'starting_market_cap_raw', in: 'body', reason: "outside the factory's starting price range" }],
        })
      }
      const devBuyValue = body.dev_buy ? parseRawAmount({ value: body.dev_buy.amount_raw, field: 'dev_buy.amount_raw' }) : 0n
      if (body.dev_buy?.min_amount_out_raw !== undefined && body.dev_buy.min_amount_out_raw !== '0')
        parseRawAmount({ value: body.dev_buy.min_amount_out_raw, field: 'dev_buy.min_amount_out_raw' })
      if (devBuyValue > 0n && paired !== getAddress(chain.wrappedNative))
        throw new GatewayProblem('unsupported_operation', {
          detail: 'A dev buy needs a launch paired with the wrapped native token.',
          chainId: chain.chainId,
        })
      const block = await readLiveBlock({ chain, timeoutMs: deps.liveReadTimeoutMs })
      const [allowed, balance] = await withDeadline({
        dependency: 'the chain',
        timeoutMs: deps.liveReadTimeoutMs,
        run: () =>
          Promise.all([
            chain.client.readContract({
              address: chain.launchpad.factory,
              abi: launchFactoryAbi,
              functionName: 'isPairedToken',
              args: [paired],
              blockNumber: block,
            }),
            devBuyValue > 0n ? chain.client.getBalance({ address: creator, blockNumber: block }) : Promise.resolve(0n),
          ]),
      })
      // A configured subset of paired assets (GATEWAY_CHAIN_CONFIG's pairedAssets) narrows the factory's.
      if (!allowed || (chain.pairedAssets && !chain.pairedAssets.includes(paired)))
        throw new GatewayProblem('unsupported_operation', {
          detail: `The factory does not pair launches with ${paired}; read /config for the paired assets.`,
          chainId: chain.chainId,
        })
      if (balance < devBuyValue) {
        throw new GatewayProblem('insufficient_balance', {
          detail: `The creator holds ${balance} of the native asset; the dev buy needs ${devBuyValue}.`,
          asset: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
          actualRaw: balance.toString(),
          requiredRaw: devBuyValue.toString(),
          chainId: chain.chainId,
        })
      }
      const salt = (body.salt?.toLowerCase() ?? `0x${randomBytes(32).toString('hex')}`) as Hex
      const params = buildLaunchParams({
        name: body.name,
        symbol: body.symbol,
        extraMetadata: body.metadata_uri ?? '',
        creator,
        admin: body.admin ? getAddress(body.admin) : creator,
        salt,
        pairedToken: paired,
        startingTick,
        rewardRecipients: (body.rewards ?? [{ recipient: creator, bps: 10_000 }]).map((r) => ({
          recipient: getAddress(r.recipient),
          bps: r.bps,
        })),
        vesting: body.vesting
          ? {
              beneficiary: getAddress(body.vesting.beneficiary),
              bps: body.vesting.bps,
              lockupSeconds: body.vesting.lockup_seconds,
              vestingSeconds: body.vesting.vesting_seconds,
            }
          : undefined,
        devBuy:
          devBuyValue > 0n
            ? { recipient: getAddress(body.dev_buy!.recipient ?? creator), minAmountOut: BigInt(body.dev_buy!.min_amount_out_raw ?? '0') }
            : undefined,
      })
      const [predicted, code] = await withDeadline({
        dependency: 'the chain',
        timeoutMs: deps.liveReadTimeoutMs,
        run: async () => {
          const address = await chain.client.readContract({
            address: chain.launchpad.factory,
            abi: launchFactoryAbi,
            functionName: 'predictTokenAddress',
            args: [creator, params],
            blockNumber: block,
          })
          return [address, await chain.client.getCode({ address, blockNumber: block })] as const
        },
      })
      if (code && code !== '0x')
        throw new GatewayProblem('salt_unavailable', {
          detail: 'This salt was already used: its token exists. Prepare again without it for a fresh salt.',
          chainId: chain.chainId,
          tokenAddress: predicted,
        })
      const now = deps.now()
      const expiresAt = now + DEFAULT_PLAN_TTL_MS
      if (
        !(await reserveLaunchSalt({
          db: deps.db,
          chainId: chain.chainId,
          salt,
          creator: creator.toLowerCase(),
          keyPrefix: request.gw.key!.prefix,
          predictedToken: predicted.toLowerCase(),
          now,
          reservedUntil: expiresAt,
        }))
      ) {
        throw new GatewayProblem('salt_unavailable', {
          detail: 'This salt is reserved for another launch. Prepare again without it for a fresh salt.',
          chainId: chain.chainId,
        })
      }
      const tokenIsToken0 = predicted.toLowerCase() < paired.toLowerCase()
      const [token0, token1] = tokenIsToken0 ? [predicted, paired] : [paired, predicted]
      const plan = await preparePlan({
        deps,
        request,
        chain,
        kind: 'launch',
        from: creator,
        blockNumber: block,
        expiresAt,
        tx: {
          to: chain.launchpad.factory,
          data: encodeFunctionData({ abi: launchFactoryAbi, functionName: 'launch', args: [params] }),
          value: devBuyValue,
        },
        summary: {
          predicted_token: getAddress(predicted),
          predicted_pool: uniswapV3PoolAddress({ factory: chain.launchpad.uniswapV3Factory, token0, token1, fee: 10_000 }),
          salt,
          name: body.name,
          symbol: body.symbol,
          metadata_uri: params.extraMetadata,
          admin: params.admin,
          paired_asset: paired,
          starting_tick: startingTick,
          starting_market_cap_raw: marketCap.toString(),
          rewards: params.rewardRecipients,
          vesting: body.vesting ? { ...params.vesting } : null,
          dev_buy:
            devBuyValue > 0n
              ? {
                  amount_raw: devBuyValue.toString(),
                  recipient: params.devBuy.recipient,
                  min_amount_out_raw: params.devBuy.minAmountOut.toString(),
                }
              : null,
          referrer: body.referrer ? getAddress(body.referrer) : null,
        },
        abis: [launchFactoryAbi, launchTokenAbi],
        reverts: LAUNCH_REVERTS,
      })
      return { data: plan, meta: { generated_at: new Date(deps.now()).toISOString(), as_of_block: plan.as_of_block } }
    },
  )
}

/** Uniswap V3's pool address for a pair and fee (CREATE2 from the factory with the pool init code hash). */
function uniswapV3PoolAddress({
  factory,
  token0,
  token1,
  fee,
}: {
  factory: Address
  token0: Address
  token1: Address
  fee: number
}): Address {
  const salt = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'uint24' }], [token0, token1, fee]))
  return getContractAddress({ opcode: 'CREATE2', from: factory, salt, bytecodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH })
}
