import type { ReactNode } from 'react'
import { can } from '../../src-shared/roles.ts'
import { isActive, NAV } from '../lib/nav.ts'
import { usePipelineStore } from '../stores/pipeline.ts'
import { useRouterStore } from '../stores/router.ts'
import { useSessionStore } from '../stores/session.ts'
import { useThemeStore } from '../stores/theme.ts'
import { useUiStore } from '../stores/ui.ts'
import { Avatar } from './Avatar.tsx'
import { Icon } from './Icon.tsx'
import { Link } from './Link.tsx'

const THEME_ICON = { light: 'sun', dark: 'moon', system: 'monitor' } as const

export function AppShell({ children }: { children: ReactNode }) {
  const path = useRouterStore((s) => s.path)
  const user = useSessionStore((s) => s.user)
  const signOut = useSessionStore((s) => s.signOut)
  const { choice, cycle } = useThemeStore()
  const { navOpen, setNav, setPalette, setShortcuts } = useUiStore()
  const running = usePipelineStore((s) => s.running)
  const items = NAV.filter((n) => user && can(user.role, n.action))
  return (
    <div className={`shell${navOpen ? ' nav-open' : ''}`}>
      <a className="skip-link" href="#main">Skip to content</a>
      <aside className="sidebar" aria-label="Sidebar">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true"><Icon name="library" size={18} /></span>
          <span className="brand-name">Sheaf</span>
        </div>
        <nav aria-label="Main">
          <ul className="nav-list">
            {items.map((n) => (
              <li key={n.to}>
                <Link to={n.to} className={`nav-link${isActive(n.to, path) ? ' is-active' : ''}`} aria-current={isActive(n.to, path) ? 'page' : undefined}
                  onClick={() => setNav(false)}>
                  <Icon name={n.icon} />
                  <span>{n.label}</span>
                  {n.to === '/pipeline' && running && <span className="nav-pulse" aria-label="running" />}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="sidebar-foot">
          {user && (
            <div className="me">
              <Avatar name={user.name} handle={user.email} size={30} />
              <div className="me-text">
                <span className="me-name">{user.name}</span>
                <span className="me-role">{user.role}</span>
              </div>
              <button type="button" className="icon-btn" onClick={() => void signOut()} aria-label="Sign out" title="Sign out"><Icon name="logout" /></button>
            </div>
          )}
        </div>
      </aside>
      <button type="button" className="scrim" aria-label="Close menu" tabIndex={navOpen ? 0 : -1} onClick={() => setNav(false)} />
      <div className="main-col">
        <header className="topbar">
          <button type="button" className="icon-btn menu-btn" onClick={() => setNav(!navOpen)} aria-label="Open menu" aria-expanded={navOpen}><Icon name="menu" /></button>
          <button type="button" className="palette-trigger" onClick={() => setPalette(true)} aria-keyshortcuts="Control+K">
            <Icon name="search" size={16} />
            <span>Search or jump to…</span>
            <kbd>Ctrl K</kbd>
          </button>
          <div className="topbar-actions">
            <button type="button" className="icon-btn" onClick={() => setShortcuts(true)} aria-label="Keyboard shortcuts (?)" title="Keyboard shortcuts (?)"><Icon name="keyboard" /></button>
            <button type="button" className="icon-btn" onClick={cycle} aria-label={`Theme: ${choice}. Change theme`} title={`Theme: ${choice}`}><Icon name={THEME_ICON[choice]} /></button>
          </div>
        </header>
        <main id="main" className="main" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  )
}
