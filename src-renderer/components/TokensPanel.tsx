import { useEffect, useState, type FormEvent } from 'react'
import type { ApiToken, TokenCreated } from '../../src-shared/schemas/tokens.ts'
import * as api from '../api/tokens.ts'
import { fmtDate, fmtRelative } from '../lib/format.ts'
import { toast } from '../stores/toast.ts'
import { ConfirmDialog } from './Dialog.tsx'
import { Icon } from './Icon.tsx'

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text)
    toast('Copied to the clipboard.', 'success')
  } catch {
    toast('Copy did not work here; select the text and copy it.', 'warning')
  }
}

/** The secret, once: after this panel forgets it, Sheaf cannot show it again (it keeps only a hash). */
function CreatedToken({ created, onDone }: { created: TokenCreated; onDone: () => void }) {
  return (
    <div className="form" data-token-created>
      <p>Copy the token now: Sheaf keeps only a fingerprint of it and cannot show it again.</p>
      <div className="field">
        <label htmlFor="token-secret">Token “{created.token.name}”{created.token.readOnly ? ' (read-only)' : ''}</label>
        <div className="copy-row">
          <input id="token-secret" readOnly value={created.secret} onFocus={(e) => e.target.select()} className="mono" />
          <button type="button" className="btn" onClick={() => void copy(created.secret)}><Icon name="copy" size={16} /> Copy token</button>
        </div>
      </div>
      <p className="muted">
        Scripts send it as <code>Authorization: Bearer …</code>. An assistant runs <code>sheaf mcp</code> with it in <code>SHEAF_TOKEN</code> (the
        README shows the settings to paste), or connects to <code>{location.origin}/mcp</code> with it as a bearer token.
      </p>
      <div className="form-actions"><button type="button" className="btn btn-primary" onClick={onDone}>Done</button></div>
    </div>
  )
}

function CreateForm({ onCreated }: { onCreated: (c: TokenCreated) => void }) {
  const [name, setName] = useState('')
  const [readOnly, setReadOnly] = useState(false)
  const [busy, setBusy] = useState(false)
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    try {
      onCreated(await api.createToken(name, readOnly))
      setName('')
      setReadOnly(false)
    } catch (err) {
      toast((err as Error).message, 'error')
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="form" onSubmit={submit}>
      <div className="field">
        <label htmlFor="token-name">Name</label>
        <input id="token-name" required maxLength={100} placeholder="e.g. Claude Desktop" value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <label className="check">
        <input type="checkbox" checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} />
        Read-only: it can read and search, never change anything
      </label>
      <div className="form-actions"><button type="submit" className="btn btn-primary" disabled={busy || !name.trim()}>Create token</button></div>
    </form>
  )
}

/** Settings → API tokens: a person's own tokens for scripts and AI assistants. */
export function TokensPanel() {
  const [tokens, setTokens] = useState<ApiToken[] | null>(null)
  const [created, setCreated] = useState<TokenCreated | null>(null)
  const [revoking, setRevoking] = useState<ApiToken | null>(null)
  const load = () => {
    api.listTokens().then((r) => setTokens(r.tokens), (e: Error) => toast(e.message, 'error'))
  }
  useEffect(load, [])
  const revoke = async (t: ApiToken) => {
    try {
      await api.revokeToken(t.id)
      toast(`Revoked “${t.name}”; it no longer works.`, 'success')
      load()
    } catch (e) {
      toast((e as Error).message, 'error')
    }
  }
  return (
    <>
      <section className="panel" aria-labelledby="h-new-token">
        <h2 id="h-new-token" className="panel-title"><Icon name="key" size={16} /> New API token</h2>
        <p className="muted">A token lets a script or an AI assistant use the library as you, with your role.</p>
        {created ? <CreatedToken created={created} onDone={() => setCreated(null)} /> : <CreateForm onCreated={(c) => { setCreated(c); load() }} />}
      </section>
      <section className="panel" aria-labelledby="h-tokens">
        <h2 id="h-tokens" className="panel-title"><Icon name="key" size={16} /> Your tokens</h2>
        {tokens === null ? <p className="muted">Loading…</p> : tokens.length === 0 ? <p className="muted">No tokens yet.</p> : (
          <div className="table-wrap">
            <table className="table" data-tokens>
              <thead><tr><th scope="col">Name</th><th scope="col">Token</th><th scope="col">Access</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
              <tbody>
                {tokens.map((t) => (
                  <tr key={t.id}>
                    <td>{t.name}</td>
                    <td className="mono">{t.hint}…</td>
                    <td>{t.readOnly ? 'read-only' : 'read and change'}</td>
                    <td>{fmtDate(t.createdAt)}</td>
                    <td>{t.lastUsedAt ? fmtRelative(t.lastUsedAt) : 'never'}</td>
                    <td className="num"><button type="button" className="btn btn-small btn-ghost btn-danger-text" onClick={() => setRevoking(t)} aria-label={`Revoke token ${t.name}`}>Revoke</button></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <ConfirmDialog open={!!revoking} title={`Revoke “${revoking?.name ?? ''}”?`} danger confirmLabel="Revoke"
        message="Whatever uses it stops working at once. This cannot be undone; you can create a new token."
        onConfirm={() => revoking && void revoke(revoking)} onClose={() => setRevoking(null)} />
    </>
  )
}
