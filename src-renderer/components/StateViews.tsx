import { useRouterStore } from '../stores/router.ts'

/** The library's own-state views; each is a filter only the signed-in person's state decides. */
export const STATE_VIEWS = [
  { id: 'all', label: 'All', query: { read: null, starred: null, hidden: null } },
  { id: 'unread', label: 'Unread', query: { read: 'false', starred: null, hidden: null } },
  { id: 'starred', label: 'Starred', query: { read: null, starred: 'true', hidden: null } },
  { id: 'hidden', label: 'Hidden', query: { read: null, starred: null, hidden: 'true' } },
] as const

export function stateViewOf(params: URLSearchParams): (typeof STATE_VIEWS)[number]['id'] {
  if (params.get('hidden') === 'true') return 'hidden'
  if (params.get('starred') === 'true') return 'starred'
  if (params.get('read') === 'false') return 'unread'
  return 'all'
}

export function StateViews({ params }: { params: URLSearchParams }) {
  const setQuery = useRouterStore((s) => s.setQuery)
  const current = stateViewOf(params)
  return (
    <div className="tabs state-views" role="group" aria-label="Your views">
      {STATE_VIEWS.map((v) => (
        <button key={v.id} type="button" className={`tab${current === v.id ? ' is-on' : ''}`} aria-pressed={current === v.id}
          onClick={() => setQuery({ ...v.query })}>{v.label}</button>
      ))}
    </div>
  )
}
