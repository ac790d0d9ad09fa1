import type { ExportFormat } from '../../../src-shared/schemas/export.ts'
import type { Db } from '../../store/index.ts'
import type { ExportScope } from './batches.ts'
import { csvChunks } from './csv.ts'
import { sheafJsonChunks } from './json.ts'
import { markdownZipChunks } from './markdown.ts'

export interface ExportFile {
  fileName: string
  contentType: string
  /** Pull-based: the next batch is read from the database only when the client has taken the last. */
  body: ReadableStream<Uint8Array>
}

function streamOf(chunks: Generator<string | Uint8Array>): ReadableStream<Uint8Array> {
  const enc = new TextEncoder()
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      for (;;) {
        const r = chunks.next()
        if (r.done) return controller.close()
        const bytes = typeof r.value === 'string' ? enc.encode(r.value) : r.value
        if (bytes.length === 0) continue
        controller.enqueue(bytes)
        return
      }
    },
    cancel() {
      chunks.return(undefined)
    },
  }, { highWaterMark: 1 })
}

export function createExporter({ db, clock }: { db: Db; clock: () => number }) {
  return {
    open(format: ExportFormat, scope: ExportScope, opts: { layout?: 'folders' | 'flat' } = {}): ExportFile {
      const now = clock()
      const stamp = new Date(now).toISOString().slice(0, 10)
      if (format === 'csv') return { fileName: `sheaf-export-${stamp}.csv`, contentType: 'text/csv; charset=utf-8', body: streamOf(csvChunks(db, scope)) }
      if (format === 'markdown') {
        return { fileName: `sheaf-vault-${stamp}.zip`, contentType: 'application/zip', body: streamOf(markdownZipChunks(db, scope, opts.layout ?? 'folders', now)) }
      }
      return { fileName: `sheaf-export-${stamp}.json`, contentType: 'application/json; charset=utf-8', body: streamOf(sheafJsonChunks(db, scope, now)) }
    },
  }
}

export type Exporter = ReturnType<typeof createExporter>
export type { ExportScope } from './batches.ts'
