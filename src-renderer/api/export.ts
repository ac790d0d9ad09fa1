import type { ExportFormat } from '../../src-shared/schemas/export.ts'
import { CSRF_HEADER, emitApiError, toApiError, withQuery, type Query } from './client.ts'

export const exportUrl = (format: ExportFormat, filters: Query) => withQuery('/api/export', { format, ...filters })

/** Fetches the export and hands it to the browser as a download; errors come back as ApiError. */
export async function downloadExport(format: ExportFormat, filters: Query): Promise<{ name: string; bytes: number }> {
  const url = exportUrl(format, filters)
  const res = await fetch(url, { credentials: 'same-origin', headers: { [CSRF_HEADER]: '1' } })
  if (!res.ok) {
    const err = await toApiError(res)
    emitApiError(err, '/api/export')
    throw err
  }
  const blob = await res.blob()
  const disposition = res.headers.get('Content-Disposition') ?? ''
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)
  const ext = format === 'markdown' ? (blob.type.includes('zip') ? 'zip' : 'md') : format
  const name = match ? decodeURIComponent(match[1]) : `sheaf-export.${ext}`
  const href = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = href
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(href), 10_000)
  return { name, bytes: blob.size }
}
