import assert from 'node:assert/strict'
import { test } from 'vitest'
import { gatewayListenAddress, listenAddress } from './listenAddress.ts'

// Pure (no server, no chain): the addresses `server.ts` binds before the configuration loads.

test('the API: HOST and PORT, defaults, malformed ones left to the configuration', () => {
  assert.deepEqual(listenAddress({}), { host: '127.0.0.1', port: 8080 })
  assert.deepEqual(listenAddress({ HOST: 'localhost', PORT: '0' }), { host: 'localhost', port: 0 })
  assert.equal(listenAddress({ PORT: 'eighty' }), undefined)
  assert.equal(listenAddress({ PORT: '65536' }), undefined)
})

test('the gateway: bound only when npm start will start it, on GATEWAY_PORT (0 with PORT=0)', () => {
  assert.deepEqual(gatewayListenAddress({}), { host: '127.0.0.1', port: 8081 })
  assert.deepEqual(gatewayListenAddress({ PORT: '0' }), { host: '127.0.0.1', port: 0 })
  assert.deepEqual(gatewayListenAddress({ PORT: '0', GATEWAY_PORT: '9000', HOST: '0.0.0.0' }), { host: '0.0.0.0', port: 9000 })
  assert.equal(gatewayListenAddress({ RPC_URL: 'https://node.example' }), undefined)
  assert.deepEqual(gatewayListenAddress({ RPC_URL: 'https://node.example', GATEWAY_CHAIN_CONFIG: 'chains.json' }), {
    host: '127.0.0.1',
    port: 8081,
  })
  assert.deepEqual(gatewayListenAddress({ RPC_URL: '', GATEWAY_PORT: '' }), { host: '127.0.0.1', port: 8081 })
  assert.equal(gatewayListenAddress({ GATEWAY_PORT: 'x' }), undefined)
})
