import type { FastifyInstance } from 'fastify'

export type Mode = 'inject' | 'socket'
export type CallOptions = { method?: string; url: string; key?: string; body?: unknown; rawBody?: string; contentType?: string }
export type CallResult = { status: number; headers: Record<string, string>; json: any; text: string }

/** One request to `app`, through `inject` or through a real socket (the app must listen for 'socket'). */
export async function callApp(
  app: FastifyInstance,
  mode: Mode,
  { method = 'POST', url, key, body, rawBody, contentType }: CallOptions,
): Promise<CallResult> {
  const headers: Record<string, string> = {}
  if (key !== undefined) headers['x-api-key'] = key
  const payload = rawBody ?? (body === undefined ? undefined : JSON.stringify(body))
  if (payload !== undefined) headers['content-type'] = contentType ?? 'application/json'
  if (mode === 'inject') {
    const res = await app.inject({ method: method as 'POST', url, headers, payload })
    return { status: res.statusCode, headers: res.headers as Record<string, string>, json: safeJson(res.body), text: res.body }
  }
  const address = app.server.address()
  if (!address || typeof address !== 'object') throw new Error('the app is not listening')
  const res = await fetch(`http://127.0.0.1:${address.port}${url}`, { method, headers, body: payload })
  const text = await res.text()
  return { status: res.status, headers: Object.fromEntries(res.headers), json: safeJson(text), text }
}

function safeJson(text: string): any {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
