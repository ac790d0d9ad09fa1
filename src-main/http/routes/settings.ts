import { Hono } from 'hono'
import { zProviderTestBody, zSettingsUpdate } from '../../../src-shared/schemas/settings.ts'
import type { Settings } from '../../settings/index.ts'
import type { AppEnv } from '../app-env.ts'
import { allow } from '../middleware/allow.ts'
import { jsonBody } from '../validate.ts'

/** Admin only. Keys are write-only: PUT stores them in the credential store; GET shows them masked. */
export const settingsRoutes = ({ settings }: { settings: Settings }) =>
  new Hono<AppEnv>()
    .use(allow('settings:manage'))
    .get('/', async (c) => c.json(await settings.view()))
    .put('/', async (c) => c.json(await settings.update(await jsonBody(c, zSettingsUpdate))))
    .get('/cli-status', async (c) => c.json(await settings.cliStatus()))
    .post('/test', async (c) => {
      const { provider } = await jsonBody(c, zProviderTestBody)
      return c.json(await settings.test(provider))
    })
