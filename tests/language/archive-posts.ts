import { readFileSync } from 'node:fs'
import { sharedFixture } from '../support/fixtures.ts'

/** The X archive's own posts with X's language code: `{id, text, lang}` (real text, local testing only). */
export function archivePosts(): { id: string; text: string; lang: string }[] {
  const js = readFileSync(sharedFixture('exports/archive/alrocar_x/tweets.js'), 'utf8')
  const rows = JSON.parse(js.slice(js.indexOf('['))) as { tweet: { id_str: string; full_text: string; lang: string } }[]
  return rows.map(({ tweet: t }) => ({ id: t.id_str, text: t.full_text, lang: t.lang }))
}

/** Letters left once links, mentions and `#` are gone: long posts are the ones a detector must get right. */
export const letterCount = (s: string): number =>
  (s.replace(/https?:\/\/\S+/g, ' ').replace(/@\w+/g, ' ').match(/\p{L}/gu) ?? []).length
