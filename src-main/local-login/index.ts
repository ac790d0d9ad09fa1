import { createHash, randomBytes } from 'node:crypto'
import { AppError } from '../../src-shared/errors.ts'
import type { User } from '../../src-shared/schemas/users.ts'

/** How long a minted token may wait for the window to present it. */
export const LOCAL_LOGIN_TTL_MS = 60_000

export interface LocalLoginDeps {
  clock: () => number
  /** The library's owner: the first admin, or null before setup. */
  owner: () => User | null
  ttlMs?: number
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex')

/**
 * Signs the desktop window in as the owner without a password. The desktop main process mints a
 * random token (held only in memory) and hands it to its own window; the server accepts it once,
 * within a minute, and only from a client on this machine that did not arrive through the LAN listener.
 */
export function createLocalLogin({ clock, owner, ttlMs = LOCAL_LOGIN_TTL_MS }: LocalLoginDeps) {
  const pending = new Map<string, number>()

  const sweep = (now: number) => {
    for (const [k, exp] of pending) if (exp <= now) pending.delete(k)
  }

  function mint(): string {
    const now = clock()
    sweep(now)
    const token = randomBytes(32).toString('base64url')
    pending.set(hash(token), now + ttlMs)
    return token
  }

  /**
   * The owner to sign in, or null when nobody has set Sheaf up yet (the window then shows setup).
   * A token is spent by its first presentation, even a refused one: one seen from the network has leaked.
   */
  function redeem(token: string, from: { isLoopback: boolean }): User | null {
    const key = hash(token)
    const exp = pending.get(key)
    pending.delete(key)
    if (!from.isLoopback) {
      throw new AppError('FORBIDDEN', 'Desktop sign-in only works in the Sheaf window on this computer; sign in with your e-mail and password.')
    }
    if (exp === undefined || exp <= clock()) {
      throw new AppError('UNAUTHORIZED', 'This desktop sign-in link has expired or was already used; restart Sheaf or sign in with your password.')
    }
    return owner()
  }

  return { mint, redeem, owner, pendingCount: () => pending.size }
}
export type LocalLogin = ReturnType<typeof createLocalLogin>

/** The first admin (lowest id): the person who set Sheaf up on this computer. */
export const firstAdmin = (users: readonly User[]): User | null =>
  users.filter((u) => u.role === 'admin').sort((a, b) => a.id - b.id)[0] ?? null
