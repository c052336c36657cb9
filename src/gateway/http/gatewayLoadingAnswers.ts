import { newRequestId } from './newRequestId.ts'
import type { LoadingAnswers } from '../../http/listenWhileLoading.ts'
import type { IndexerStatus } from '../indexer/createIndexer.ts'
import { GatewayProblem } from '../problems/GatewayProblem.ts'
import { problemBody } from '../problems/problemBody.ts'

// Light on purpose (node's crypto and the problem codes' table): `server.ts` imports this before
// the service loads, to bind the gateway's port from the first second as it binds the swap
// service's.

/** Where the gateway is in its start while its port answers for it. */
export type GatewayLoadingProgress = {
  /**
   * `loading`: the service's modules; `waiting_for_swap_service`: the swap service (and, on the
   * embedded chain, its cold start) comes first; `indexing`: the gateway's indexers catch up to
   * their chains' heads (`chains` says how far); `starting`: the database, keys and routes.
   */
  phase: 'loading' | 'waiting_for_swap_service' | 'indexing' | 'starting'
  /** The indexers' positions once they exist. */
  indexers?: () => IndexerStatus[]
}

/**
 * The gateway's answers while it starts: `GET /health` 200 (liveness, as the spec has it: public,
 * always answered) with `status: 'starting'`, `ready: false` and the progress (the phase, each
 * chain's indexed block of its head); everything else 503 `temporarily_unavailable` as
 * `application/problem+json` with `Retry-After`. The gateway has no `/ready` (its readiness is
 * `/health`'s `ready`, before and after it is loaded: docs/gateway/README.md).
 *
 * @example
 * const progress: GatewayLoadingProgress = { phase: 'loading' }
 * await listenWhileLoading({ host, port: 8081, answers: gatewayLoadingAnswers({ progress, problemsBaseUrl: () => `${url}/problems` }) })
 * // GET /health → 200 { status: 'starting', ready: false, phase: 'loading', chains: [], … }
 */
export function gatewayLoadingAnswers({
  progress,
  problemsBaseUrl,
  now = Date.now,
}: {
  progress: GatewayLoadingProgress
  /** The problem reference page (the `type`s link into it): `GATEWAY_PUBLIC_URL`'s or the bound address's. */
  problemsBaseUrl: () => string
  now?: () => number
}): LoadingAnswers {
  const chains = () =>
    (progress.indexers?.() ?? []).map((s) => ({
      chain_id: s.chainId,
      indexer: {
        state: 'syncing',
        block_number: s.blockNumber ?? null,
        head_block: s.headBlock ?? null,
        lag_blocks: s.headBlock !== undefined && s.blockNumber !== undefined ? Math.max(0, s.headBlock - s.blockNumber) : null,
      },
    }))
  const reason = () =>
    progress.phase === 'indexing'
      ? 'starting: the indexers are catching up to their chains’ heads (chains[].indexer says how far)'
      : progress.phase === 'waiting_for_swap_service'
        ? 'starting: the swap service starts first (its cold start on the embedded chain)'
        : 'starting: the gateway is loading'
  return {
    health: () => ({
      status: 'starting',
      ready: false,
      not_ready_because: [reason()],
      phase: progress.phase,
      chains: chains(),
      meta: { generated_at: new Date(now()).toISOString() },
    }),
    refused: {
      contentType: 'application/problem+json; charset=utf-8',
      body: () =>
        problemBody({
          problem: new GatewayProblem('temporarily_unavailable', { detail: `${reason()}; retry shortly (GET /health says how far).` }),
          requestId: newRequestId(now()),
          problemsBaseUrl: problemsBaseUrl(),
          generatedAt: new Date(now()).toISOString(),
        }),
    },
  }
}
