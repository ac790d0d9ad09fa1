import { Hono } from 'hono'
import type { Library } from '../../library/index.ts'
import type { AppEnv } from '../app-env.ts'
import { allow } from '../middleware/allow.ts'

export const statsRoutes = ({ library }: { library: Library }) =>
  new Hono<AppEnv>().get('/', allow('stats:read'), (c) => c.json(library.stats.get()))
