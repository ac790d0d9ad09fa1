import type { MiddlewareHandler } from 'hono'
import { AppError } from '../../../src-shared/errors.ts'
import { PERMISSIONS, can, forbiddenMessage, type Action } from '../../../src-shared/roles.ts'
import type { AppEnv } from '../app-env.ts'

/** Lets the request through when the signed-in user's role may perform `action` (src-shared/roles.ts). */
export function allow(action: Action): MiddlewareHandler<AppEnv> {
  if (!(action in PERMISSIONS)) throw new Error(`allow: unknown action "${action}"`)
  return async function allow(c, next) {
    const user = c.get('user')
    if (!user) throw new AppError('UNAUTHORIZED', 'Please sign in first.')
    if (!can(user.role, action)) throw new AppError('FORBIDDEN', forbiddenMessage(user.role, action))
    await next()
  }
}
