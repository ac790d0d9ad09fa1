import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import type { ApiResponse, Client } from '../support/client.ts'

/** Uploads bytes or a file on disk as the multipart part `file`, as the UI does. */
export function upload(client: Client, file: string | { name: string; content: string | Uint8Array }): Promise<ApiResponse> {
  const { name, content } = typeof file === 'string' ? { name: basename(file), content: readFileSync(file) } : file
  const fd = new FormData()
  fd.append('file', new Blob([content as Uint8Array<ArrayBuffer> | string]), name)
  return client.request('POST', '/api/import', fd)
}

/** Every page of a list query. */
export async function allBookmarks(client: Client, query = ''): Promise<any[]> {
  const out: any[] = []
  for (let page = 1; ; page++) {
    const res = await client.get(`/api/bookmarks?limit=100&page=${page}${query ? `&${query}` : ''}`)
    if (res.status !== 200) throw new Error(`list failed: ${res.status} ${JSON.stringify(res.body)}`)
    out.push(...res.body.bookmarks)
    if (res.body.bookmarks.length < 100) return out
  }
}

/** Waits until the background language check has decided every post's language (a small import leaves it that work). */
export async function languagesSettled(client: Client): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const res = await client.get('/api/bookmarks/languages')
    if (res.status === 200 && res.body.pending === 0) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('the background language check did not finish')
}
