import type { Db } from '../db.ts'
import { getSetting, putSetting } from './settings.ts'

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
