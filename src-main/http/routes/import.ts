import busboy from 'busboy'
import { Hono } from 'hono'
import type { IncomingMessage } from 'node:http'
import type { Readable } from 'node:stream'
import { AppError } from '../../../src-shared/errors.ts'
import type { Library } from '../../library/index.ts'
import type { AppEnv } from '../app-env.ts'
import { allow } from '../middleware/allow.ts'

/** Room for the multipart framing around the file. */
const FRAMING_BYTES = 64 * 1024

const tooLarge = (limit: number) =>
  new AppError('VALIDATION_ERROR', `The file is larger than the import limit of ${limit} bytes (${Math.round(limit / 1048576)} MB); ` +
    'an admin can raise it with SHEAF_IMPORT_LIMIT_BYTES.', { field: 'file', limitBytes: limit })

interface Upload {
  fileName: string
  chunks: AsyncIterable<Uint8Array>
  bytes: () => number
}

/**
 * The first part named `file`, streamed straight from the socket: nothing is buffered beyond what
 * the parser is reading, and reading stops the moment the limit is passed.
 */
function fileUpload(req: IncomingMessage, limit: number): Promise<Upload> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy
    try {
      bb = busboy({ headers: req.headers, limits: { files: 1, fileSize: limit + 1, fields: 20 } })
    } catch {
      return reject(new AppError('VALIDATION_ERROR', 'Send the export as multipart/form-data with a part named file.', { field: 'file' }))
    }
    let found = false
    const stop = () => {
      req.unpipe(bb)
      req.pause()
    }
    bb.on('file', (name, stream: Readable, info) => {
      if (name !== 'file' || found) return stream.resume()
      found = true
      let bytes = 0
      async function* chunks() {
        try {
          for await (const chunk of stream as AsyncIterable<Buffer>) {
            bytes += chunk.length
            if (bytes > limit) throw tooLarge(limit)
            yield chunk as Uint8Array
          }
        } catch (e) {
          stop()
          throw e instanceof AppError ? e : new AppError('VALIDATION_ERROR', `The upload broke off: ${(e as Error).message}`, { field: 'file' })
        }
      }
      resolve({ fileName: info.filename || 'upload', chunks: chunks(), bytes: () => bytes })
    })
    bb.on('error', (e) => {
      if (!found) reject(new AppError('VALIDATION_ERROR', `The upload is not valid multipart data: ${(e as Error).message}`, { field: 'file' }))
    })
    bb.on('close', () => {
      if (!found) reject(new AppError('VALIDATION_ERROR', 'The upload has no part named file; send the export as the form field "file".', { field: 'file' }))
    })
    req.pipe(bb)
  })
}

export const importRoutes = ({ library, limitBytes }: { library: Library; limitBytes: () => number }) =>
  new Hono<AppEnv>()
    .use(allow('import:use'))
    .post('/', async (c) => {
      const limit = limitBytes()
      const declared = Number(c.req.header('content-length') ?? NaN)
      if (declared > limit + FRAMING_BYTES) {
        c.header('Connection', 'close')
        throw tooLarge(limit)
      }
      const upload = await fileUpload(c.env.incoming, limit)
      try {
        const result = await library.importStream({ input: upload.chunks, fileName: upload.fileName, userId: c.get('user').id, bytes: upload.bytes })
        return c.json(result)
      } catch (e) {
        if (e instanceof AppError && e.code === 'VALIDATION_ERROR') c.header('Connection', 'close')
        throw e
      }
    })
    .get('/history', (c) => c.json({ imports: library.importHistory() }))
