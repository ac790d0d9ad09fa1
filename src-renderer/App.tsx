import { lazy, Suspense, useEffect, type ComponentType } from 'react'
import { can, forbiddenMessage, type Action } from '../src-shared/roles.ts'
import { AppShell } from './components/AppShell.tsx'
import { CommandPalette } from './components/CommandPalette.tsx'
import { EmptyState, Loading } from './components/Feedback.tsx'
import { GlobalDrop } from './components/GlobalDrop.tsx'
import { PageBoundary } from './components/PageBoundary.tsx'
import { ShortcutsOverlay } from './components/ShortcutsOverlay.tsx'
import { Toasts } from './components/Toasts.tsx'
import { useGlobalShortcuts } from './lib/shortcuts.ts'
import { AuthPage } from './pages/AuthPage.tsx'
import { DashboardPage } from './pages/DashboardPage.tsx'
import { LibraryPage } from './pages/LibraryPage.tsx'
import { matchPath, navigate, useRouterStore } from './stores/router.ts'
import { PUBLIC_PATHS, signInUrl, useSessionStore } from './stores/session.ts'

const PostPage = lazy(() => import('./pages/PostPage.tsx').then((m) => ({ default: m.PostPage })))
const SearchPage = lazy(() => import('./pages/SearchPage.tsx').then((m) => ({ default: m.SearchPage })))
const CategoriesPage = lazy(() => import('./pages/CategoriesPage.tsx').then((m) => ({ default: m.CategoriesPage })))
const MindmapPage = lazy(() => import('./pages/MindmapPage.tsx').then((m) => ({ default: m.MindmapPage })))
const PipelinePage = lazy(() => import('./pages/PipelinePage.tsx').then((m) => ({ default: m.PipelinePage })))
const ImportPage = lazy(() => import('./pages/ImportPage.tsx').then((m) => ({ default: m.ImportPage })))
const ExportPage = lazy(() => import('./pages/ExportPage.tsx').then((m) => ({ default: m.ExportPage })))
const ReviewPage = lazy(() => import('./pages/ReviewPage.tsx').then((m) => ({ default: m.ReviewPage })))
const DigestPage = lazy(() => import('./pages/DigestPage.tsx').then((m) => ({ default: m.DigestPage })))
const SettingsPage = lazy(() => import('./pages/SettingsPage.tsx').then((m) => ({ default: m.SettingsPage })))

interface Route {
  path: string
  action: Action
  title: string
  Page: ComponentType<{ params: Record<string, string> }>
}

const ROUTES: Route[] = [
  { path: '/', action: 'stats:read', title: 'Dashboard', Page: DashboardPage },
  { path: '/library', action: 'bookmarks:read', title: 'Library', Page: LibraryPage },
  { path: '/post/:id', action: 'bookmarks:read', title: 'Post', Page: PostPage },
  { path: '/search', action: 'search:use', title: 'Search', Page: SearchPage },
  { path: '/categories', action: 'categories:read', title: 'Categories', Page: CategoriesPage },
  { path: '/mindmap', action: 'mindmap:read', title: 'Mind map', Page: MindmapPage },
  { path: '/pipeline', action: 'pipeline:read', title: 'Pipeline', Page: PipelinePage },
  { path: '/import', action: 'import:use', title: 'Import', Page: ImportPage },
  { path: '/export', action: 'export:use', title: 'Export', Page: ExportPage },
  { path: '/settings', action: 'tokens:manage', title: 'Settings', Page: SettingsPage },
  { path: '/review', action: 'review:use', title: 'Review', Page: ReviewPage },
  { path: '/digest', action: 'digest:read', title: 'Digest', Page: DigestPage },
]

function Signed() {
  const path = useRouterStore((s) => s.path)
  const role = useSessionStore((s) => s.user!.role)
  let found: { route: Route; params: Record<string, string> } | null = null
  for (const route of ROUTES) {
    const params = matchPath(route.path, path)
    if (params) {
      found = { route, params }
      break
    }
  }
  const title = found ? `${found.route.title} · Sheaf` : 'Not found · Sheaf'
  useEffect(() => { document.title = title }, [title])
  // Move focus to the page for screen readers after a navigation.
  useEffect(() => document.getElementById('main')?.focus({ preventScroll: true }), [path])
  let body
  if (!found) {
    body = <EmptyState icon="alert" title="This page does not exist" action={<button type="button" className="btn btn-primary" onClick={() => navigate('/')}>Go to the dashboard</button>} />
  } else if (!can(role, found.route.action)) {
    body = <EmptyState icon="key" title="Not available for your role">{forbiddenMessage(role, found.route.action)}</EmptyState>
  } else {
    const { Page } = found.route
    body = <Page params={found.params} />
  }
  return (
    <AppShell>
      <PageBoundary key={path}><Suspense fallback={<Loading />}>{body}</Suspense></PageBoundary>
    </AppShell>
  )
}

export function App() {
  const status = useSessionStore((s) => s.status)
  const path = useRouterStore((s) => s.path)
  useGlobalShortcuts()

  useEffect(() => {
    if (status === 'signed-out' && !PUBLIC_PATHS.has(path)) navigate(signInUrl(), { replace: true })
    if (status === 'signed-in' && (path === '/signin' || path === '/setup')) {
      const next = new URLSearchParams(location.search).get('next')
      navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : '/', { replace: true })
    }
    if (status === 'needs-setup' && path !== '/setup') navigate('/setup', { replace: true })
  }, [status, path])

  let content
  if (status === 'loading') content = <div className="splash"><Loading label="Opening your library…" /></div>
  else if (status === 'offline') {
    content = (
      <div className="splash">
        <EmptyState icon="alert" title="Sheaf is not reachable" action={<button type="button" className="btn btn-primary" onClick={() => location.reload()}>Try again</button>}>
          The app could not reach its server. If Sheaf was closed, start it again.
        </EmptyState>
      </div>
    )
  } else if (status === 'setup-elsewhere') {
    content = (
      <div className="splash">
        <EmptyState icon="key" title="Sheaf is not set up yet">
          The first account is created on the computer where Sheaf runs. Open Sheaf there, create the admin account,
          then ask for an invite link.
        </EmptyState>
      </div>
    )
  } else if (status === 'signed-in' && path !== '/join' && path !== '/register') content = <Signed />
  else content = <AuthPage />

  return (
    <>
      {content}
      {status === 'signed-in' && <><CommandPalette /><ShortcutsOverlay /><GlobalDrop /></>}
      <Toasts />
    </>
  )
}
