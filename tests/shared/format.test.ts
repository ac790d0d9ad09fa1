import { describe, expect, it } from 'vitest'
import { fmtDuration, fmtMonth, initials, monthSeries } from '../../src-shared/display.ts'

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

describe('time left on the pipeline page', () => {
  it('never shows 60 seconds or 60 minutes in a field', () => {
    expect(fmtDuration(119.6)).toBe('2 min 0 s')
    expect(fmtDuration(3599.5)).toBe('1 h 0 min')
    expect(fmtDuration(7199)).toBe('2 h 0 min')
    for (let s = 0; s < 8000; s += 0.7) expect(fmtDuration(s)).not.toMatch(/\b60 (s|min)\b/)
  })
  it('rounds up, so the last second left still reads as one', () => {
    expect(fmtDuration(0.2)).toBe('1 s')
    expect(fmtDuration(61)).toBe('1 min 1 s')
    expect(fmtDuration(3601)).toBe('1 h 1 min')
    expect(fmtDuration(null)).toBe('–')
  })
})
