import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cosine, DEFAULT_RESOURCES_DIR, embedText, loadWordVectors, parseWordVectors } from '../../../src-main/ai/local/index.ts'

describe('word vectors', () => {
  it('loads a trimmed, quantised table of tens of thousands of words', () => {
    const t = loadWordVectors()
    expect(t.dim).toBe(100)
    expect(t.size).toBeGreaterThan(40_000)
    expect(t.size).toBeLessThan(60_000)
    for (const w of ['python', 'javascript', 'database', 'startup', 'telescope']) expect(t.indexOf(w)).toBeGreaterThanOrEqual(0)
    // stemming fallback for forms that are not in the table
    expect(t.indexOf('zzzqqq')).toBe(-1)
  })

  it('rejects a file in another format', () => {
    const buf = Buffer.from(readFileSync(join(DEFAULT_RESOURCES_DIR, 'word-vectors.bin')))
    buf.write('XXXX', 0, 'latin1')
    expect(() => parseWordVectors(buf)).toThrow(/format/)
  })

  it('embeds text as a unit vector, and unknown text as zeros', () => {
    const v = embedText('Deep learning models train on GPUs')
    expect(v).toHaveLength(100)
    expect(Math.hypot(...v)).toBeCloseTo(1, 4)
    expect(Math.hypot(...embedText('zzzqqq xxyyzz'))).toBe(0)
    expect(cosine(embedText('zzzqqq'), v)).toBe(0)
  })

  it('scores related sentences clearly above unrelated ones', () => {
    const pairs: Array<[string, string, string]> = [
      ['The new PyTorch release makes training neural networks faster on GPUs', 'Deep learning frameworks now train models quicker with better GPU support', 'My grandmother baked a delicious apple pie for dinner'],
      ['Tesla delivered record numbers of electric cars this quarter', 'EV maker sales jumped as car deliveries hit a high', 'Learn the basics of watercolor painting in this tutorial'],
      ['How to write a fast web server in Rust', 'Tutorial: building an HTTP backend with Go', 'Best hiking trails near the mountains this summer'],
    ]
    for (const [a, related, unrelated] of pairs) {
      const r = cosine(embedText(a), embedText(related))
      const u = cosine(embedText(a), embedText(unrelated))
      expect(r).toBeGreaterThan(0.4)
      expect(u).toBeLessThan(0.2)
      expect(r - u).toBeGreaterThan(0.3)
    }
  })
})
