import { afterAll, describe, expect, it } from 'vitest'
import { createStats } from '../../src-main/library/stats.ts'
import { beginWrite } from '../../src-main/store/queries/bookmark-writes.ts'
import { searchDb } from '../search/search-db.ts'

describe('dashboard figures while an import writes', () => {
  const lib = searchDb()
  const stats = createStats({ db: lib.db })
  afterAll(() => lib.close())

  it('are counted at most once a second while the import transaction is open, and afresh once it commits', () => {
    lib.add('Pruning roses in early spring')
    expect(stats.get().totalBookmarks).toBe(1)
    const write = beginWrite(lib.db)
    lib.add('Sourdough with a young starter')
    // The import adds posts every few ms; each dashboard request counted the whole library again.
    expect(stats.get().totalBookmarks).toBe(1)
    write.commit()
    expect(stats.get().totalBookmarks).toBe(2)
  })

  it('an edit outside an import is counted at once', () => {
    lib.add('Kubernetes upgrades without downtime')
    expect(stats.get().totalBookmarks).toBe(3)
  })
})
