import { useEffect, useState } from 'react'
import type { LanStatus } from '../../src-shared/schemas/lan.ts'
import { fetchLan, setLan } from '../api/settings.ts'
import { toast } from '../stores/toast.ts'
import { EmptyState, Loading } from './Feedback.tsx'
import { Icon } from './Icon.tsx'
import { ExternalLink } from './Link.tsx'

export function SharingPanel() {
  const [lan, setLanState] = useState<LanStatus | null>(null)
  const [missing, setMissing] = useState(false)
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    fetchLan().then(setLanState, (e) => { if (e.status === 404) setMissing(true); else toast(e.message, 'error') })
  }, [])
  if (missing) return <EmptyState icon="wifi" title="Sharing is not available">This server does not offer network sharing.</EmptyState>
  if (!lan) return <Loading />
  const flip = async () => {
    setBusy(true)
    try {
      setLanState(await setLan(!lan.enabled))
    } catch (e) {
      toast((e as Error).message, 'error')
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="panel" aria-labelledby="h-lan">
      <div className="panel-head">
        <h2 id="h-lan" className="panel-title"><Icon name="wifi" size={16} /> Share on your home network</h2>
        <label className="switch">
          <input type="checkbox" role="switch" checked={lan.enabled} disabled={busy} onChange={() => void flip()} aria-describedby="lan-state" />
          <span className="switch-track" aria-hidden="true"><span className="switch-thumb" /></span>
          <span className="sr-only">Share on the home network</span>
        </label>
      </div>
      <p id="lan-state">{lan.running ? 'Sharing now. Others in your household can open Sheaf in a browser at:' : lan.enabled ? 'Turned on; starting…' : 'Off. Only this computer can open Sheaf.'}</p>
      {lan.running && lan.urls.length > 0 && (
        <ul className="lan-urls">{lan.urls.map((u) => <li key={u}><ExternalLink href={u} className="mono">{u}</ExternalLink></li>)}</ul>
      )}
      {lan.error && <p className="form-error" role="alert">{lan.error}</p>}
      {lan.fingerprint && (
        <dl className="kv">
          <div><dt>Certificate fingerprint</dt><dd className="mono fingerprint">{lan.fingerprint}</dd></div>
          {lan.caFingerprint && <div><dt>Sheaf authority</dt><dd className="mono fingerprint">{lan.caFingerprint}</dd></div>}
        </dl>
      )}
      {lan.running && <p className="muted">Invite people from the People tab: their join link opens Sheaf on this network.</p>}
    </section>
  )
}
