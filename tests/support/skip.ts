import { describe, it } from 'vitest'

/**
 * A skip that names its reason. The reason goes into the skipped test's title as "[skipped: REASON]",
 * which `npm test` (scripts/test.ts) prints; a skip without one counts as a failure there.
 */
export const SKIP_MARK = '[skipped: '

export function describeIf(ok: boolean, reason: string) {
  return ok ? describe : (name: string, fn: () => void) => describe.skip(`${name} ${SKIP_MARK}${reason}]`, fn)
}

export function itIf(ok: boolean, reason: string) {
  return ok ? it : (name: string, fn: () => unknown) => it.skip(`${name} ${SKIP_MARK}${reason}]`, fn)
}
