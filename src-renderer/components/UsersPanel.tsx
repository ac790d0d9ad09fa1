import { useEffect, useState, type FormEvent } from 'react'
import { ROLES, type Role } from '../../src-shared/roles.ts'
import { INVITE_DEFAULT_TTL_DAYS, type Invite, type User } from '../../src-shared/schemas/users.ts'
import * as api from '../api/users.ts'
import { fmtDate, fmtRelative } from '../lib/format.ts'
import { useSessionStore } from '../stores/session.ts'
import { toast } from '../stores/toast.ts'
import { Avatar } from './Avatar.tsx'
import { ConfirmDialog, Dialog } from './Dialog.tsx'
import { Icon } from './Icon.tsx'

const ROLE_HINT: Record<Role, string> = { viewer: 'reads posts', member: 'reads, searches, edits, exports', admin: 'everything, including people and settings' }

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text)
    toast('Copied to the clipboard.', 'success')
  } catch {
    toast('Copy did not work here; select the text and copy it.', 'warning')
  }
}

function InviteDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  const [role, setRole] = useState<Role>('member')
  const [days, setDays] = useState(INVITE_DEFAULT_TTL_DAYS)
  const [created, setCreated] = useState<{ code: string; link: string; expiresAt: string } | null>(null)
  const [busy, setBusy] = useState(false)
  useEffect(() => { if (open) setCreated(null) }, [open])
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    try {
      const r = await api.createInvite(role, days)
      setCreated({ code: r.inviteCode, link: api.joinLink(r.inviteCode), expiresAt: r.expiresAt })
      onCreated()
    } catch (err) {
      toast((err as Error).message, 'error')
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog open={open} title="Invite someone" onClose={onClose}>
      {created ? (
        <div className="form">
          <p>Send this link to the person you invite. It works once, until {fmtDate(created.expiresAt)}.</p>
          <div className="field">
            <label htmlFor="join-link">Join link</label>
            <div className="copy-row">
              <input id="join-link" readOnly value={created.link} onFocus={(e) => e.target.select()} />
              <button type="button" className="btn" onClick={() => void copy(created.link)}><Icon name="copy" size={16} /> Copy link</button>
            </div>
          </div>
          <div className="field">
            <label htmlFor="join-code">Invite code</label>
            <div className="copy-row">
              <input id="join-code" readOnly value={created.code} onFocus={(e) => e.target.select()} className="mono" />
              <button type="button" className="btn" onClick={() => void copy(created.code)}><Icon name="copy" size={16} /> Copy code</button>
            </div>
          </div>
          <p className="muted">For another device on your network, turn on sharing under Sharing; the link then uses this computer’s network address.</p>
          <div className="form-actions"><button type="button" className="btn btn-primary" onClick={onClose}>Done</button></div>
        </div>
      ) : (
        <form className="form" onSubmit={submit}>
          <fieldset className="field">
            <legend>Role</legend>
            {ROLES.map((r) => (
              <label key={r} className="radio-row">
                <input type="radio" name="role" value={r} checked={role === r} onChange={() => setRole(r)} />
                <span><strong>{r}</strong> <span className="muted">— {ROLE_HINT[r]}</span></span>
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor="inv-days">Expires after (days)</label>
            <input id="inv-days" type="number" min={1} max={365} value={days} onChange={(e) => setDays(Number(e.target.value))} />
          </div>
          <div className="form-actions">
            <button type="button" className="btn" onClick={onClose}>Cancel</button>
            <button type="submit" className="btn btn-primary" disabled={busy}>Create invite</button>
          </div>
        </form>
      )}
    </Dialog>
  )
}

export function UsersPanel({ inviteOnOpen }: { inviteOnOpen?: boolean }) {
  const me = useSessionStore((s) => s.user!)
  const [users, setUsers] = useState<User[] | null>(null)
  const [invites, setInvites] = useState<Invite[] | null>(null)
  const [inviting, setInviting] = useState(!!inviteOnOpen)
  const [removing, setRemoving] = useState<User | null>(null)
  const load = () => {
    api.listUsers().then((r) => setUsers(r.users), (e) => toast(e.message, 'error'))
    api.listInvites().then((r) => setInvites(r.invites), () => setInvites([]))
  }
  useEffect(load, [])

  const changeRole = async (u: User, role: Role) => {
    try {
      const r = await api.setUserRole(u.id, role)
      setUsers((list) => list?.map((x) => (x.id === u.id ? r.user : x)) ?? null)
      toast(`${u.name} is now ${role === 'admin' ? 'an' : 'a'} ${role}.`, 'success')
    } catch (e) {
      toast((e as Error).message, 'error')
    }
  }
  const remove = async (u: User) => {
    try {
      await api.removeUser(u.id)
      setUsers((list) => list?.filter((x) => x.id !== u.id) ?? null)
      toast(`Removed ${u.name}.`, 'success')
    } catch (e) {
      toast((e as Error).message, 'error')
    }
  }
  const revoke = async (i: Invite) => {
    try {
      await api.revokeInvite(i.id)
      toast('Invite revoked.', 'success')
      load()
    } catch (e) {
      toast((e as Error).message, 'error')
    }
  }

  return (
    <>
      <section className="panel" aria-labelledby="h-people">
        <div className="panel-head">
          <h2 id="h-people" className="panel-title"><Icon name="users" size={16} /> People</h2>
          <button type="button" className="btn btn-primary btn-small" onClick={() => setInviting(true)}><Icon name="plus" size={14} /> Invite someone</button>
        </div>
        {users === null ? <p className="muted">Loading…</p> : (
          <ul className="people">
            {users.map((u) => (
              <li key={u.id} className="person">
                <Avatar name={u.name} handle={u.email} size={34} />
                <div className="person-text">
                  <strong>{u.name}{u.id === me.id && <span className="muted"> (you)</span>}</strong>
                  <span className="muted">{u.email}</span>
                </div>
                <label className="sr-only" htmlFor={`role-${u.id}`}>Role of {u.name}</label>
                <select id={`role-${u.id}`} value={u.role} disabled={u.id === me.id} onChange={(e) => void changeRole(u, e.target.value as Role)}>
                  {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
                </select>
                <button type="button" className="icon-btn" disabled={u.id === me.id} onClick={() => setRemoving(u)} aria-label={`Remove ${u.name}`} title={u.id === me.id ? 'You cannot remove yourself' : `Remove ${u.name}`}><Icon name="trash" /></button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="panel" aria-labelledby="h-inv">
        <h2 id="h-inv" className="panel-title"><Icon name="key" size={16} /> Invites</h2>
        {invites === null ? <p className="muted">Loading…</p> : invites.length === 0 ? <p className="muted">No invites yet.</p> : (
          <div className="table-wrap">
            <table className="table">
              <thead><tr><th scope="col">Code</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col">When</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
              <tbody>
                {invites.map((i) => (
                  <tr key={i.id}>
                    <td className="mono">{i.hint}…</td>
                    <td>{i.role}</td>
                    <td><span className={`pill pill-${i.status}`}>{i.status}</span></td>
                    <td data-invite-when>{inviteWhen(i)}</td>
                    <td className="num">{i.status === 'active' && <button type="button" className="btn btn-small btn-ghost btn-danger-text" onClick={() => void revoke(i)} aria-label={`Revoke invite ${i.hint}`}>Revoke</button>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <InviteDialog open={inviting} onClose={() => setInviting(false)} onCreated={load} />
      <ConfirmDialog open={!!removing} title={`Remove ${removing?.name ?? ''}?`} danger confirmLabel="Remove"
        message="They can no longer sign in. Their private notes are deleted; the library is unchanged."
        onConfirm={() => removing && void remove(removing)} onClose={() => setRemoving(null)} />
    </>
  )
}

/** What the date beside an invite means: a used invite's is when it was used, not an expiry. */
function inviteWhen(i: Invite): string {
  if (i.status === 'active') return `expires ${fmtRelative(i.expiresAt)}`
  if (i.status === 'used') return i.usedAt ? `used ${fmtDate(i.usedAt)}` : 'used'
  if (i.status === 'expired') return `expired ${fmtDate(i.expiresAt)}`
  return `revoked (would have expired ${fmtDate(i.expiresAt)})`
}
