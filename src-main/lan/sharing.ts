import QRCode from 'qrcode'
import { AppError } from '../../src-shared/errors.ts'
import type { Role } from '../../src-shared/roles.ts'
import { DEFAULT_LAN_PORT, type JoinLink, type JoinLinkBody, type LanStatus } from '../../src-shared/schemas/lan.ts'
import type { Invites } from '../auth/index.ts'
import type { SecretStore } from '../secrets/index.ts'
import { type Db, getSetting, putSetting } from '../store/index.ts'
import { systemNetwork, type LanNetwork } from './addresses.ts'
import { createCertificates, type TlsMaterial } from './certificates.ts'
import { listenHttps, type FetchHandler, type HttpsListener, type ServeFn } from './https-listener.ts'

const SETTING = 'lan'
interface StoredLan {
  enabled: boolean
  port: number
}

export interface LanDeps {
  db: Db
  secrets: SecretStore
  dataDir: string
  clock: () => number
  log: { info(m: string): void; warn(m: string): void }
  /** The app's fetch handler, served unchanged on the LAN listener. */
  fetch: FetchHandler
  serve: ServeFn
  /** The Host check's list; sharing adds exactly the names it serves and removes them when it stops. */
  extraHosts: Set<string>
  invites: Pick<Invites, 'create' | 'peek'>
  network?: LanNetwork
}

export type LanListener = (status: LanStatus) => void

const urlHost = (h: string) => (h.includes(':') ? `[${h}]` : h)

/** Sharing the library on the home network: off by default, HTTPS only, one switch. */
export function createLan(deps: LanDeps) {
  const { db, log, extraHosts } = deps
  const network = deps.network ?? systemNetwork()
  const certs = createCertificates({ secrets: deps.secrets, dataDir: deps.dataDir, clock: deps.clock })
  const listeners = new Set<LanListener>()
  let listener: HttpsListener | null = null
  let tls: TlsMaterial | null = null
  let hosts: string[] = []
  let added: string[] = []
  let lastError: string | null = null
  let queue: Promise<unknown> = Promise.resolve()

  const stored = (): StoredLan => ({ enabled: false, port: DEFAULT_LAN_PORT, ...getSetting<StoredLan>(db, SETTING) })
  const save = (patch: Partial<StoredLan>) => putSetting(db, SETTING, { ...stored(), ...patch })

  function status(): LanStatus {
    const s = stored()
    const port = listener?.port ?? s.port
    const shown = listener ? hosts : network.servedHosts()
    return {
      enabled: s.enabled,
      running: listener !== null,
      port,
      hosts: shown,
      urls: shown.map((h) => `https://${urlHost(h)}:${port}`),
      fingerprint: tls?.fingerprint ?? null,
      caFingerprint: tls?.caFingerprint ?? null,
      error: lastError,
    }
  }

  const notify = () => {
    const s = status()
    for (const l of listeners) l(s)
  }

  /** Start/stop run one at a time, so a quick on-off-on from the UI cannot leave two listeners. */
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn)
    queue = next.catch(() => undefined)
    return next
  }

  async function doStop(): Promise<void> {
    const l = listener
    listener = null
    for (const h of added) extraHosts.delete(h)
    added = []
    if (l) {
      await l.close()
      log.info('LAN sharing stopped')
    }
  }

  async function doStart(port: number): Promise<void> {
    await doStop()
    const served = network.servedHosts().map((h) => h.toLowerCase())
    const bind = network.bindAddresses()
    try {
      if (served.length === 0 || bind.length === 0) {
        throw new AppError('VALIDATION_ERROR', 'This computer has no network address to share on; connect to your home network and try again.')
      }
      tls = await certs.ensure(served)
      listener = await listenHttps({ serve: deps.serve, fetch: deps.fetch, addresses: bind, port, tls: { key: tls.keyPem, cert: tls.certPem } })
    } catch (e) {
      const code = (e as { code?: string }).code
      lastError = code === 'EADDRINUSE'
        ? `Port ${port} is already in use on this computer; pick another port for sharing.`
        : (e as Error).message
      log.warn(`LAN sharing could not start: ${lastError}`)
      throw e instanceof AppError ? e : new AppError('VALIDATION_ERROR', lastError)
    }
    lastError = null
    hosts = served
    added = served.filter((h) => !extraHosts.has(h))
    for (const h of added) extraHosts.add(h)
    log.info(`sharing on the home network at ${status().urls.join(', ')} (certificate SHA-256 ${tls.fingerprint})`)
  }

  /** Start for this session (e.g. `sheaf serve --lan`), without changing the stored setting. */
  const start = (opts: { port?: number } = {}) =>
    serial(async () => {
      await doStart(opts.port ?? stored().port)
      notify()
      return status()
    })

  const stop = () =>
    serial(async () => {
      await doStop()
      notify()
      return status()
    })

  /** The admin's switch: stored, and applied at once. Turning it off closes every LAN connection. */
  const setEnabled = (enabled: boolean, opts: { port?: number } = {}) =>
    serial(async () => {
      if (enabled) {
        await doStart(opts.port ?? stored().port)
        save({ enabled: true, port: opts.port ?? stored().port })
      } else {
        save({ enabled: false, ...(opts.port ? { port: opts.port } : {}) })
        await doStop()
      }
      notify()
      return status()
    })

  /** At start-up: share if the stored setting says so. Failure is logged and shown, never fatal. */
  async function resume(): Promise<LanStatus> {
    if (!stored().enabled || listener) return status()
    return start().catch(() => status())
  }

  async function joinLink(body: JoinLinkBody, createdBy: number | null): Promise<JoinLink> {
    if (!listener || !tls) {
      throw new AppError('VALIDATION_ERROR', 'Turn on sharing on the home network first; the join link points at it.')
    }
    let code: string
    let role: Role
    if ('inviteCode' in body) {
      code = body.inviteCode
      role = deps.invites.peek(code)
    } else {
      const invite = deps.invites.create({ role: body.role, expiresInDays: body.expiresInDays, createdBy })
      code = invite.inviteCode
      role = invite.role
    }
    const url = `${status().urls[0]}/join?code=${encodeURIComponent(code)}`
    const qrSvg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
    return {
      url,
      inviteCode: code,
      role,
      qrSvg,
      qrDataUrl: `data:image/svg+xml;base64,${Buffer.from(qrSvg).toString('base64')}`,
      fingerprint: tls.fingerprint,
    }
  }

  /** The CA certificate (PEM), made on first use so it can be installed before sharing starts. */
  const caCertificate = (): Promise<string> => certs.caCertificate()

  const onChange = (l: LanListener): (() => void) => {
    listeners.add(l)
    return () => listeners.delete(l)
  }

  return {
    status,
    start,
    stop,
    setEnabled,
    resume,
    joinLink,
    caCertificate,
    onChange,
    /** SPKI hash of the served certificate (for tests and `--ignore-certificate-errors-spki-list`). */
    tlsMaterial: (): TlsMaterial | null => tls,
    close: () => stop().then(() => undefined),
  }
}
export type Lan = ReturnType<typeof createLan>
