import { memoByDir, readResourceJson } from './resources.ts'
import { wordTokens, type RawToken } from './text.ts'

export type EntityBucket = 'tools' | 'products' | 'companies' | 'none'

export type GazetteerEntry = {
  name: string
  type: string
  bucket: EntityBucket
  topics: string[]
  /** Lowercased words one of which must appear in the post (ambiguous names such as Go). */
  ctx: string[] | null
}

export type GazetteerHit = { entry: GazetteerEntry; start: number; surface: string }

export type Gazetteer = {
  entries: GazetteerEntry[]
  /** topic -> default category slug */
  topicCategories: Record<string, string>
  match(text: string, tokens?: RawToken[]): GazetteerHit[]
  /** Every lowercased word of every name and alias (used to keep them in the word-vector table). */
  words(): string[]
}

type RawEntry = string | { n: string; a?: string[]; ua?: string[]; cs?: boolean; ctx?: string[]; t?: string[]; v?: boolean }
type RawGazetteer = {
  topicCategories: Record<string, string>
  groups: Array<{ type: string; bucket: EntityBucket; topics: string[]; entries: RawEntry[] }>
}

/** needsCtx: a single plain word ("Go", "Rails") that only counts with context; "Node.js" or "Claude Code" need none. */
type Pattern = { lower: string[]; exact: string[]; cs: boolean; needsCtx: boolean; entry: GazetteerEntry }

const VERSION_TAIL = /^(.*?[a-z])[-_ ]?v?\d[\w.]*$/

/**
 * A capitalised common word right after another capitalised word is part of someone's name
 * ("Taylor Swift"), unless that word opens the sentence ("Try React").
 */
const sentenceStart = (text: string, at: number): boolean => {
  let k = at - 1
  while (k >= 0 && (text[k] === ' ' || text[k] === '\t')) k--
  return k < 0 || /[.!?:\n•\-–—>*"“(]/.test(text[k])
}
const ambiguousPosition = (text: string, tokens: RawToken[], i: number): boolean => {
  // "Taylor Swift" mid-sentence; but "Try React" opens a sentence with a verb.
  const prev = tokens[i - 1]
  return (
    prev !== undefined &&
    /^\p{Lu}\p{Ll}+$/u.test(prev.text) &&
    /^\s+$/.test(text.slice(prev.start + prev.text.length, tokens[i].start)) &&
    !sentenceStart(text, prev.start)
  )
}

export const compileGazetteer = (raw: RawGazetteer): Gazetteer => {
  const entries: GazetteerEntry[] = []
  const byFirst = new Map<string, Pattern[]>()
  const versioned = new Map<string, Pattern[]>()
  const add = (map: Map<string, Pattern[]>, key: string, p: Pattern) => {
    const list = map.get(key)
    if (list) list.push(p)
    else map.set(key, [p])
  }
  for (const g of raw.groups) {
    for (const r of g.entries) {
      const e = typeof r === 'string' ? { n: r } : r
      const entry: GazetteerEntry = {
        name: e.n,
        type: g.type,
        bucket: g.bucket,
        topics: [...new Set([...g.topics, ...(e.t ?? [])])],
        ctx: e.ctx ? e.ctx.map((w) => w.toLowerCase()) : null,
      }
      entries.push(entry)
      const surfaces = [...[e.n, ...(e.a ?? [])].map((s) => [s, false] as const), ...(e.ua ?? []).map((s) => [s, true] as const)]
      for (const [surface, unambiguous] of surfaces) {
        const toks = wordTokens(surface)
        if (toks.length === 0) continue
        const plain = toks.length === 1 && /^[\p{L}]+$/u.test(toks[0].text)
        const p: Pattern = {
          lower: toks.map((t) => t.lower),
          exact: toks.map((t) => t.text),
          cs: e.cs === true && !unambiguous,
          needsCtx: entry.ctx !== null && plain && !unambiguous,
          entry,
        }
        add(byFirst, p.lower[0], p)
        if (e.v && toks.length === 1) add(versioned, p.lower[0], p)
      }
    }
  }
  for (const list of byFirst.values()) list.sort((a, b) => b.lower.length - a.lower.length)

  const caseOk = (p: Pattern, i: number, tok: RawToken): boolean =>
    !p.cs || tok.hashtag || tok.text === p.exact[i] || tok.text === p.exact[i].toUpperCase()

  const match = (text: string, given?: RawToken[]): GazetteerHit[] => {
    const tokens = given ?? wordTokens(text)
    let present: Set<string> | null = null
    const contextCount = (ctx: string[]) => {
      present ??= new Set(tokens.map((t) => t.lower))
      let n = 0
      for (const w of ctx) if (present.has(w)) n++
      return n
    }
    const hits: GazetteerHit[] = []
    const seen = new Set<GazetteerEntry>()
    for (let i = 0; i < tokens.length; i++) {
      const tok = tokens[i]
      let found: Pattern | null = null
      let len = 0
      for (const p of byFirst.get(tok.lower) ?? []) {
        if (i + p.lower.length > tokens.length) continue
        let ok = true
        for (let k = 0; k < p.lower.length && ok; k++) {
          const t = tokens[i + k]
          ok = t.lower === p.lower[k] && caseOk(p, k, t)
        }
        // At a sentence start ("Go wide") the name needs twice the context.
        const need = p.needsCtx ? (sentenceStart(text, tok.start) ? 2 : 1) : 0
        if (ok && (need === 0 || (contextCount(p.entry.ctx!) >= need && !ambiguousPosition(text, tokens, i)))) {
          found = p
          len = p.lower.length
          break
        }
      }
      if (!found) {
        const m = VERSION_TAIL.exec(tok.lower)
        if (m) {
          // A name glued to a version (GPT-4o, llama3, Qwen2.5) is distinctive: no case or context test.
          for (const p of versioned.get(m[1]) ?? []) {
            found = p
            len = 1
            break
          }
        }
      }
      if (!found) continue
      if (!seen.has(found.entry)) {
        seen.add(found.entry)
        hits.push({ entry: found.entry, start: tok.start, surface: tokens.slice(i, i + len).map((t) => t.text).join(' ') })
      }
      i += len - 1
    }
    return hits
  }

  const words = () => {
    const set = new Set<string>()
    for (const list of byFirst.values()) for (const p of list) for (const w of p.lower) set.add(w)
    return [...set]
  }

  return { entries, topicCategories: raw.topicCategories, match, words }
}

export const loadGazetteer = memoByDir((dir) => compileGazetteer(readResourceJson<RawGazetteer>('gazetteer.json', dir)))
