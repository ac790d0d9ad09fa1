import type { Digest, DigestPost } from '../../src-shared/schemas/member.ts'

/** Plain text as Markdown that renders as itself: one line, Markdown and HTML characters escaped. */
export const mdText = (s: string): string =>
  s.replace(/\s+/g, ' ').trim().replace(/[\\`*_[\]{}()<>#+|~!]/g, (c) => `\\${c}`).replace(/&/g, '&amp;')

const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })

const line = (p: DigestPost, prefix = ''): string => {
  const text = p.text.length >= 200 ? `${p.text.slice(0, 199)}…` : p.text
  return `- ${prefix}@${mdText(p.authorHandle)}: ${mdText(text)} (<${p.url}>)`
}
const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

/** The digest as Markdown a person can paste anywhere. */
export function digestMarkdown(d: Digest): string {
  const last = new Date(Date.parse(d.to) - 1)
  const out = [
    `# Household digest: ${DAY.format(new Date(d.from))} to ${DAY.format(last)}`,
    '',
    `${count(d.saved, 'post', 'posts')} saved and ${count(d.analyzed, 'post', 'posts')} analysed in the last ${count(d.days, 'day', 'days')}.`,
  ]
  if (d.categories.length > 0) out.push('', '## By category')
  for (const c of d.categories) {
    out.push('', `### ${mdText(c.name)}: ${count(c.saved, 'saved', 'saved')}, ${count(c.analyzed, 'analysed', 'analysed')}`)
    if (c.top.length > 0) out.push('', ...c.top.map((p) => line(p)))
  }
  if (d.mostStarred.length > 0) {
    out.push('', '## Most starred', '', ...d.mostStarred.map((p) => line(p, `${count(p.stars, 'star', 'stars')} · `)))
  }
  if (d.forYou.posts.length > 0) {
    out.push('', '## For you', '', `Saved by others in the categories you read most (${d.forYou.categories.map((c) => mdText(c.name)).join(', ')}), not read yet:`, '',
      ...d.forYou.posts.map((p) => line(p)))
  }
  return `${out.join('\n')}\n`
}
