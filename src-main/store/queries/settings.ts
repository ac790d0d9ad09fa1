import { connection, stmt, type Db } from '../db.ts'
import { remembered } from '../remembered.ts'
import { settings } from '../schema.ts'

/**
 * Read on every request (the signing key's version) and twice a search (the AI settings), so kept in
 * memory until the library changes (remembered.ts); parsed on each read, so no caller shares an object.
 */
export const getSetting = <T>(db: Db, key: string): T | null => {
  const text = remembered(db, `setting:${key}`, () => stmt(db, 'SELECT value FROM settings WHERE key = ?').pluck().get(key) as string | undefined)
  return text === undefined ? null : (JSON.parse(text) as T)
}

export const putSetting = (db: Db, key: string, value: unknown): void => {
  connection(db).insert(settings)
    .values({ key, value, updatedAt: Date.now() })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: Date.now() } })
    .run()
}

/** AI and pipeline settings (never keys: those live in the credential store as `ai:<provider>`). */
export interface StoredAiSettings {
  provider: 'local' | 'anthropic' | 'openai' | 'claude-cli'
  providers: {
    anthropic: { model: string | null; baseUrl: string | null }
    openai: { model: string | null; baseUrl: string | null; embeddingModel: string | null }
    'claude-cli': { model: string | null }
  }
  autoRunAfterImport: boolean
  allowPrivateMediaFetch: boolean | null
  /** Download images into the local media cache during vision_analysis. */
  fetchMedia: boolean
}

const KEY = 'ai'

export const DEFAULT_AI_SETTINGS: StoredAiSettings = {
  provider: 'local',
  providers: {
    anthropic: { model: null, baseUrl: null },
    openai: { model: null, baseUrl: null, embeddingModel: null },
    'claude-cli': { model: null },
  },
  autoRunAfterImport: true,
  allowPrivateMediaFetch: null,
  fetchMedia: true,
}

export function readAiSettings(db: Db): StoredAiSettings {
  const s = getSetting<Partial<StoredAiSettings>>(db, KEY) ?? {}
  return {
    ...DEFAULT_AI_SETTINGS,
    ...s,
    providers: {
      anthropic: { ...DEFAULT_AI_SETTINGS.providers.anthropic, ...s.providers?.anthropic },
      openai: { ...DEFAULT_AI_SETTINGS.providers.openai, ...s.providers?.openai },
      'claude-cli': { ...DEFAULT_AI_SETTINGS.providers['claude-cli'], ...s.providers?.['claude-cli'] },
    },
  }
}

export const writeAiSettings = (db: Db, s: StoredAiSettings): void => putSetting(db, KEY, s)
