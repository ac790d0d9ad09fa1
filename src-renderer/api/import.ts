import { z } from 'zod'
import { zImportHistory } from '../../src-shared/schemas/library.ts'
import { zImportResult } from '../../src-shared/schemas/posts.ts'
import { CSRF_HEADER, emitApiError, get, ApiError } from './client.ts'

export const fetchImportHistory = () => get('/api/import/history', { schema: zImportHistory })

/** The spec's import result, and the records Sheaf passed over because they are not posts it keeps. */
const zUploadResult = zImportResult.extend({ skipped: z.number().int().default(0) })
export type ImportResult = z.infer<typeof zUploadResult>

/** XHR rather than fetch: only XHR reports upload progress. */
export function uploadExport(file: File, onProgress: (fraction: number) => void): Promise<ImportResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', '/api/import')
    xhr.withCredentials = true
    xhr.setRequestHeader(CSRF_HEADER, '1')
    xhr.responseType = 'json'
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total)
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', 'The upload was interrupted; check that Sheaf is running and try again.'))
    xhr.onload = () => {
      const body = xhr.response as { error?: string; code?: string; details?: unknown } | null
      if (xhr.status >= 200 && xhr.status < 300) {
        const parsed = zUploadResult.partial().loose().safeParse(body)
        const r = (parsed.success ? parsed.data : body) as Partial<ImportResult>
        resolve({ imported: 0, duplicates: 0, errors: 0, updated: 0, skipped: 0, format: '', errorDetails: [], ...r })
        return
      }
      const retry = Number(xhr.getResponseHeader('Retry-After'))
      const err = new ApiError(xhr.status, body?.code ?? `HTTP_${xhr.status}`, body?.error ?? `Upload failed (${xhr.status}).`, body?.details, retry > 0 ? retry : null)
      emitApiError(err, '/api/import')
      reject(err)
    }
    const form = new FormData()
    form.append('file', file, file.name)
    xhr.send(form)
  })
}
export const zAnyOk = z.unknown()
