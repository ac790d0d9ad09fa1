import { serveStatic } from '@hono/node-server/serve-static'
import { existsSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { Hono } from 'hono'
import { AppError } from '../../src-shared/errors.ts'
import type { AppEnv } from './app-env.ts'

/** Serves the built renderer, with index.html for client-side routes. */
export function mountStaticUi(app: Hono<AppEnv>, uiDir: string | null): void {
  const index = uiDir ? join(uiDir, 'index.html') : null
  if (!uiDir || !index || !existsSync(index)) {
    app.get('*', (c) =>
      c.text('Sheaf API is running; the UI is not built. Run `npm run build:web` and restart.', 404))
    return
  }
  const root = relative(process.cwd(), uiDir) || '.'
  const html = readFileSync(index, 'utf8')
  app.use('/assets/*', async (c, next) => {
    await next()
    if (c.res.status === 200) c.header('Cache-Control', 'public, max-age=31536000, immutable')
  })
  app.get('*', serveStatic({ root }))
  // A missing file (an old build's script, a mistyped image) is a 404, not the app's page in its place.
  app.get('/assets/*', (c) => {
    throw new AppError('NOT_FOUND', `No such file: ${c.req.path}. Reload the page to get the current version.`)
  })
  app.get('*', (c) => {
    c.header('Cache-Control', 'no-cache')
    return c.html(html)
  })
}
