import assert from 'node:assert/strict'
import { test } from 'vitest'
import { serializersByContent } from './serializersByContent.ts'

const route = (schema: unknown) => ({ method: 'GET', url: '/x', httpStatus: '200', schema })
const point = () => ({ type: 'object', properties: { x: { type: 'integer' }, at: { $ref: 'Time#' } } })
const time = (format?: string) => ({ $id: 'Time', type: 'string', ...(format ? { format } : {}) })

test('serializersByContent: one build per distinct schema, shared across routes and plugin contexts', () => {
  const build = serializersByContent()
  const compile = build({ Time: time() }, {})
  const first = compile(route(point()))
  // Another object with the same content (a route of another plugin, say): the same serializer.
  assert.equal(compile(route(point())), first)
  assert.equal(build({ Time: time() }, {})(route(point())), first)
  // It is fast-json-stringify's: properties the schema does not name are not written.
  assert.equal(first({ x: 1, at: 'noon', secret: 'k' }), '{"x":1,"at":"noon"}')
  // Another schema, other shared schemas or other options: another build.
  const other = compile(route({ type: 'object', properties: { y: { type: 'integer' } } }))
  assert.notEqual(other, first)
  assert.equal(other({ x: 1, y: 2 }), '{"y":2}')
  assert.notEqual(build({ Time: time('date-time') }, {})(route(point())), first)
  assert.notEqual(build({ Time: time() }, { rounding: 'floor' })(route(point())), first)
})

test('serializersByContent: two apps share nothing', () => {
  const schemas = { Time: time() }
  assert.notEqual(serializersByContent()(schemas, {})(route(point())), serializersByContent()(schemas, {})(route(point())))
})
