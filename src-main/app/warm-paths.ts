import { zBookmarkListQuery } from '../../src-shared/schemas/library.ts'
import type { Library } from '../library/index.ts'
import type { Search } from '../search/index.ts'

/** A few ordinary questions: each runs the word half, the meaning half (which finds neighbours in any library) and the hydration. */
const QUESTIONS = ['news about home', 'tips for beginners', 'recent posts']
const LIST_WORDS = ['news', 'home']
/** No member owns these: their own state is empty, and nothing is written for them. */
const NOBODY = 0
/** V8 keeps what it compiled: a few rounds (the library as opened, after the first imports) are enough. */
const ROUNDS = 3

/**
 * The warm-up task for the request paths (startWarming runs it once the library holds still after a
 * change). The first searches and lists after a start paid V8's compiling of their code inside
 * requests: stretches of 100, 64 and 43 ms under the first searches of bench/load.ts's busy phase
 * (profiled), in what was the worst second of most runs. The first few times only, and only while no provider's model would
 * be asked (`local()`): a search with a remote provider embeds the question there, and one with a
 * reranker asks it.
 */
export function warmRequestPaths({ search, library, local }: { search: Search; library: Library; local: () => boolean }): () => void {
  let rounds = 0
  return () => {
    if (rounds >= ROUNDS || !local()) return
    rounds++
    for (const q of LIST_WORDS) library.bookmarks.list(zBookmarkListQuery.parse({ q }), NOBODY)
    library.bookmarks.list(zBookmarkListQuery.parse({}), NOBODY)
    // One after another, each once the last has answered (a search awaits its query vector).
    void QUESTIONS.reduce((prev, q) => prev.then(() => search.search(q, { limit: 20 })).then(() => undefined, () => undefined), Promise.resolve())
  }
}
