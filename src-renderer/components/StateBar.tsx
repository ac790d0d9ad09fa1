import type { MemberState } from '../../src-shared/schemas/bookmarks.ts'
import { Icon } from './Icon.tsx'

/** The signed-in person's own flags on a post, as toggles (nobody else sees them). */
export function StateBar({ state, onChange }: { state: MemberState; onChange: (change: Partial<MemberState>) => void }) {
  return (
    <div className="state-bar" role="group" aria-label="Only for you">
      <button type="button" className={`btn btn-small${state.starred ? ' btn-accent' : ''}`} aria-pressed={state.starred} onClick={() => onChange({ starred: !state.starred })}>
        <Icon name="star" size={14} /> {state.starred ? 'Starred' : 'Star'}
      </button>
      <button type="button" className="btn btn-small" aria-pressed={!state.read} onClick={() => onChange({ read: !state.read })}>
        {state.read ? 'Mark unread' : 'Mark read'}
      </button>
      <button type="button" className={`btn btn-small${state.hidden ? ' btn-accent' : ''}`} aria-pressed={state.hidden} onClick={() => onChange({ hidden: !state.hidden })}>
        <Icon name="eyeOff" size={14} /> {state.hidden ? 'Hidden for you' : 'Hide for me'}
      </button>
      <span className="muted state-note">Only you see these.</span>
    </div>
  )
}
