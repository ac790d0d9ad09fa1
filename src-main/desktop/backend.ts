import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline as pipe } from 'node:stream/promises'
import type { ExportFormat } from '../../src-shared/desktop-api.ts'
import { DESKTOP_LOGIN_PATH } from '../../src-shared/desktop-api.ts'
import type { LanStatus } from '../../src-shared/schemas/lan.ts'
import { createApp, listen, resolveConfig, type RunningServer, type SheafApp } from '../app/index.ts'
import type { PipelineSummary } from './shell-state.ts'

export interface ImportedFile {
  path: string
  ok: boolean
  message: string
}

/** What the shell needs from the embedded server; plain Node, so tests run it against a real server. */
export interface DesktopBackend {
  /** http://127.0.0.1:<port>, the only origin the window may show. */
  origin: string
  dataDir: string
  /** The window's first URL: a fresh one-time sign-in token for the owner, then the UI. */
  startUrl(): string
  importFile(path: string): Promise<ImportedFile>
  exportTo(format: ExportFormat, path: string): Promise<{ bytes: number }>
  lanStatus(): LanStatus
  setLanSharing(on: boolean): Promise<LanStatus>
  onLanChange(listener: (s: LanStatus) => void): () => void
  /** Follows the analysis pipeline's progress stream; returns a stop function. */
  watchPipeline(listener: (p: PipelineSummary | null) => void): () => void
  /** Stops sharing, closes the listener, pauses jobs and checkpoints SQLite (the app's close()). */
  close(): Promise<void>
}

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`

/** The backend over a running app and its loopback server. */
export function backendFor(sheaf: SheafApp, server: RunningServer, opts: { reconnectMs?: number } = {}): DesktopBackend {
  const origin = new URL(server.url).origin
  const ownerToken = async () => {
    const owner = sheaf.localLogin.owner()
    if (!owner) throw new Error('Create the first admin in the window first.')
    return (await sheaf.auth.sessions.issue(owner)).token
  }

  async function importFile(path: string): Promise<ImportedFile> {
    try {
      const owner = sheaf.localLogin.owner()
      const r = await sheaf.library.importFile(path, { userId: owner?.id ?? null, limitBytes: sheaf.config.importLimitBytes })
      const parts = [plural(r.imported, 'new post'), `${r.duplicates} already there`]
      if (r.updated) parts.push(`${r.updated} updated`)
      if (r.errors) parts.push(plural(r.errors, 'record') + ' skipped with errors')
      return { path, ok: true, message: parts.join(', ') }
    } catch (e) {
      return { path, ok: false, message: (e as Error).message }
    }
  }

  async function exportTo(format: ExportFormat, path: string): Promise<{ bytes: number }> {
    const res = await fetch(`${origin}/api/export?format=${format}`, { headers: { authorization: `Bearer ${await ownerToken()}` } })
    if (!res.ok || !res.body) {
      const body = (await res.json().catch(() => ({}))) as { error?: string }
      throw new Error(body.error ?? `Export failed (HTTP ${res.status}).`)
    }
    let bytes = 0
    const counted = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>)
    counted.on('data', (chunk: Buffer) => (bytes += chunk.length))
    await pipe(counted, createWriteStream(path))
    return { bytes }
  }

  function watchPipeline(listener: (p: PipelineSummary | null) => void): () => void {
    const ac = new AbortController()
    const reconnectMs = opts.reconnectMs ?? 15_000
    const loop = async () => {
      while (!ac.signal.aborted) {
        try {
          const res = await fetch(`${origin}/api/categorize`, {
            headers: { accept: 'text/event-stream', authorization: `Bearer ${await ownerToken()}` },
            signal: ac.signal,
          })
          if (res.ok && res.body) await readEvents(res.body, listener)
        } catch {
          // no owner yet, or the server is going away
        }
        await new Promise((r) => setTimeout(r, reconnectMs).unref?.())
      }
    }
    void loop()
    return () => ac.abort()
  }

  return {
    origin,
    dataDir: sheaf.config.dataDir,
    startUrl: () => `${origin}${DESKTOP_LOGIN_PATH}?token=${sheaf.localLogin.mint()}`,
    importFile,
    exportTo,
    lanStatus: () => sheaf.lan.status(),
    setLanSharing: (on) => sheaf.lan.setEnabled(on),
    onLanChange: (l) => sheaf.lan.onChange(l),
    watchPipeline,
    close: async () => {
      await sheaf.lan.close()
      await server.close()
      await sheaf.close()
    },
  }
}

/** Parses `data: {...}` lines of the progress stream into summaries. */
async function readEvents(body: ReadableStream<Uint8Array>, listener: (p: PipelineSummary | null) => void): Promise<void> {
  const decoder = new TextDecoder()
  let buffer = ''
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true })
    let i: number
    while ((i = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, i).trim()
      buffer = buffer.slice(i + 1)
      if (!line.startsWith('data:')) continue
      try {
        const e = JSON.parse(line.slice(5)) as { stage?: string; progress?: number }
        const done = e.stage === 'complete'
        listener({ status: done ? 'completed' : 'running', progress: e.progress ?? 0, stage: done ? null : (e.stage ?? null) })
      } catch {
        // not an event we know
      }
    }
  }
}

interface DesktopPrefs {
  port?: number
}

/** Starts the embedded server on 127.0.0.1, on the remembered port when it is free (else a new one). */
export async function startBackend({ dataDir, uiDir }: { dataDir?: string; uiDir: string | null }): Promise<DesktopBackend> {
  const config = resolveConfig({ dataDir, host: '127.0.0.1', port: 0 })
  config.uiDir = uiDir
  const prefsFile = join(config.dataDir, 'desktop.json')
  let prefs: DesktopPrefs = {}
  try {
    prefs = JSON.parse(readFileSync(prefsFile, 'utf8')) as DesktopPrefs
  } catch {
    // first run
  }
  const sheaf = await createApp(config)
  // The renderer's local storage is per origin, so keeping the port keeps the user's view settings.
  const server = await listen(sheaf, '127.0.0.1', prefs.port ?? 0).catch(() => listen(sheaf, '127.0.0.1', 0))
  if (server.port !== prefs.port) {
    mkdirSync(config.dataDir, { recursive: true })
    writeFileSync(prefsFile, JSON.stringify({ ...prefs, port: server.port }, null, 2))
  }
  await sheaf.lan.resume()
  return backendFor(sheaf, server)
}
