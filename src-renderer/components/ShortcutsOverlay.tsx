import { SHORTCUTS } from '../lib/shortcuts.ts'
import { useUiStore } from '../stores/ui.ts'
import { Dialog } from './Dialog.tsx'

export function ShortcutsOverlay() {
  const open = useUiStore((s) => s.shortcutsOpen)
  const setShortcuts = useUiStore((s) => s.setShortcuts)
  const scopes = [...new Set(SHORTCUTS.map((s) => s.scope))]
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={() => setShortcuts(false)} wide>
      <div className="shortcut-cols">
        {scopes.map((scope) => (
          <section key={scope} aria-label={scope}>
            <h3 className="shortcut-scope">{scope}</h3>
            <dl className="shortcut-list">
              {SHORTCUTS.filter((s) => s.scope === scope).map((s) => (
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
