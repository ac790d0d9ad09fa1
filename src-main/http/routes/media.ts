import { Hono } from 'hono'
import type { MediaFiles } from '../../media/index.ts'
import type { AppEnv } from '../app-env.ts'
import { allow } from '../middleware/allow.ts'
import { idParam } from '../validate.ts'

const headers = (mime: string) => ({
  'content-type': mime,
  'cache-control': 'private, max-age=86400',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
})

/** Cached images behind the session: /api/media/:id (the image) and /api/media/:id/thumb. */
export const mediaRoutes = ({ media }: { media: MediaFiles }) =>
  new Hono<AppEnv>()
    .use(allow('media:read'))
    .get('/:id', (c) => {
      const f = media.open(idParam(c), 'full')
      return c.body(new Uint8Array(f.data), 200, headers(f.mime))
    })
    .get('/:id/thumb', (c) => {
      const f = media.open(idParam(c), 'thumb')
      return c.body(new Uint8Array(f.data), 200, headers(f.mime))
    })
