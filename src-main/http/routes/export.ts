import { Hono } from 'hono'
import { zExportQuery } from '../../../src-shared/schemas/export.ts'
import { filterOf, type Library } from '../../library/index.ts'
import type { AppEnv } from '../app-env.ts'
import { allow } from '../middleware/allow.ts'
import { queryOf } from '../validate.ts'

/**
 * Notes are private: an export carries the requester's own, except an admin's, which is a full backup.
 * Read, starred and hidden are only ever the requester's own, admins included.
 */
export const exportRoutes = ({ library }: { library: Library }) =>
  new Hono<AppEnv>().get('/', allow('export:use'), (c) => {
    const q = queryOf(c, zExportQuery)
    const user = c.get('user')
    const file = library.exporter.open(q.format, { filter: filterOf(q), notesOf: user.role === 'admin' ? 'all' : user.id, stateOf: { userId: user.id, email: user.email } }, { layout: q.layout })
    return c.body(file.body, 200, {
      'Content-Type': file.contentType,
      'Content-Disposition': `attachment; filename="${file.fileName}"`,
      'Cache-Control': 'no-store',
    })
  })
