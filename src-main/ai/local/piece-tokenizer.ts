/**
 * The sentence model's tokenizer (`@energetic-ai/embeddings`' Tokenizer: the best-scoring split into
 * the vocabulary's pieces, Viterbi over a trie) without its cost: the package copies the rest of the
 * text at every position to look up the pieces starting there, so a post cut at 400 characters took
 * ~1 ms to tokenize; walking the trie from each position takes 0.07 ms. Same vocabulary and trie (the
 * package's own), same pieces, scores, sums in the same order and ties broken the same way, so the ids
 * are the package's for every text (tests/ai/local/piece-tokenizer.test.ts compares them).
 */

type TrieNode = { children: Record<string, TrieNode | undefined>; end: boolean; word: [readonly string[], number, number] }

/** What the package's Tokenizer holds (its fields, read here; its `encode` is the reference). */
export interface PackageTokenizer {
  trie: { root: TrieNode }
  vocabulary: ReadonlyArray<readonly [string, number]>
  encode(text: string): number[]
}

const SEPARATOR = '\u2581'

/** The package's processInput: NFKC, and a separator before the text and for every space. */
const pieceInput = (text: string): string => {
  const s = text.normalize('NFKC')
  return s.length > 0 ? SEPARATOR + s.replace(/ /g, SEPARATOR) : s
}

export function encodePieces(t: PackageTokenizer, text: string): number[] {
  const symbols = [...pieceInput(text)]
  const n = symbols.length
  // The pieces ending at each position, as start, score and id, starts ascending (the package's order).
  const ending: number[][] = Array.from({ length: n + 1 }, () => [])
  for (let start = 0; start < n; start++) {
    let found = false
    let node = t.trie.root.children[symbols[start]]
    for (let end = start + 1; node; end++) {
      if (node.end) {
        ending[end].push(start, node.word[1], node.word[2])
        found = true
      }
      node = end < n ? node.children[symbols[end]] : undefined
    }
    // A symbol no piece starts with is a piece of its own: score 0, the unknown id.
    if (!found) ending[start + 1].push(start, 0, 0)
  }
  const best = new Array<number>(n + 1).fill(0)
  const words = new Array<number>(n + 1).fill(0)
  for (let end = 0; end <= n; end++) {
    const list = ending[end]
    for (let j = 0; j < list.length; j += 3) {
      const score = list[j + 1] + best[list[j]]
      if (best[end] === 0 || score >= best[end]) {
        best[end] = score
        words[end] = list[j + 2]
      }
    }
  }
  // Back from the end as the package walks it (by each piece's length as a string), runs of unknowns as one.
  const ids: number[] = []
  for (let at = n; at > 0; at -= t.vocabulary[words[at]][0].length) ids.push(words[at])
  const merged: number[] = []
  for (let i = 0; i < ids.length; i++) if (!(i > 0 && ids[i - 1] === 0 && ids[i] === 0)) merged.push(ids[i])
  return merged.reverse()
}
