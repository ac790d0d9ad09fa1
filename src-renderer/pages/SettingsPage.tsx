import { AiSettingsPanel } from '../components/AiSettingsPanel.tsx'
import { PageHeader } from '../components/Feedback.tsx'
import { SharingPanel } from '../components/SharingPanel.tsx'
import { UsersPanel } from '../components/UsersPanel.tsx'
import { useQueryParams, useRouterStore } from '../stores/router.ts'

const TABS = [
  { id: 'ai', label: 'AI' },
  { id: 'users', label: 'People' },
  { id: 'sharing', label: 'Sharing' },
] as const

export function SettingsPage() {
  const params = useQueryParams()
  const setQuery = useRouterStore((s) => s.setQuery)
  const tab = TABS.find((t) => t.id === params.get('tab'))?.id ?? 'ai'
  return (
    <div className="settings-page">
      <PageHeader title="Settings" />
      <div className="tabs" role="tablist" aria-label="Settings sections">
        {TABS.map((t) => (
          <button key={t.id} type="button" role="tab" id={`tab-${t.id}`} aria-selected={tab === t.id} aria-controls={`panel-${t.id}`}
            className={`tab${tab === t.id ? ' is-on' : ''}`} tabIndex={tab === t.id ? 0 : -1}
            onClick={() => setQuery({ tab: t.id === 'ai' ? null : t.id, invite: null })}
            onKeyDown={(e) => {
              const i = TABS.findIndex((x) => x.id === tab)
              if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
                const next = TABS[(i + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length]
                setQuery({ tab: next.id === 'ai' ? null : next.id })
                requestAnimationFrame(() => document.getElementById(`tab-${next.id}`)?.focus())
              }
            }}>
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="tab-panel">
        {tab === 'ai' && <AiSettingsPanel />}
        {tab === 'users' && <UsersPanel inviteOnOpen={params.get('invite') === '1'} />}
        {tab === 'sharing' && <SharingPanel />}
      </div>
    </div>
  )
}
