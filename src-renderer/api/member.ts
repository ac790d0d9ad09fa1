import {
  zBulkStateResponse, zDigest, zReviewAnswerResponse, zReviewResponse, zStateResponse, type ReviewOutcome, type StateBody,
} from '../../src-shared/schemas/member.ts'
import { ApiError, CSRF_HEADER, get, post, put, toApiError } from './client.ts'

export const setState = (id: number, change: StateBody) => put(`/api/bookmarks/${id}/state`, change, { schema: zStateResponse })
export const setStates = (ids: number[], change: StateBody) => post('/api/bookmarks/state', { ids, ...change }, { schema: zBulkStateResponse })

export const fetchReview = (n?: number) => get('/api/review', { query: { n }, schema: zReviewResponse })
export const answerReview = (id: number, outcome: ReviewOutcome) => post(`/api/review/${id}`, { outcome }, { schema: zReviewAnswerResponse })

export const fetchDigest = (days: number) => get('/api/digest', { query: { days }, schema: zDigest })

/** The digest as Markdown text (not JSON, so not through request()). */
export async function fetchDigestMarkdown(days: number): Promise<string> {
  const res = await fetch(`/api/digest?days=${days}&format=markdown`, { credentials: 'same-origin', headers: { [CSRF_HEADER]: '1' } })
  if (!res.ok) throw await toApiError(res)
  return res.text()
}
export { ApiError }
