import { AppError } from '../../src-shared/errors.ts'
import type { AiProviderName, CliStatus, ProviderTestResult, SettingsUpdate, SettingsView } from '../../src-shared/schemas/settings.ts'
import { claudeCliStatus, createProvider, LOCAL_MODEL, type AiProvider, type ClaudeCliStatus, type LocalRunner } from '../ai/index.ts'
import { ANTHROPIC_DEFAULT_MODEL, OPENAI_DEFAULT_MODEL } from '../ai/index.ts'
import type { SecretStore } from '../secrets/index.ts'
import { readAiSettings, writeAiSettings, type Db, type StoredAiSettings } from '../store/index.ts'
import { checkProviderBaseUrl, systemResolveHost, type ResolveHost } from './base-url.ts'
import { maskKey } from './mask.ts'

export { maskKey } from './mask.ts'
export { checkProviderBaseUrl, type ResolveHost } from './base-url.ts'

export interface SettingsDeps {
  db: Db
  secrets: SecretStore
  /** Config/env flag; the stored setting can turn private media fetching on too. */
  allowPrivateMediaFetch: boolean
  /** The claude executable (SHEAF_CLAUDE_PATH or `claude` on PATH). */
  claudeCommand?: string
  localRunner?: () => LocalRunner
  /** How long a claude CLI status check is reused. */
  cliStatusTtlMs?: number
  /** Resolves a provider base URL's host name when it is saved (the system resolver by default). */
  resolveHost?: ResolveHost
}

export interface LanStatus { enabled: boolean; [k: string]: unknown }

export interface Settings {
  view(): Promise<SettingsView>
  update(patch: SettingsUpdate): Promise<SettingsView>
  cliStatus(): Promise<CliStatus>
  test(provider: AiProviderName): Promise<ProviderTestResult>
  /** The configured provider, built with its key from the credential store. */
  activeProvider(): Promise<AiProvider>
  provider(name: AiProviderName): Promise<AiProvider>
  stored(): StoredAiSettings
  autoRunAfterImport(): boolean
  allowPrivateMediaFetch(): boolean
  fetchMedia(): boolean
  /** LAN sharing reports its state here (placeholder until it does). */
  setLanStatus(source: () => LanStatus): void
}

const REMOTE = ['anthropic', 'openai', 'claude-cli'] as const
type Remote = (typeof REMOTE)[number]
const keyName = (p: Remote) => `ai:${p}` as const

