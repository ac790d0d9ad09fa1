import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { signedIn } from '../support/client.ts'
import { startTestServer } from '../support/server.ts'
import { sheafExport } from '../search/sheaf-export.ts'
import { importFile, readStream } from '../pipeline/helpers.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

const POSTS = Array.from({ length: 12 }, (_, i) => ({
  postId: String(7000 + i), text: `Post ${i} about ${['cooking pasta', 'the football derby', 'interest rates', 'a new phone'][i % 4]} today`, handle: 'someone', at: Date.UTC(2025, 0, 1 + i),
}))

describe('a library analysed before the sentence encoder', () => {
  it('is analysed again in the background after a restart, by the local models, and answers meanwhile', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sheaf-upgrade-'))
    try {
      const t1 = await startTestServer({ dataDir })
      const admin1 = await signedIn(t1, 'admin')
      expect((await admin1.put('/api/settings', { fetchMedia: false, autoRunAfterImport: false })).status).toBe(200)
      const file = join(dataDir, 'posts.json')
      writeFileSync(file, sheafExport(POSTS))
      await importFile(admin1, file)
      await admin1.post('/api/categorize', {})
      await readStream(admin1)
      // What an older version left: knowledge, but no vector of the sentence model.
      sqliteOf(t1.sheaf.db).prepare("DELETE FROM embeddings WHERE model = 'use-lite-512'").run()
      expect((await admin1.put('/api/settings', { autoRunAfterImport: true })).status).toBe(200)
      await t1.close()

      const t2 = await startTestServer({ dataDir })
      try {
        const admin2 = await signedIn(t2, 'admin')
        // The library answers while the upgrade runs.
        const list = await admin2.get('/api/bookmarks?limit=5')
        expect(list.status).toBe(200)
        expect(list.body.total).toBe(POSTS.length)
        await t2.sheaf.pipeline.idle()
        const { job } = (await admin2.get('/api/categorize', { accept: 'application/json' })).body
        expect(job).toMatchObject({ status: 'completed', provider: 'local', totalBookmarks: POSTS.length })
        const n = sqliteOf(t2.sheaf.db).prepare("SELECT count(*) FROM embeddings WHERE model = 'use-lite-512'").pluck().get()
        expect(n).toBe(POSTS.length)
      } finally {
        await t2.close()
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})
