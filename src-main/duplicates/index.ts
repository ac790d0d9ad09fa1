/** Near-duplicates: the keys two copies of a post share, and near-identical meaning from the sentence vectors. */
export { duplicateKeys, keysOfStored, quotedIdOf, normalizeLink, normalizeText, textKey, MIN_TEXT_WORDS, TEXT_KEY_WORDS, type KeyKind, type KeyedPost, type PostKey } from './keys.ts'
export { isLatinText, MEANING_CANDIDATES, nearIdenticalPairs, NEAR_IDENTICAL_COSINE } from './meaning.ts'