export function createSettings(deps: SettingsDeps): Settings {
  const { db, secrets } = deps
  const claudeCommand = deps.claudeCommand ?? 'claude'
  let lan: () => LanStatus = () => ({ enabled: false })
  let cli: { at: number; status: Promise<ClaudeCliStatus> } | null = null
  const ttl = deps.cliStatusTtlMs ?? 60_000

  const cliState = (): Promise<ClaudeCliStatus> => {
    if (!cli || Date.now() - cli.at > ttl) cli = { at: Date.now(), status: claudeCliStatus({ command: claudeCommand }) }
    return cli.status
  }

  const modelOf = (s: StoredAiSettings, p: AiProviderName): string => {
    if (p === 'local') return LOCAL_MODEL
    if (p === 'anthropic') return s.providers.anthropic.model ?? ANTHROPIC_DEFAULT_MODEL
    if (p === 'openai') return s.providers.openai.model ?? OPENAI_DEFAULT_MODEL
    return s.providers['claude-cli'].model ?? 'default'
  }

  const provider = async (name: AiProviderName): Promise<AiProvider> => {
    const s = readAiSettings(db)
    if (name === 'local') return createProvider({ name, localRunner: deps.localRunner?.() })
    if (name === 'claude-cli') return createProvider({ name, model: s.providers['claude-cli'].model, claudeCommand })
    const p = s.providers[name]
    return createProvider({
      name,
      apiKey: await secrets.get(keyName(name)),
      model: p.model,
      baseUrl: p.baseUrl,
      embeddingModel: name === 'openai' ? s.providers.openai.embeddingModel : null,
    })
  }

  const view = async (): Promise<SettingsView> => {
    const s = readAiSettings(db)
    const keys = Object.fromEntries(await Promise.all(REMOTE.map(async (p) => [p, p === 'claude-cli' ? null : await secrets.get(keyName(p))] as const))) as Record<Remote, string | null>
    const one = (p: Remote) => ({
      model: s.providers[p].model,
      baseUrl: p === 'claude-cli' ? null : s.providers[p].baseUrl,
      embeddingModel: p === 'openai' ? s.providers.openai.embeddingModel : null,
      maskedKey: maskKey(keys[p]),
      hasKey: keys[p] !== null,
    })
    const providers = { anthropic: one('anthropic'), openai: one('openai'), 'claude-cli': one('claude-cli') }
    const active = s.provider === 'local'
      ? { model: LOCAL_MODEL, baseUrl: null, embeddingModel: null, maskedKey: null, hasKey: false }
      : providers[s.provider]
    return {
      provider: s.provider,
      ...active,
      providers,
      secretStore: secrets.kind,
      autoRunAfterImport: s.autoRunAfterImport,
      allowPrivateMediaFetch: allowPrivate(s),
      fetchMedia: s.fetchMedia,
      lanSharing: lan(),
    }
  }

  const allowPrivate = (s: StoredAiSettings) => deps.allowPrivateMediaFetch || s.allowPrivateMediaFetch === true

  return {
    view,
    async update(patch) {
      const s = readAiSettings(db)
      if (patch.provider) s.provider = patch.provider
      const fields = patch.model !== undefined || patch.baseUrl !== undefined || patch.embeddingModel !== undefined || patch.apiKey !== undefined
      const target: Remote | null = patch.target ?? (patch.provider && patch.provider !== 'local' ? patch.provider : s.provider !== 'local' ? s.provider : null)
      if (fields && !target) {
        throw new AppError('VALIDATION_ERROR', 'Say which provider these fields are for: add "target" (anthropic, openai or claude-cli).', { field: 'target' })
      }
      if (target) {
        const p = s.providers[target] as { model: string | null; baseUrl?: string | null; embeddingModel?: string | null }
        if (patch.model !== undefined) p.model = patch.model
        if (patch.baseUrl !== undefined) {
          if (target === 'claude-cli') throw new AppError('VALIDATION_ERROR', 'The claude CLI has no base URL.', { field: 'baseUrl' })
          if (patch.baseUrl) await checkProviderBaseUrl(patch.baseUrl, deps.resolveHost ?? systemResolveHost)
          p.baseUrl = patch.baseUrl
        }
        if (patch.embeddingModel !== undefined) {
          if (target !== 'openai') throw new AppError('VALIDATION_ERROR', 'Only the OpenAI-compatible provider has an embedding model.', { field: 'embeddingModel' })
          p.embeddingModel = patch.embeddingModel
        }
        if (patch.apiKey !== undefined) {
          if (target === 'claude-cli') throw new AppError('VALIDATION_ERROR', 'The claude CLI uses its own sign-in (run `claude` once); it takes no API key.', { field: 'apiKey' })
          const key = patch.apiKey.trim()
          if (key === '') await secrets.delete(keyName(target))
          else await secrets.set(keyName(target), key)
        }
      }
      if (patch.autoRunAfterImport !== undefined) s.autoRunAfterImport = patch.autoRunAfterImport
      if (patch.allowPrivateMediaFetch !== undefined) s.allowPrivateMediaFetch = patch.allowPrivateMediaFetch
      if (patch.fetchMedia !== undefined) s.fetchMedia = patch.fetchMedia
      writeAiSettings(db, s)
      return view()
    },
    async cliStatus() {
      const s = readAiSettings(db)
      const c = await cliState()
      if (c.installed && c.authenticated) {
        return { authenticated: true, method: 'claude-cli-oauth', model: s.providers['claude-cli'].model ?? c.model ?? 'default' }
      }
      if (s.provider === 'local') return { authenticated: true, method: 'local', model: LOCAL_MODEL }
      if (s.provider === 'claude-cli') return { authenticated: false, method: 'claude-cli-oauth', model: modelOf(s, s.provider) }
      const hasKey = (await secrets.get(keyName(s.provider))) !== null
      const keyless = s.provider === 'openai' && !!s.providers.openai.baseUrl
      return { authenticated: hasKey || keyless, method: 'api-key', model: modelOf(s, s.provider) }
    },
    async test(name) {
      const method = name === 'local' ? 'local' : name === 'claude-cli' ? 'claude-cli-oauth' : 'api-key'
      try {
        const p = await provider(name)
        const r = await p.test(AbortSignal.timeout(120_000))
        if (name === 'claude-cli') cli = null
        return { valid: true, provider: name, method: r.method }
      } catch (e) {
        return { valid: false, provider: name, method, error: e instanceof Error ? e.message : String(e) }
      }
    },
    activeProvider: () => provider(readAiSettings(db).provider),
    provider,
    stored: () => readAiSettings(db),
    autoRunAfterImport: () => readAiSettings(db).autoRunAfterImport,
    allowPrivateMediaFetch: () => allowPrivate(readAiSettings(db)),
    fetchMedia: () => readAiSettings(db).fetchMedia,
    setLanStatus(source) {
      lan = source
    },
  }
}
