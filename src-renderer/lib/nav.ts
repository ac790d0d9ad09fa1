import type { Action } from '../../src-shared/roles.ts'

export interface NavItem {
  to: string
  label: string
  icon: string
  action: Action
  /** The second key of the "g then <key>" shortcut. */
  key: string
}

export const NAV: NavItem[] = [
  { to: '/', label: 'Dashboard', icon: 'home', action: 'stats:read', key: 'd' },
  { to: '/library', label: 'Library', icon: 'library', action: 'bookmarks:read', key: 'l' },
  { to: '/review', label: 'Review', icon: 'review', action: 'review:use', key: 'r' },
  { to: '/digest', label: 'Digest', icon: 'digest', action: 'digest:read', key: 'w' },
  { to: '/search', label: 'Search', icon: 'search', action: 'search:use', key: 's' },
  { to: '/categories', label: 'Categories', icon: 'tag', action: 'categories:read', key: 'c' },
  { to: '/mindmap', label: 'Mind map', icon: 'graph', action: 'mindmap:read', key: 'm' },
  { to: '/pipeline', label: 'Pipeline', icon: 'pipeline', action: 'pipeline:read', key: 'p' },
  { to: '/import', label: 'Import', icon: 'upload', action: 'import:use', key: 'i' },
  { to: '/export', label: 'Export', icon: 'download', action: 'export:use', key: 'e' },
  { to: '/settings', label: 'Settings', icon: 'settings', action: 'tokens:manage', key: ',' },
]

export const isActive = (to: string, path: string) => (to === '/' ? path === '/' : path === to || path.startsWith(`${to}/`))
