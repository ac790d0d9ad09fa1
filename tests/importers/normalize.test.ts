import { describe, expect, it } from 'vitest'
import { snowflakeDate, toIsoDate } from '../../src-main/importers/normalize/dates.ts'
import { bestVariant, imageSize } from '../../src-main/importers/normalize/media.ts'
import { decodeEntities, stripTrailingLinks } from '../../src-main/importers/normalize/text.ts'
import { toPostId } from '../../src-main/importers/normalize/values.ts'

describe('dates', () => {
  it.each([
    ['Sat Nov 09 12:14:18 +0000 2024', '2024-11-09T12:14:18.000Z'],
    ['2026-07-09 05:59:10 +08:00', '2026-07-08T21:59:10.000Z'],
    ['2026-07-09 05:59:10 +0800', '2026-07-08T21:59:10.000Z'],
    ['2023-10-13T14:58:50.000Z', '2023-10-13T14:58:50.000Z'],
    [1688295180, '2023-07-02T10:53:00.000Z'],
    [1688295180123, '2023-07-02T10:53:00.123Z'],
    ['1688295180', '2023-07-02T10:53:00.000Z'],
  ])('%s → %s', (input, iso) => expect(toIsoDate(input)).toBe(iso))

  it('rejects non-dates and reads snowflake ids', () => {
    expect(toIsoDate('')).toBeNull()
    expect(toIsoDate('yesterday')).toBeNull()
    expect(snowflakeDate('1855222380982907193')).toBe('2024-11-09T12:14:18.648Z')
    expect(snowflakeDate('20')).toBeNull() // a 2006 id: no time in its bits
  })
})

describe('text, ids, media', () => {
  it('decodes the three entities X escapes, once', () => {
    expect(decodeEntities('a &amp; b &lt;3 =&gt; &amp;lt;')).toBe('a & b <3 => &lt;')
  })
  it('strips only the trailing media links', () => {
    expect(stripTrailingLinks('see https://t.co/keep https://t.co/med', ['https://t.co/med'])).toBe('see https://t.co/keep')
    expect(stripTrailingLinks('see https://t.co/keep', ['https://t.co/med'])).toBe('see https://t.co/keep')
  })
  it('never turns an unsafe number into an id', () => {
    expect(toPostId('1682072224013099008')).toBe('1682072224013099008')
    expect(toPostId(1682072224013099008)).toBeNull()
    expect(toPostId(123456)).toBe('123456')
  })
  it('picks the highest-bitrate mp4 and sizes pbs images', () => {
    expect(bestVariant({ variants: [
      { content_type: 'application/x-mpegURL', url: 'a.m3u8' }, { bitrate: '832000', content_type: 'video/mp4', url: 'mid.mp4' },
      { bitrate: 2176000, content_type: 'video/mp4', url: 'best.mp4' }, { bitrate: 256000, content_type: 'video/mp4', url: 'low.mp4' },
    ] })).toBe('best.mp4')
    expect(imageSize('https://pbs.twimg.com/media/X?format=jpg&name=thumb', 'small')).toBe('https://pbs.twimg.com/media/X?format=jpg&name=small')
    expect(imageSize('http://pbs.twimg.com/media/X.jpg', 'orig')).toBe('https://pbs.twimg.com/media/X.jpg?name=orig')
  })
})
