import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import { registerHealthRoute } from './health.ts'
import { registerGatewayOpenApiRoute } from './openapi.ts'

/** Every route of the gateway, in registration order. */
export const gatewayRoutes: ((fastify: FastifyInstance, deps: GatewayDependencies) => void | Promise<void>)[] = [
  registerHealthRoute,
  registerGatewayOpenApiRoute,
]
