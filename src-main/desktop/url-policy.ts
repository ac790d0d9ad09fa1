/**
 * Where the desktop window may go. Pure functions (no Electron), unit-tested: the window stays on the
 * app's own origin; other web pages open in the system browser; everything else is refused.
 */
export type NavigationAction = 'allow' | 'external' | 'deny'

const parse = (url: string): URL | null => {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/** http(s) only, no embedded credentials, a real host: safe to hand to the system browser. */
export function isSafeExternalUrl(url: string): boolean {
  const u = parse(url)
  if (!u) return false
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return false
  if (u.username || u.password) return false
  return u.hostname.length > 0
}

export function isAppUrl(url: string, appOrigin: string): boolean {
  const u = parse(url)
  return u !== null && (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === appOrigin
}

/** The decision for a navigation or a window.open of `url` from the window showing `appOrigin`. */
export function navigationAction(url: string, appOrigin: string): NavigationAction {
  if (isAppUrl(url, appOrigin)) return 'allow'
  return isSafeExternalUrl(url) ? 'external' : 'deny'
}
