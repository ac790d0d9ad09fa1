import { describe, expect, it } from 'vitest'
import { escapeRegExp } from '../../src-shared/regex.ts'

describe('escapeRegExp', () => {
  it('makes every RegExp syntax character match itself', () => {
    const nasty = 'c++ (v1.2) [beta] {x} a|b ^$ \\d? *.*'
    const re = new RegExp(`^${escapeRegExp(nasty)}$`)
    expect(re.test(nasty)).toBe(true)
    expect(re.test('cc (v1x2) b x a ^$ d *a')).toBe(false)
    expect(escapeRegExp('plain words')).toBe('plain words')
  })
})
