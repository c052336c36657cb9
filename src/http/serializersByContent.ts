import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'

type BuildSerializer = ReturnType<typeof SerializerSelector>
type Serializer = ReturnType<ReturnType<BuildSerializer>>

/**
 * Fastify's own response serializer compiler (fast-json-stringify), each distinct schema compiled
 * once per app. Fastify compiles a serializer for every route and status code, in every plugin
 * context, and fast-json-stringify checks and adds every shared schema (`addSchema`) again for each:
 * the gateway's 404 response schemas are 18 distinct ones, and compiling them one by one held its
 * process's event loop for about 4 s of CPU at start, the swap service beside it answering nothing
 * and its market going stale meanwhile. A serializer is a function of its schema, the shared
 * schemas and the serializer options only, so those three, as JSON, are the key (TypeBox's symbol
 * keys are not JSON, and fast-json-stringify reads none of them).
 *
 * @example
 * Fastify({ schemaController: { compilersFactory: { buildSerializer: serializersByContent() } } })
 * // → one fast-json-stringify build per distinct response schema, shared by every route that has it
 */
export function serializersByContent(): BuildSerializer {
  const build = SerializerSelector()
  const byContext = new Map<string, Map<string, Serializer>>()
  return (externalSchemas, serializerOpts) => {
    const compile = build(externalSchemas, serializerOpts)
    const contextKey = JSON.stringify([externalSchemas ?? null, serializerOpts ?? null])
    const serializers = byContext.get(contextKey) ?? new Map<string, Serializer>()
    byContext.set(contextKey, serializers)
    return (route) => {
      const key = JSON.stringify(route.schema)
      let serializer = serializers.get(key)
      if (serializer === undefined) serializers.set(key, (serializer = compile(route)))
      return serializer
    }
  }
}
