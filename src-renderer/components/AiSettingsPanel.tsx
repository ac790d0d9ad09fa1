import { useEffect, useState, type FormEvent } from 'react'
import { AI_PROVIDERS, type AiProviderName, type CliStatus, type ProviderTestResult, type SettingsView } from '../../src-shared/schemas/settings.ts'
import { fetchCliStatus, fetchSettings, saveSettings, testProvider } from '../api/settings.ts'
import { toast } from '../stores/toast.ts'
import { EmptyState, Loading } from './Feedback.tsx'
import { Icon } from './Icon.tsx'

const PROVIDER_INFO: Record<AiProviderName, { title: string; text: string }> = {
  local: { title: 'Built in (offline)', text: 'Runs on this computer. Nothing leaves it; no key needed.' },
  anthropic: { title: 'Anthropic', text: 'Claude models with your API key.' },
  openai: { title: 'OpenAI-compatible', text: 'OpenAI, Ollama, LM Studio, OpenRouter, llama.cpp: a base URL, a model and a key.' },
  'claude-cli': { title: 'Claude Code CLI', text: 'Uses your signed-in `claude` command; no key stored here.' },
}

export function AiSettingsPanel() {
  const [settings, setSettings] = useState<SettingsView | null>(null)
  const [missing, setMissing] = useState(false)
  const [cli, setCli] = useState<CliStatus | null>(null)
  const [provider, setProvider] = useState<AiProviderName>('local')
  const [model, setModel] = useState('')
  const [baseUrl, setBaseUrl] = useState('')
  const [apiKey, setApiKey] = useState('')
  const [busy, setBusy] = useState(false)
  const [test, setTest] = useState<ProviderTestResult | null>(null)
  const [testing, setTesting] = useState(false)

  const fill = (s: SettingsView, p: AiProviderName) => {
    const v = p === 'local' ? null : s.providers[p]
    setModel(v?.model ?? '')
    setBaseUrl(v?.baseUrl ?? '')
    setApiKey('')
  }
  useEffect(() => {
    fetchSettings().then((s) => { setSettings(s); setProvider(s.provider); fill(s, s.provider) },
      (e) => { if (e.status === 404) setMissing(true); else toast(e.message, 'error') })
    fetchCliStatus().then(setCli, () => undefined)
  }, [])

  if (missing) return <EmptyState icon="settings" title="AI settings are not available">This server does not offer AI settings yet.</EmptyState>
  if (!settings) return <Loading />
  const target = provider === 'local' ? null : settings.providers[provider]

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    try {
      const s = await saveSettings({
        provider,
        ...(provider !== 'local' ? { target: provider, model: model.trim() || null, ...(provider === 'openai' ? { baseUrl: baseUrl.trim() || null } : {}), ...(apiKey ? { apiKey } : {}) } : {}),
      })
      setSettings(s)
      fill(s, provider)
      toast('Settings saved.', 'success')
    } catch (err) {
      toast((err as Error).message, 'error')
    } finally {
      setBusy(false)
    }
  }
  const runTest = async () => {
    setTesting(true)
    setTest(null)
    try {
      setTest(await testProvider(provider))
    } catch (err) {
      setTest({ valid: false, provider, method: '', error: (err as Error).message })
    } finally {
      setTesting(false)
    }
  }
  const toggle = async (field: 'autoRunAfterImport' | 'allowPrivateMediaFetch', value: boolean) => {
    try {
      setSettings(await saveSettings({ [field]: value }))
    } catch (err) {
      toast((err as Error).message, 'error')
    }
  }

  return (
    <>
      <form className="panel form" onSubmit={submit} aria-labelledby="h-ai">
        <h2 id="h-ai" className="panel-title"><Icon name="sparkles" size={16} /> AI provider</h2>
        <fieldset className="provider-grid">
          <legend className="sr-only">Provider</legend>
          {AI_PROVIDERS.map((p) => (
            <label key={p} className={`format-card${provider === p ? ' is-on' : ''}`}>
              <input type="radio" name="provider" value={p} checked={provider === p} onChange={() => { setProvider(p); fill(settings, p); setTest(null) }} />
              <span className="format-title">{PROVIDER_INFO[p].title}{settings.provider === p && <span className="pill pill-active">in use</span>}</span>
              <span className="format-text">{PROVIDER_INFO[p].text}</span>
            </label>
          ))}
        </fieldset>
        {provider !== 'local' && (
          <div className="grid-2">
            <div className="field">
              <label htmlFor="ai-model">Model</label>
              <input id="ai-model" value={model} onChange={(e) => setModel(e.target.value)} placeholder={provider === 'anthropic' ? 'claude-sonnet-4-5' : provider === 'openai' ? 'gpt-4o-mini' : 'default'} autoComplete="off" />
            </div>
            {provider === 'openai' && (
              <div className="field">
                <label htmlFor="ai-base">Base URL</label>
                <input id="ai-base" type="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder="https://api.openai.com/v1" autoComplete="off" />
              </div>
            )}
            {provider !== 'claude-cli' && (
              <div className="field">
                <label htmlFor="ai-key">API key</label>
                <input id="ai-key" type="password" value={apiKey} onChange={(e) => setApiKey(e.target.value)} autoComplete="new-password"
                  placeholder={target?.hasKey ? `Stored: ${target.maskedKey ?? '••••'} (type to replace)` : 'Paste your key'} aria-describedby="ai-key-hint" />
                <p id="ai-key-hint" className="field-hint">Write-only: the key is kept in {secretStoreWords(settings.secretStore, true)} and never shown again.</p>
              </div>
            )}
          </div>
        )}
        <div className="form-actions">
          <span role="status" className="test-result">
            {testing && 'Testing…'}
            {test && (test.valid
              ? <span className="ok"><Icon name="check" size={14} /> Connected ({test.method})</span>
              : <span className="bad"><Icon name="alert" size={14} /> {test.error ?? 'Not connected'}</span>)}
          </span>
          <button type="button" className="btn" onClick={() => void runTest()} disabled={testing}>Test connection</button>
          <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Saving…' : 'Save'}</button>
        </div>
      </form>
      <section className="panel" aria-labelledby="h-env">
        <h2 id="h-env" className="panel-title"><Icon name="key" size={16} /> Credentials and behaviour</h2>
        <dl className="kv">
          <div><dt>Secret store</dt><dd data-secret-store>{secretStoreWords(settings.secretStore)}</dd></div>
          <div><dt>Analysis</dt><dd data-analysis>{analysisWords(settings.provider, cli)}</dd></div>
          <div><dt>Claude CLI</dt><dd data-claude-cli>{cli ? claudeCliWords(cli) : '–'}</dd></div>
        </dl>
        <label className="check">
          <input type="checkbox" checked={settings.autoRunAfterImport} onChange={(e) => void toggle('autoRunAfterImport', e.target.checked)} />
          Run the pipeline after each import
        </label>
        <label className="check">
          <input type="checkbox" checked={settings.allowPrivateMediaFetch} onChange={(e) => void toggle('allowPrivateMediaFetch', e.target.checked)} />
          Allow fetching media from private network addresses
        </label>
      </section>
    </>
  )
}

