import { create } from 'zustand'
import { can, type Action } from '../../src-shared/roles.ts'
import * as authApi from '../api/auth.ts'
import { ApiError, onApiError } from '../api/client.ts'
import type { User } from '../api/auth.ts'
import { navigate, useRouterStore } from './router.ts'
import { toast } from './toast.ts'

export type SessionStatus = 'loading' | 'needs-setup' | 'setup-elsewhere' | 'signed-out' | 'signed-in' | 'offline'

interface SessionState {
  status: SessionStatus
  user: User | null
  expiresAt: string | null
  boot: () => Promise<void>
  signedIn: (user: User) => void
  signOut: () => Promise<void>
  expire: () => void
}

/** Pages anyone may see without a session. */
export const PUBLIC_PATHS = new Set(['/signin', '/join', '/register', '/setup'])

const here = () => {
  const { path, search } = useRouterStore.getState()
  return path + search
}

export const signInUrl = (next = here()) =>
  PUBLIC_PATHS.has(next.split('?')[0]) || next === '/' ? '/signin' : `/signin?next=${encodeURIComponent(next)}`

export const useSessionStore = create<SessionState>((set, get) => ({
  status: 'loading',
  user: null,
  expiresAt: null,
  async boot() {
    try {
      const setup = await authApi.fetchSetupStatus()
      if (setup.needsSetup) {
        set({ status: setup.local ? 'needs-setup' : 'setup-elsewhere', user: null })
        return
      }
      const me = await authApi.fetchSession()
      if (!me.user) {
        set({ status: 'signed-out', user: null })
        return
      }
      set({ status: 'signed-in', user: me.user, expiresAt: me.expiresAt })
      // Keep an active person signed in: renew when less than a few hours remain.
      if (me.expiresAt && Date.parse(me.expiresAt) - Date.now() < 4 * 3600_000) {
        authApi.refresh().then((r) => set({ expiresAt: r.expiresAt }), () => undefined)
      }
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) set({ status: 'signed-out', user: null })
      else set({ status: 'offline', user: null })
    }
  },
  signedIn(user) {
    set({ status: 'signed-in', user, expiresAt: new Date(Date.now() + 86_400_000).toISOString() })
  },
  async signOut() {
    try {
      await authApi.logout()
    } finally {
      set({ status: 'signed-out', user: null })
      navigate('/signin')
    }
  },
  expire() {
    if (get().status !== 'signed-in') return
    const back = here()
    set({ status: 'signed-out', user: null })
    toast('Your session has ended; sign in to carry on where you were.', 'warning')
    navigate(signInUrl(back), { replace: true })
  },
}))

export function startSession(): void {
  onApiError((e, path) => {
    if (e.status === 401 && !path.startsWith('/api/auth/')) useSessionStore.getState().expire()
    if (e.status === 429) toast(`Slow down: ${e.retryAfter ? `try again in ${e.retryAfter} s` : 'too many requests'}.`, 'warning')
  })
  void useSessionStore.getState().boot()
}

/** Whether the signed-in person's role allows an action (controls are hidden when not). */
export const useCan = (action: Action): boolean => {
  const role = useSessionStore((s) => s.user?.role)
  return role ? can(role, action) : false
}
