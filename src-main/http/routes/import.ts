import { Hono } from 'hono'
import { createReadStream } from 'node:fs'
import type { Library } from '../../library/index.ts'
import type { AppEnv } from '../app-env.ts'
import { allow } from '../middleware/allow.ts'
import { receiveUpload, tooLarge } from '../upload.ts'

/** Room for the multipart framing around the file. */
const FRAMING_BYTES = 64 * 1024

export interface ImportRouteDeps {
  library: Library
  limitBytes: () => number
  /** Where uploads are received before their import starts (a folder in the data dir). */
  spoolDir: string
}

export const importRoutes = ({ library, limitBytes, spoolDir }: ImportRouteDeps) =>
  new Hono<AppEnv>()
    .use(allow('import:use'))
    .post('/', async (c) => {
      const limit = limitBytes()
      const declared = Number(c.req.header('content-length') ?? NaN)
      if (declared > limit + FRAMING_BYTES) {
        c.header('Connection', 'close')
        throw tooLarge(limit)
      }
      let upload
      try {
        upload = await receiveUpload(c.env.incoming, { limit, dir: spoolDir })
      } catch (e) {
        c.header('Connection', 'close')
        throw e
      }
      try {
        const result = await library.importStream({
          input: createReadStream(upload.path, { highWaterMark: 1 << 20 }), fileName: upload.fileName, userId: c.get('user').id, bytes: () => upload.bytes,
        })
        return c.json(result)
      } finally {
        upload.discard()
      }
    })
    .get('/queue', (c) => c.json({ imports: library.importQueue() }))
    .get('/history', (c) => c.json({ imports: library.importHistory() }))
