import type { NormalizedPost } from '../../../src-shared/schemas/posts.ts'
import { zSheafBookmark, zSheafCategory, type SheafCategory } from '../../../src-shared/schemas/sheaf-export.ts'
import { asArray, asObject, asString, toPostId } from '../normalize/values.ts'
import { fail, ok, type Outcome, type SheafExtras } from '../types.ts'

const issue = (e: { issues: Array<{ path: PropertyKey[]; message: string }> }) =>
  e.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(record)'}: ${i.message}`).join('; ')

/** Collects a Sheaf export's posts and, beside them, what only Sheaf knows about each. */
export function createSheafReader() {
  const bookmarks: SheafExtras['bookmarks'] = new Map()
  let header: { exportedAt: string; categories: SheafCategory[] } | null = null
  return {
    outcome(record: unknown): Outcome {
      const parsed = zSheafBookmark.safeParse(record)
      if (!parsed.success) return fail(toPostId(asObject(record)?.postId), issue(parsed.error))
      const b = parsed.data
      const { importedAt, categories, knowledge, tags, notes, states, merged, media, ...rest } = b
      const post: NormalizedPost = {
        ...rest,
        media: media.map(({ ocrText: _o, visualTags: _v, description: _d, ...m }) => m),
      }
      bookmarks.set(b.postId, {
        importedAt, categories, knowledge, tags, notes, states, merged,
        media: media.map((m) => ({ ocrText: m.ocrText, visualTags: m.visualTags, description: m.description })),
      })
      return ok(post)
    },
    /** The document outside `bookmarks` (read at the end: its order in the file is free). */
    finish(rest: unknown): Outcome[] {
      const doc = asObject(rest)
      const categories: SheafCategory[] = []
      const errors: Outcome[] = []
      for (const c of asArray(doc?.categories)) {
        const p = zSheafCategory.safeParse(c)
        if (p.success) categories.push(p.data)
        else errors.push(fail(null, `category ${asString(asObject(c)?.slug) ?? '?'}: ${issue(p.error)}`))
      }
      header = { exportedAt: asString(doc?.exportedAt) ?? '', categories }
      return errors
    },
    extras(): SheafExtras | null {
      return header ? { ...header, bookmarks } : null
    },
  }
}
