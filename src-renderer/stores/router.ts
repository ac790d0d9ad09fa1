import { useMemo } from 'react'
import { create } from 'zustand'

export interface Location {
  path: string
  search: string
}

interface RouterState extends Location {
  navigate: (to: string, opts?: { replace?: boolean }) => void
  /** Replace some query parameters, keeping the rest; empty values are removed. */
  setQuery: (patch: Record<string, string | null | undefined>, opts?: { replace?: boolean }) => void
}

const read = (): Location => ({ path: location.pathname, search: location.search })

export const useRouterStore = create<RouterState>((set, get) => ({
  ...read(),
  navigate(to, opts = {}) {
    const url = new URL(to, location.origin)
    if (url.origin !== location.origin) {
      location.assign(to)
      return
    }
    const next = url.pathname + url.search + url.hash
    if (next === location.pathname + location.search + location.hash) return
    if (opts.replace) history.replaceState(null, '', next)
    else history.pushState(null, '', next)
    set({ path: url.pathname, search: url.search })
    if (!opts.replace) window.scrollTo(0, 0)
  },
  setQuery(patch, opts = { replace: true }) {
    const qs = new URLSearchParams(get().search)
    for (const [k, v] of Object.entries(patch)) {
      if (v === null || v === undefined || v === '') qs.delete(k)
      else qs.set(k, v)
    }
    const s = qs.toString()
    get().navigate(`${get().path}${s ? `?${s}` : ''}`, opts)
  },
}))

export function startRouter(): void {
  window.addEventListener('popstate', () => useRouterStore.setState(read()))
}

export const useQueryParams = (): URLSearchParams => {
  const search = useRouterStore((s) => s.search)
  return useMemo(() => new URLSearchParams(search), [search])
}

/** Matches "/post/:id" style patterns; returns the params or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/').filter(Boolean)
  const a = path.split('/').filter(Boolean)
  if (p.length !== a.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) params[p[i].slice(1)] = decodeURIComponent(a[i])
    else if (p[i] !== a[i]) return null
  }
  return params
}

export const navigate = (to: string, opts?: { replace?: boolean }) => useRouterStore.getState().navigate(to, opts)
