import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { zSearchResponse } from '../../src-shared/schemas/search.ts'
import { clientsByRole, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'

/**
 * The language-phrase tables (ICU's language names in seven languages, two large patterns) cost the
 * first search after a start 90-180 ms inside its request. They are built when search is created:
 * no language name is looked up while a request is answered.
 */
describe('language phrases are prepared before the first search', () => {
  const Real = Intl.DisplayNames
  let made = 0
  let t: TestServer
  let member: Client

  beforeAll(async () => {
    t = await startTestServer()
    member = (await clientsByRole(t)).member
    const counting = class extends Real {
      constructor(...args: ConstructorParameters<typeof Real>) {
        super(...args)
        made++
      }
    }
    Object.defineProperty(Intl, 'DisplayNames', { value: counting, configurable: true, writable: true })
  })
  afterAll(async () => {
    Object.defineProperty(Intl, 'DisplayNames', { value: Real, configurable: true, writable: true })
    await t?.close()
  })

  it('answers the first searches without building them', async () => {
    for (const q of ['posts in German', 'en español', 'rust tutorials']) {
      const res = await member.get(`/api/search/ai?q=${encodeURIComponent(q)}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      zSearchResponse.parse(res.body)
    }
    const de = await member.get(`/api/search/ai?q=${encodeURIComponent('German posts')}`)
    expect(zSearchResponse.parse(de.body).understood).toMatchObject({ lang: 'de' })
    expect(made).toBe(0)
  })
})
