/** How the MCP tools reach Sheaf: the HTTP API, with the caller's token, in-process or over the network. */
export type FetchLike = (req: Request) => Promise<Response>

/** A refusal or failure the API answered, with its `{error, code}`. */
export class ApiCallError extends Error {
  readonly status: number
  readonly code: string
  constructor(status: number, message: string, code: string) {
    super(message)
    this.status = status
    this.code = code
  }
}

export type Query = Record<string, string | number | boolean | undefined>

const queryString = (q: Query = {}): string => {
  const p = new URLSearchParams()
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') p.set(k, String(v))
  const s = p.toString()
  return s ? `?${s}` : ''
}

async function readAnswer(res: Response): Promise<unknown> {
  const text = await res.text()
  let body: unknown = null
  try {
    body = text ? JSON.parse(text) : null
  } catch {
    // not JSON: reported below by status
  }
  if (res.ok) return body
  const err = body as { error?: unknown; code?: unknown } | null
  throw new ApiCallError(
    res.status,
    typeof err?.error === 'string' ? err.error : `Sheaf answered HTTP ${res.status}.`,
    typeof err?.code === 'string' ? err.code : 'INTERNAL_ERROR',
  )
}

/** `baseUrl` is where Sheaf answers (http://127.0.0.1:5717); the token goes in the Authorization header only. */
export function createApiClient(fetchFn: FetchLike, baseUrl: string, secret: string) {
  const origin = baseUrl.replace(/\/+$/, '')
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${secret}`, accept: 'application/json' }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const req = new Request(origin + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    return (await readAnswer(await fetchFn(req))) as T
  }
  return {
    get: <T>(path: string, query?: Query) => call<T>('GET', path + queryString(query)),
    put: <T>(path: string, body: unknown) => call<T>('PUT', path, body),
  }
}
export type ApiClient = ReturnType<typeof createApiClient>
