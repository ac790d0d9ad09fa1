import { DEFAULT_CATEGORIES, nextCategoryColor } from '../../src-shared/categories.ts'
import { AppError } from '../../src-shared/errors.ts'
import { LOW_CONFIDENCE, type Category, type CategoryReview, type CategoryReviewQuery, type CreateCategoryBody, type UpdateCategoryBody } from '../../src-shared/schemas/categories.ts'
import { reviewItems } from './bookmarks.ts'
import {
  categoryById, categoryBySlug, countCategories, deleteCategory, getSetting, insertCategory, listCategories, lowConfidenceAssignments, mergeCategoryInto,
  nextCategoryPosition, putSetting, transaction, updateCategory, type CategoryRecord, type Db,
} from '../store/index.ts'

/** Settings key remembering that the defaults were created once; deleting them never brings them back. */
export const SEEDED_KEY = 'library.defaultCategoriesSeeded'

export function slugify(name: string): string {
  return name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60).replace(/-+$/, '') || 'category'
}

const toCategory = ({ position: _p, ...c }: CategoryRecord): Category => c

export function createCategories({ db, clock }: { db: Db; clock: () => number }) {
  const get = (id: number): CategoryRecord => {
    const c = categoryById(db, id)
    if (!c) throw new AppError('NOT_FOUND', `No category with id ${id}.`)
    return c
  }

  const freeSlug = (base: string): string => {
    let slug = base
    for (let i = 2; categoryBySlug(db, slug); i++) slug = `${base.slice(0, 56)}-${i}`
    return slug
  }

  const assertSlugFree = (slug: string, except?: number) => {
    const other = categoryBySlug(db, slug)
    if (other && other.id !== except) throw new AppError('VALIDATION_ERROR', `slug: "${slug}" is already used by the category "${other.name}".`, { field: 'slug' })
  }

  return {
    /** The analysis's least sure assignments, for review; `rescoring` is filled in by the caller. */
    review(q: CategoryReviewQuery, userId?: number): Omit<CategoryReview, 'rescoring'> {
      const { rows, total } = lowConfidenceAssignments(db, LOW_CONFIDENCE, q.limit, (q.page - 1) * q.limit)
      return { items: reviewItems(db, rows, userId), total, page: q.page, limit: q.limit, threshold: LOW_CONFIDENCE }
    },
    /** Creates the default categories on a new library, once. */
    seedDefaults(): boolean {
      if (getSetting<boolean>(db, SEEDED_KEY)) return false
      return transaction(db, () => {
        const fresh = countCategories(db) === 0
        if (fresh) {
          DEFAULT_CATEGORIES.forEach((c, position) =>
            insertCategory(db, { name: c.name, slug: c.slug, color: c.color, description: c.description, position, createdAt: clock() }))
        }
        putSetting(db, SEEDED_KEY, true)
        return fresh
      })
    },

    list: (): Category[] => listCategories(db).map(toCategory),

    get: (id: number): Category => toCategory(get(id)),

    create(body: CreateCategoryBody): Category {
      const slug = body.slug ?? freeSlug(slugify(body.name))
      assertSlugFree(slug)
      const color = body.color ?? nextCategoryColor(countCategories(db))
      const id = insertCategory(db, { name: body.name, slug, color, description: body.description ?? '', position: nextCategoryPosition(db), createdAt: clock() })
      return toCategory(get(id))
    },

    /** Renaming keeps the slug (links and filters stay valid) unless a new slug is asked for. */
    update(id: number, body: UpdateCategoryBody): Category {
      const c = get(id)
      if (body.slug !== undefined) assertSlugFree(body.slug, id)
      updateCategory(db, id, {
        name: body.name ?? c.name, slug: body.slug ?? c.slug, color: body.color ?? c.color,
        description: body.description ?? c.description, position: body.position ?? c.position,
      })
      return toCategory(get(id))
    },

    /** Moves every post of `id` into `into` and deletes `id`. */
    merge(id: number, into: number): Category {
      if (id === into) throw new AppError('VALIDATION_ERROR', 'into: a category cannot be merged into itself.', { field: 'into' })
      get(id)
      get(into)
      transaction(db, () => mergeCategoryInto(db, id, into))
      return toCategory(get(into))
    },

    /** Deletes the category; its posts keep their other categories. */
    remove(id: number): void {
      get(id)
      deleteCategory(db, id)
    },
  }
}

export type Categories = ReturnType<typeof createCategories>
