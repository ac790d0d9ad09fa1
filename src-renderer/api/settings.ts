import type { Role } from '../../src-shared/roles.ts'
import { zJoinLink, zLanStatus } from '../../src-shared/schemas/lan.ts'
import { zCliStatus, zProviderTestResult, zSettingsView, type AiProviderName, type SettingsUpdate } from '../../src-shared/schemas/settings.ts'
import { get, post, put } from './client.ts'

export const fetchSettings = () => get('/api/settings', { schema: zSettingsView })
export const saveSettings = (body: SettingsUpdate) => put('/api/settings', body, { schema: zSettingsView })
export const fetchCliStatus = () => get('/api/settings/cli-status', { schema: zCliStatus })
export const testProvider = (provider: AiProviderName) => post('/api/settings/test', { provider }, { schema: zProviderTestResult })

export const fetchLan = () => get('/api/lan', { schema: zLanStatus })
export const setLan = (enabled: boolean) => put('/api/lan', { enabled }, { schema: zLanStatus })
export const createJoinLink = (body: { role: Role; expiresInDays?: number } | { inviteCode: string }) =>
  post('/api/lan/join-link', body, { schema: zJoinLink })
