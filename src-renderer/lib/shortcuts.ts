import { useEffect } from 'react'
import { can, type Action } from '../../src-shared/roles.ts'
import { NAV } from './nav.ts'
import { navigate } from '../stores/router.ts'
import { useSessionStore } from '../stores/session.ts'
import { useThemeStore } from '../stores/theme.ts'
import { useUiStore } from '../stores/ui.ts'

/** `action`: the sheet lists the key only to those whose role may do it (the key does nothing for the others). */
export const SHORTCUTS: { keys: string; what: string; scope: string; action?: Action }[] = [
  { keys: 'Ctrl K  /  ⌘ K', what: 'Search and commands', scope: 'Everywhere' },
  { keys: '?', what: 'This list', scope: 'Everywhere' },
  { keys: '/', what: 'Focus the search or filter box', scope: 'Everywhere' },
  { keys: 't', what: 'Change theme', scope: 'Everywhere' },
  ...NAV.map((n) => ({ keys: `g ${n.key}`, what: `Go to ${n.label}`, scope: 'Everywhere', action: n.action })),
  { keys: 'j  /  k', what: 'Next / previous post', scope: 'Library' },
  { keys: 'Enter', what: 'Open the highlighted post', scope: 'Library' },
  { keys: 'x', what: 'Select the highlighted post', scope: 'Library', action: 'bookmarks:edit' },
  { keys: 's', what: 'Star / unstar the highlighted post (only you see it)', scope: 'Library' },
  { keys: 'm', what: 'Mark the highlighted post read / unread', scope: 'Library' },
  { keys: 'h', what: 'Hide / show the highlighted post for yourself', scope: 'Library' },
  { keys: 'v', what: 'Switch grid / list', scope: 'Library' },
  { keys: 'Esc', what: 'Clear the selection, close a dialog', scope: 'Library' },
  { keys: 'e', what: 'Edit categories', scope: 'Post', action: 'bookmarks:edit' },
  { keys: 'o', what: 'Open on X', scope: 'Post' },
  { keys: 's  /  m  /  h', what: 'Star, mark unread, hide (for you)', scope: 'Post' },
  { keys: 'k  /  d  /  l', what: 'Keep (see again later) / done / tomorrow', scope: 'Review' },
  { keys: 'Enter', what: 'Open the post under review', scope: 'Review' },
  { keys: '← / →', what: 'Previous / next post', scope: 'Post' },
  { keys: '+ / − / 0', what: 'Zoom in / out / fit', scope: 'Mind map' },
]

export const isTyping = (e: KeyboardEvent) => {
  const t = e.target as HTMLElement | null
  return !!t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))
}

/** The app-wide keys; pages add their own with plain keydown listeners that respect isTyping. */
export function useGlobalShortcuts(): void {
  useEffect(() => {
    let pendingG = 0
    const onKey = (e: KeyboardEvent) => {
      const ui = useUiStore.getState()
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault()
        ui.setPalette(!ui.paletteOpen)
        return
      }
      if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e) || ui.paletteOpen || document.querySelector('dialog[open]')) return
      const role = useSessionStore.getState().user?.role
      if (!role) return
      if (pendingG && Date.now() - pendingG < 1200) {
        pendingG = 0
        // the second key of "g <key>" is taken here: pages skip keys whose default was prevented
        e.preventDefault()
        const item = NAV.find((n) => n.key === e.key && can(role, n.action))
        if (item) navigate(item.to)
        return
      }
      if (e.key === 'g') pendingG = Date.now()
      else if (e.key === '?') { e.preventDefault(); ui.setShortcuts(true) }
      else if (e.key === 't') useThemeStore.getState().cycle()
      else if (e.key === '/') {
        const box = document.querySelector<HTMLInputElement>('[data-search-box]')
        e.preventDefault()
        if (box) box.focus()
        else ui.setPalette(true)
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
}
