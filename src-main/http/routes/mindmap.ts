import { Hono } from 'hono'
import { zMindmapQuery } from '../../../src-shared/schemas/mindmap.ts'
import type { Library } from '../../library/index.ts'
import type { AppEnv } from '../app-env.ts'
import { allow } from '../middleware/allow.ts'
import { queryOf } from '../validate.ts'

export const mindmapRoutes = ({ library }: { library: Library }) =>
  new Hono<AppEnv>().get('/', allow('mindmap:read'), (c) => c.json(library.mindmap.get(queryOf(c, zMindmapQuery))))
