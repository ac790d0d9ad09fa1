import { can } from '../../src-shared/roles.ts'
import { SHORTCUTS } from '../lib/shortcuts.ts'
import { useSessionStore } from '../stores/session.ts'
import { useUiStore } from '../stores/ui.ts'
import { Dialog } from './Dialog.tsx'

export function ShortcutsOverlay() {
  const open = useUiStore((s) => s.shortcutsOpen)
  const setShortcuts = useUiStore((s) => s.setShortcuts)
  const role = useSessionStore((s) => s.user?.role)
  const shown = SHORTCUTS.filter((s) => !s.action || (role && can(role, s.action)))
  const scopes = [...new Set(shown.map((s) => s.scope))]
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={() => setShortcuts(false)} wide>
      <div className="shortcut-cols">
        {scopes.map((scope) => (
          <section key={scope} aria-label={scope}>
            <h3 className="shortcut-scope">{scope}</h3>
            <dl className="shortcut-list">
              {shown.filter((s) => s.scope === scope).map((s) => (
                <div key={s.keys + s.what} className="shortcut-row">
                  <dt><kbd>{s.keys}</kbd></dt>
                  <dd>{s.what}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Dialog>
  )
}
