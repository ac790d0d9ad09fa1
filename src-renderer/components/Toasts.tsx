import { useToastStore } from '../stores/toast.ts'
import { Icon } from './Icon.tsx'

const ICON = { info: 'sparkles', success: 'check', error: 'alert', warning: 'alert' } as const

export function Toasts() {
  const { toasts, dismiss } = useToastStore()
  return (
    <div className="toasts" role="region" aria-label="Notifications" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'}>
          <Icon name={ICON[t.kind]} />
          <span className="toast-msg">{t.message}</span>
          {t.action && <button type="button" className="btn btn-small" onClick={() => { t.action!.run(); dismiss(t.id) }}>{t.action.label}</button>}
          <button type="button" className="icon-btn" onClick={() => dismiss(t.id)} aria-label="Dismiss notification"><Icon name="x" size={14} /></button>
        </div>
      ))}
    </div>
  )
}
