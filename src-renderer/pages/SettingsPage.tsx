import { can, forbiddenMessage, type Action } from '../../src-shared/roles.ts'
import { AiSettingsPanel } from '../components/AiSettingsPanel.tsx'
import { EmptyState, PageHeader } from '../components/Feedback.tsx'
import { SharingPanel } from '../components/SharingPanel.tsx'
import { TokensPanel } from '../components/TokensPanel.tsx'
import { UsersPanel } from '../components/UsersPanel.tsx'
import { useQueryParams, useRouterStore } from '../stores/router.ts'
import { useSessionStore } from '../stores/session.ts'

const TABS: ReadonlyArray<{ id: string; label: string; action: Action }> = [
  { id: 'ai', label: 'AI', action: 'settings:manage' },
  { id: 'users', label: 'People', action: 'settings:manage' },
  { id: 'sharing', label: 'Sharing', action: 'settings:manage' },
  { id: 'tokens', label: 'API tokens', action: 'tokens:manage' },
]

/** Admins see every section; members only their API tokens (a section they may not use says why). */
export function SettingsPage() {
  const params = useQueryParams()
  const setQuery = useRouterStore((s) => s.setQuery)
  const role = useSessionStore((s) => s.user!.role)
  const tabs = TABS.filter((t) => can(role, t.action))
  const asked = TABS.find((t) => t.id === params.get('tab')) ?? tabs[0]
  const tab = asked.id
  const go = (id: string) => setQuery({ tab: id === tabs[0].id ? null : id, invite: null })
  return (
    <div className="settings-page">
      <PageHeader title="Settings" />
      <div className="tabs" role="tablist" aria-label="Settings sections">
        {tabs.map((t) => (
          <button key={t.id} type="button" role="tab" id={`tab-${t.id}`} aria-selected={tab === t.id} aria-controls={`panel-${t.id}`}
            className={`tab${tab === t.id ? ' is-on' : ''}`} tabIndex={tab === t.id ? 0 : -1}
            onClick={() => go(t.id)}
            onKeyDown={(e) => {
              const i = tabs.findIndex((x) => x.id === tab)
              if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
                const next = tabs[(i + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]
                go(next.id)
                requestAnimationFrame(() => document.getElementById(`tab-${next.id}`)?.focus())
              }
            }}>
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="tab-panel">
        {!can(role, asked.action) && <EmptyState icon="key" title="Not available for your role">{forbiddenMessage(role, asked.action)}</EmptyState>}
        {can(role, asked.action) && tab === 'ai' && <AiSettingsPanel />}
        {can(role, asked.action) && tab === 'users' && <UsersPanel inviteOnOpen={params.get('invite') === '1'} />}
        {can(role, asked.action) && tab === 'sharing' && <SharingPanel />}
        {can(role, asked.action) && tab === 'tokens' && <TokensPanel />}
      </div>
    </div>
  )
}
