import type { Role } from '../../src-shared/roles.ts'
import type { TestServer } from './server.ts'

export interface ApiResponse<T = any> {
  status: number
  headers: Headers
  body: T
}

/** A cookie-keeping HTTP client, like a browser tab or a script. */
export class Client {
  cookie: string | null = null
  readonly base: string
  constructor(base: string) {
    this.base = base
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const h: Record<string, string> = { ...headers }
    if (this.cookie) h.cookie = this.cookie
    let payload: string | FormData | undefined
    if (body instanceof FormData || typeof body === 'string') payload = body as string | FormData
    else if (body !== undefined) {
      payload = JSON.stringify(body)
      h['content-type'] = 'application/json'
    }
    const res = await fetch(this.base + path, { method, headers: h, body: payload, redirect: 'manual' })
    const set = res.headers.get('set-cookie')
    if (set) {
      const pair = set.split(';')[0]
      this.cookie = pair.endsWith('=') ? null : pair
    }
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : null
    } catch {
      // not JSON
    }
    return { status: res.status, headers: res.headers, body: parsed as T }
  }

  get = <T = any>(path: string, headers?: Record<string, string>) => this.request<T>('GET', path, undefined, headers)
  post = <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => this.request<T>('POST', path, body ?? {}, headers)
  patch = <T = any>(path: string, body?: unknown) => this.request<T>('PATCH', path, body ?? {})
  put = <T = any>(path: string, body?: unknown) => this.request<T>('PUT', path, body ?? {})
  delete = <T = any>(path: string) => this.request<T>('DELETE', path)
}

export const PASSWORD = 'correct horse battery'

/** Creates a user with the given role directly and returns a signed-in client. */
export async function signedIn(t: TestServer, role: Role, email = `${role}-${Math.random().toString(36).slice(2, 8)}@example.com`): Promise<Client> {
  await t.sheaf.auth.users.create({ email, name: `${role} user`, role, password: PASSWORD })
  const c = new Client(t.url)
  const res = await c.post('/api/auth/login', { email, password: PASSWORD })
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`)
  return c
}

/** One signed-in client per role. */
export async function clientsByRole(t: TestServer): Promise<Record<Role, Client>> {
  return { admin: await signedIn(t, 'admin'), member: await signedIn(t, 'member'), viewer: await signedIn(t, 'viewer') }
}
