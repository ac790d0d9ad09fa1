import { expect } from 'vitest'
import { Client, type ApiResponse } from './client.ts'

/** A script calling the API with a personal API token (no cookie). */
export class BearerClient extends Client {
  readonly secret: string
  constructor(base: string, secret: string) {
    super(base)
    this.secret = secret
  }

  override request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    return super.request<T>(method, path, body, { authorization: `Bearer ${this.secret}`, ...headers })
  }
}

/** Creates a token from a signed-in session and returns its id, secret and a client using it. */
export async function createToken(owner: Client, name: string, readOnly = false) {
  const res = await owner.post('/api/tokens', { name, readOnly })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  const { token, secret } = res.body as { token: { id: number }; secret: string }
  return { id: token.id, secret, client: new BearerClient(owner.base, secret) }
}