/** The secret store as it is: no "encrypted" for a plain file that only file permissions protect. */
function secretStoreWords(kind: string, inSentence = false): string {
  const words = kind === 'keychain' ? "the operating system's credential store (Keychain, Credential Manager or Secret Service)"
    : kind === 'file' ? 'a file in the data folder that only your account can read (secrets.json, not encrypted)'
      : kind === 'memory' ? 'memory only (lost when Sheaf stops)' : kind
  return inSentence ? words : words.charAt(0).toUpperCase() + words.slice(1)
}

/**
 * GET /api/settings/cli-status reports the Claude CLI only when a `claude` command exists and answers
 * (method claude-cli-oauth); otherwise it reports the active method, which is not the CLI's state.
 */
function claudeCliWords(s: CliStatus): string {
  if (s.method === 'claude-cli-oauth') return s.authenticated ? `Signed in; model ${s.model}` : 'Not signed in, or the claude command did not answer'
  return 'Not found on this computer, or not signed in (no claude command answered)'
}

/** The provider in use, named as what it is. */
function analysisWords(provider: AiProviderName, s: CliStatus | null): string {
  if (provider === 'local') return 'Built-in local analysis on this computer: no account, nothing leaves the machine'
  if (provider === 'claude-cli') return s?.method === 'claude-cli-oauth' && s.authenticated ? `${PROVIDER_INFO[provider].title}, signed in` : `${PROVIDER_INFO[provider].title}, not signed in`
  if (!s || s.method !== 'api-key') return PROVIDER_INFO[provider].title
  return `${PROVIDER_INFO[provider].title}: ${s.authenticated ? 'credentials saved' : 'no API key saved yet'}; model ${s.model}`
}
