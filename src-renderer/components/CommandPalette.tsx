import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { can } from '../../src-shared/roles.ts'
import { listBookmarks } from '../api/bookmarks.ts'
import { quickSearch } from '../api/search.ts'
import { NAV } from '../lib/nav.ts'
import { usePipelineStore } from '../stores/pipeline.ts'
import { navigate } from '../stores/router.ts'
import { useSessionStore } from '../stores/session.ts'
import { useThemeStore } from '../stores/theme.ts'
import { toast } from '../stores/toast.ts'
import { useUiStore } from '../stores/ui.ts'
import { Icon } from './Icon.tsx'

interface Item {
  id: string
  label: string
  hint?: string
  icon: string
  group: 'Posts' | 'Go to' | 'Commands'
  run: () => void
}

interface QuickHit { id: number; text: string; authorHandle: string }


export function CommandPalette() {
  const open = useUiStore((s) => s.paletteOpen)
  const setPalette = useUiStore((s) => s.setPalette)
  const role = useSessionStore((s) => s.user?.role)
  const [q, setQ] = useState('')
  const [hits, setHits] = useState<QuickHit[]>([])
  const [searching, setSearching] = useState(false)
  const [active, setActive] = useState(0)
  const ref = useRef<HTMLDialogElement>(null)
  const input = useRef<HTMLInputElement>(null)
  const close = useCallback(() => setPalette(false), [setPalette])

  useEffect(() => {
    const d = ref.current
    if (!d) return
    if (open && !d.open) {
      d.showModal()
      setQ('')
      setHits([])
      setActive(0)
      setTimeout(() => input.current?.focus(), 0)
    }
    if (!open && d.open) d.close()
  }, [open])

  useEffect(() => {
    const text = q.trim()
    if (!open || text.length < 2 || !role) {
      setHits([])
      return
    }
    const ctl = new AbortController()
    // Debounced: one request per pause in typing, well inside the per-minute request budget.
    const t = setTimeout(async () => {
      setSearching(true)
      try {
        let found: QuickHit[]
        if (can(role, 'search:use')) {
          try {
            found = (await quickSearch(text, ctl.signal)).results.map((r) => ({ id: r.id, text: r.title, authorHandle: r.authorHandle }))
          } catch (e) {
            if ((e as { status?: number }).status !== 404) throw e
            found = (await listBookmarks({ q: text, limit: 8 }, ctl.signal)).bookmarks
          }
        } else {
          found = (await listBookmarks({ q: text, limit: 8 }, ctl.signal)).bookmarks
        }
        setHits(found.slice(0, 8))
      } catch {
        if (!ctl.signal.aborted) setHits([])
      } finally {
        if (!ctl.signal.aborted) setSearching(false)
      }
    }, 220)
    return () => {
      clearTimeout(t)
      ctl.abort()
    }
  }, [q, open, role])

  const items = useMemo<Item[]>(() => {
    if (!role) return []
    const text = q.trim().toLowerCase()
    const go = (to: string) => () => { close(); navigate(to) }
    const all: Item[] = [
      ...hits.map((h) => ({ id: `post-${h.id}`, label: h.text.slice(0, 110) || '(no text)', hint: `@${h.authorHandle}`, icon: 'note', group: 'Posts' as const, run: go(`/post/${h.id}`) })),
      ...(text && can(role, 'search:use') ? [{ id: 'ask', label: `Ask: “${q.trim()}”`, hint: 'natural-language search', icon: 'sparkles', group: 'Commands' as const, run: go(`/search?q=${encodeURIComponent(q.trim())}`) }] : []),
      ...NAV.filter((n) => can(role, n.action)).map((n) => ({ id: `nav-${n.to}`, label: n.label, hint: `g ${n.key}`, icon: n.icon, group: 'Go to' as const, run: go(n.to) })),
      ...(can(role, 'pipeline:run') ? [
        { id: 'run', label: 'Run the pipeline', icon: 'play', group: 'Commands' as const, run: () => { close(); navigate('/pipeline'); usePipelineStore.getState().start().catch((e: Error) => toast(e.message, 'error')) } },
      ] : []),
      ...(can(role, 'categories:manage') ? [{ id: 'newcat', label: 'New category', icon: 'plus', group: 'Commands' as const, run: go('/categories?new=1') }] : []),
      ...(can(role, 'users:manage') ? [{ id: 'invite', label: 'Invite someone', icon: 'users', group: 'Commands' as const, run: go('/settings?tab=users&invite=1') }] : []),
      { id: 'uncat', label: 'Show uncategorised posts', icon: 'filter', group: 'Commands', run: go('/library?uncategorized=true') },
      { id: 'theme', label: 'Change theme (light, dark, system)', icon: 'moon', group: 'Commands', run: () => useThemeStore.getState().cycle() },
      { id: 'keys', label: 'Keyboard shortcuts', hint: '?', icon: 'keyboard', group: 'Commands', run: () => useUiStore.getState().setShortcuts(true) },
      { id: 'signout', label: 'Sign out', icon: 'logout', group: 'Commands', run: () => { close(); void useSessionStore.getState().signOut() } },
    ]
    return all.filter((i) => i.group === 'Posts' || i.id === 'ask' || !text || i.label.toLowerCase().includes(text))
  }, [q, hits, role, close])

  useEffect(() => setActive((a) => Math.min(a, Math.max(0, items.length - 1))), [items.length])

  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown') { e.preventDefault(); setActive((a) => (a + 1) % Math.max(1, items.length)) }
    else if (e.key === 'ArrowUp') { e.preventDefault(); setActive((a) => (a - 1 + items.length) % Math.max(1, items.length)) }
    else if (e.key === 'Enter') { e.preventDefault(); items[active]?.run() }
  }

  let lastGroup = ''
  return (
    <dialog ref={ref} className="palette" aria-label="Command palette" onClose={close} onCancel={(e) => { e.preventDefault(); close() }}
      onClick={(e) => { if (e.target === ref.current) close() }}>
      {open && (
        <div className="palette-body">
          <div className="palette-input">
            <Icon name="search" />
            <input ref={input} value={q} onChange={(e) => { setQ(e.target.value); setActive(0) }} onKeyDown={onKey}
              placeholder="Search posts, pages and commands" aria-label="Search posts, pages and commands"
              role="combobox" aria-expanded="true" aria-controls="palette-list" aria-autocomplete="list"
              aria-activedescendant={items[active] ? `pal-${items[active].id}` : undefined} />
            {searching && <span className="spinner" aria-hidden="true" />}
            <kbd>Esc</kbd>
          </div>
          <ul id="palette-list" className="palette-list" role="listbox" aria-label="Results">
            {items.length === 0 && <li className="palette-empty" role="presentation">No matches</li>}
            {items.map((it, i) => {
              const header = it.group !== lastGroup ? it.group : null
              lastGroup = it.group
              return [
                header && <li key={`h-${header}`} className="palette-group" role="presentation">{header}</li>,
                <li key={it.id} id={`pal-${it.id}`} role="option" aria-selected={i === active}
                  className={`palette-item${i === active ? ' is-active' : ''}`}
                  onMouseMove={() => setActive(i)} onClick={() => it.run()}>
                  <Icon name={it.icon} size={16} />
                  <span className="palette-label">{it.label}</span>
                  {it.hint && <span className="palette-hint">{it.hint}</span>}
                </li>,
              ]
            })}
          </ul>
        </div>
      )}
    </dialog>
  )
}
