import { describe, expect, it } from 'vitest'
import { LOCAL_EMBEDDING_MODEL } from '../../src-main/ai/index.ts'
import { loadRelatedInput } from '../../src-main/pipeline/stages/categorization.ts'
import { createEncoderEmbedder } from '../../src-main/search/embedder.ts'
import { createSearch } from '../../src-main/search/index.ts'
import { inputHash } from '../../src-main/search/semantic.ts'
import { writeEmbedding } from '../../src-main/store/index.ts'
import { buildClusteredIndex, clusteredIndexBytes } from '../../src-main/vectors/index.ts'
import { searchDb } from '../search/search-db.ts'

const TEXTS = [
  'Tuning SQLite indexes for faster reads', 'Why my Postgres query ignored the index', 'B-trees explained with pictures',
  'Espresso grind size and brew pressure', 'Pour-over coffee: water temperature matters', 'Roasting green coffee beans at home',
  'Kerning and line height in typography', 'Choosing a typeface for long reading', 'Variable fonts on the web',
  'Training plan for a first marathon', 'Interval runs to get faster at 10k', 'Recovering after a long run',
  'Our toddler finally slept through the night', 'Bedtime routines for small children', 'Teething and a week of no sleep',
  'Rust borrow checker errors, explained', 'Writing a parser in Rust with nom', 'Async Rust and the tokio runtime',
]

describe('stage 4’s related-post input', () => {
  it('borrows search’s rows of the sentence vectors (no copy), answering as its own copy does; reads its own without search', async () => {
    const lib = searchDb()
    const encoder = createEncoderEmbedder()
    const search = createSearch({ db: lib.db, encoder })
    try {
      const vectors = await encoder.embed(TEXTS)
      const ids = TEXTS.map((t, i) => {
        const id = lib.add(t)
        writeEmbedding(lib.db, { bookmarkId: id, model: LOCAL_EMBEDDING_MODEL, vector: vectors[i], contentHash: inputHash(t) })
        return id
      })
      // Search has not read a vector yet: stage 4 waits while it does, then borrows its rows.
      const borrowed = await loadRelatedInput({ db: lib.db, vectors: (model) => search.vectorsOf(model) })
      expect(borrowed.input.lent).toBeDefined()
      expect(borrowed.input.rows).toBeUndefined()
      expect(Array.from(borrowed.input.ids)).toEqual(ids)
      const alone = await loadRelatedInput({ db: lib.db })
      expect(alone.loan).toBeNull()
      expect(alone.input.rows).toBeDefined()

      const lent = buildClusteredIndex(borrowed.input)
      const own = buildClusteredIndex(alone.input)
      expect(clusteredIndexBytes(own.shared) - clusteredIndexBytes(lent.shared)).toBeGreaterThanOrEqual(TEXTS.length * 512)
      for (const id of ids) expect(lent.query(id, 5)).toEqual(own.query(id, 5))
      // The espresso post's nearest is about coffee, read through search's rows.
      expect(lent.query(ids[3], 1)[0].id).toBe(ids[4])
      borrowed.loan!.giveBack()
    } finally {
      await search.close()
      lib.close()
    }
  }, 60_000)
})
