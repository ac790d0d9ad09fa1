import { describe, expect, it } from 'vitest'
import { streamJson, type JsonEvent } from '../../src-main/importers/json-stream.ts'

async function* chunks(text: string, size: number) {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size)
}
const events = async (text: string, size = 7) => {
  const out: JsonEvent[] = []
  for await (const e of streamJson(chunks(text, size), (p) => p.length === 2 && p[0] === 'items')) out.push(e)
  return out
}

describe('streamJson', () => {
  it('keeps the digits of ids too long for a JS number, in records and in the envelope around them', async () => {
    const text = '{"cursor": 1850000000000000123, "count": 2, "items": [{"id": 1850000000000000999, "n": 1.5}, {"id": 7}]}'
    const out = await events(text)
    const records = out.filter((e) => e.kind === 'record').map((e) => (e as { value: unknown }).value)
    expect(records).toEqual([{ id: '1850000000000000999', n: 1.5 }, { id: 7 }])
    const rest = out.find((e) => e.kind === 'rest') as { value: Record<string, unknown> }
    expect(rest.value).toEqual({ cursor: '1850000000000000123', count: 2, items: [null, null] })
  })
})
