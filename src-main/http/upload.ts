import busboy from 'busboy'
import { randomUUID } from 'node:crypto'
import { createWriteStream, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { AppError } from '../../src-shared/errors.ts'

/** An upload received in full into a temporary file; `discard` removes the file (safe to call twice). */
export interface SpooledUpload {
  fileName: string
  path: string
  bytes: number
  discard(): void
}

export const tooLarge = (limit: number) =>
  new AppError('VALIDATION_ERROR', `The file is larger than the import limit of ${limit} bytes (${Math.round(limit / 1048576)} MB); ` +
    'an admin can raise it with SHEAF_IMPORT_LIMIT_BYTES.', { field: 'file', limitBytes: limit })

const PREFIX = 'upload-'

/** Left alone by clearSpool: another process on the same library (a `sheaf` command) may be using them. */
const STALE_MS = 60 * 60 * 1000

/** Removes uploads left behind by a process that was killed mid-upload (untouched for an hour); creates the folder. */
export function clearSpool(dir: string, now = Date.now()): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  for (const f of readdirSync(dir)) {
    if (!f.startsWith(PREFIX)) continue
    const path = join(dir, f)
    try {
      if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true })
    } catch {
      // gone meanwhile
    }
  }
}

const discardFile = (path: string) => () => rmSync(path, { force: true })

/**
 * Receives the multipart part named `file` into a temporary file in `dir`, so that an import starts
 * only once its whole file is here: a slow, stalled or abandoned upload never holds the import slot.
 * Whatever ends the upload early (the client closing the connection, a pause longer than the body
 * time-out, the size limit, broken multipart data) releases at once everything it holds: the socket's
 * stream, the parser and the temporary file.
 */
export function receiveUpload(req: IncomingMessage, opts: { limit: number; dir: string }): Promise<SpooledUpload> {
  const { limit, dir } = opts
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy
    try {
      bb = busboy({ headers: req.headers, limits: { files: 1, fileSize: limit + 1, fields: 20 } })
    } catch {
      return reject(new AppError('VALIDATION_ERROR', 'Send the export as multipart/form-data with a part named file.', { field: 'file' }))
    }
    let settled = false
    let file: { name: string; path: string; written: Promise<number>; stream: Readable } | null = null
    let parsed = false

    const fail = (e: unknown) => {
      if (settled) return
      settled = true
      req.unpipe(bb)
      bb.removeAllListeners()
      bb.on('error', () => undefined)
      file?.stream.destroy()
      if (file) discardFile(file.path)()
      // Stop reading: the rest of the body is not wanted (the answer says Connection: close).
      req.pause()
      reject(e instanceof AppError ? e : new AppError('VALIDATION_ERROR', `The upload broke off: ${(e as Error)?.message ?? 'unknown error'}.`, { field: 'file' }))
    }
    const finish = async () => {
      if (settled || !parsed) return
      if (!file) {
        return fail(new AppError('VALIDATION_ERROR', 'The upload has no part named file; send the export as the form field "file".', { field: 'file' }))
      }
      let bytes: number
      try {
        bytes = await file.written
      } catch (e) {
        return fail(e)
      }
      if (settled) return
      settled = true
      resolve({ fileName: file.name, path: file.path, bytes, discard: discardFile(file.path) })
    }

    req.on('error', fail)
    req.on('close', () => {
      if (!req.complete) fail(new AppError('VALIDATION_ERROR', 'The upload broke off before the end of the file; send it again.', { field: 'file' }))
    })
    bb.on('file', (name, stream: Readable, info) => {
      if (name !== 'file' || file) return stream.resume()
      const path = join(dir, `${PREFIX}${randomUUID()}`)
      let bytes = 0
      const written = pipeline(stream, async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          bytes += chunk.length
          if (bytes > limit) throw tooLarge(limit)
          yield chunk
        }
      }, createWriteStream(path, { flags: 'wx', mode: 0o600 })).then(() => bytes)
      written.catch(fail)
      file = { name: info.filename || 'upload', path, written, stream }
    })
    bb.on('error', (e) => fail(new AppError('VALIDATION_ERROR', `The upload is not valid multipart data: ${(e as Error).message}`, { field: 'file' })))
    bb.on('close', () => {
      parsed = true
      void finish()
    })
    req.pipe(bb)
  })
}
