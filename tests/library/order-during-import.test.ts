import { afterAll, describe, expect, it } from 'vitest'
import { beginWrite } from '../../src-main/store/queries/bookmark-writes.ts'
import { orderedBookmarkIds } from '../../src-main/store/queries/bookmarks.ts'
import { searchDb } from '../search/search-db.ts'

describe("the posts' order a list with q is cut from, while an import writes", () => {
  const lib = searchDb()
  afterAll(() => lib.close())

  it('is read at most once a second while the import transaction is open, and afresh once it commits', () => {
    const first = lib.add('Pruning roses in early spring')
    expect([...orderedBookmarkIds(lib.db, 'newest')]).toEqual([first])
    const write = beginWrite(lib.db)
    const second = lib.add('Sourdough with a young starter')
    // Each of the import's slices moves the library stamp; every list with q read the whole order again.
    expect([...orderedBookmarkIds(lib.db, 'newest')]).toEqual([first])
    write.commit()
    expect([...orderedBookmarkIds(lib.db, 'newest')]).toEqual([second, first])
  })

  it('a post added outside an import is in the order at once, in every sort', () => {
    const third = lib.add('Kubernetes upgrades without downtime')
    expect(orderedBookmarkIds(lib.db, 'newest')[0]).toBe(third)
    expect(orderedBookmarkIds(lib.db, 'oldest').at(-1)).toBe(third)
  })
})
