import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..')
/** ../shared/fixtures beside the checkout; absent in a user's clone. */
export const SHARED_FIXTURES = join(REPO_ROOT, '../shared/fixtures')
export const hasSharedFixtures = existsSync(SHARED_FIXTURES)
/** Why a test that reads ../shared/fixtures is skipped when it is absent. */
export const NEEDS_FIXTURES = "needs ../shared/fixtures (present beside the repository in CI, absent in a user's clone)"
export const sharedFixture = (...parts: string[]) => join(SHARED_FIXTURES, ...parts)
