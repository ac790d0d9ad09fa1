import { describe, expect, it } from 'vitest'
import { fmtMonth, initials, monthSeries } from '../../src-shared/display.ts'

describe('avatar initials', () => {
  it('are whole characters: an emoji or a flag never yields half a character', () => {
    expect(initials('EuroMaximalist 🇪🇺', 'euromax')).toBe('E')
    expect(initials('Ada Lovelace', 'ada')).toBe('AL')
    expect(initials('🔥🔥', 'firefan')).toBe('F')
    expect(initials('Ölaf Ünal', 'o')).toBe('ÖÜ')
    expect(initials('', '@simonw')).toBe('S')
    expect(initials('🇪🇺', '')).toBe('?')
    for (const s of [initials('EuroMaximalist 🇪🇺'), initials('x 😀 y')]) expect(s).not.toMatch(/[\uD800-\uDFFF]/)
  })
})

describe('timeline months', () => {
  it('keep every month of the range, empty ones as 0', () => {
    expect(monthSeries([{ month: '2017-11', count: 2 }, { month: '2018-02', count: 5 }])).toEqual([
      { month: '2017-11', count: 2 }, { month: '2017-12', count: 0 }, { month: '2018-01', count: 0 }, { month: '2018-02', count: 5 },
    ])
    expect(monthSeries([])).toEqual([])
  })

  it('are labelled with the full year, never like a day ("Oct 17")', () => {
    expect(fmtMonth('2017-10')).toMatch(/2017/)
    expect(fmtMonth('2017-10')).not.toMatch(/\b17\b/)
  })
})
