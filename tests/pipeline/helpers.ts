import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import type { PipelineEvent } from '../../src-shared/schemas/pipeline.ts'
import type { Client } from '../support/client.ts'

/** Uploads an export file through POST /api/import, as the UI does. */
export async function importFile(admin: Client, file: string): Promise<{ imported: number }> {
  const form = new FormData()
  form.append('file', new Blob([readFileSync(file)], { type: 'application/json' }), basename(file))
  const res = await admin.request('POST', '/api/import', form)
  if (res.status !== 200) throw new Error(`import failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}

/** Reads GET /api/categorize as an event stream until it ends; returns the data messages and comments. */
export async function readStream(client: Client, { onEvent }: { onEvent?: (ev: PipelineEvent) => void } = {}): Promise<{ events: PipelineEvent[]; comments: string[]; contentType: string | null }> {
  const res = await fetch(client.base + '/api/categorize', { headers: { accept: 'text/event-stream', cookie: client.cookie ?? '' } })
  if (res.status !== 200) throw new Error(`stream: ${res.status} ${await res.text()}`)
  const events: PipelineEvent[] = []
  const comments: string[] = []
  const decoder = new TextDecoder()
  let buf = ''
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true })
    let i: number
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i)
      buf = buf.slice(i + 2)
      for (const line of block.split('\n')) {
        if (line.startsWith('data: ')) {
          const ev = JSON.parse(line.slice(6)) as PipelineEvent
          events.push(ev)
          onEvent?.(ev)
        } else if (line.startsWith(':')) comments.push(line)
      }
    }
  }
  return { events, comments, contentType: res.headers.get('content-type') }
}

export async function waitFor<T>(fn: () => T | Promise<T>, { timeoutMs = 60_000, intervalMs = 50 } = {}): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const v = await fn()
    if (v) return v
    if (Date.now() > end) throw new Error('waitFor: timed out')
    await new Promise((r) => setTimeout(r, intervalMs))
  }
}
