import { zAuthResponse, zMeResponse, zSessionStatus, zSetupStatus, type User } from '../../src-shared/schemas/users.ts'
import { get, post } from './client.ts'

export const fetchSetupStatus = () => get('/api/auth/setup', { schema: zSetupStatus })
export const fetchSession = () => get('/api/auth/session', { schema: zSessionStatus })
export const setupAdmin = (body: { name: string; email: string; password: string }) =>
  post('/api/auth/setup', body, { schema: zAuthResponse })
export const login = (body: { email: string; password: string }) => post('/api/auth/login', body, { schema: zAuthResponse })
export const register = (body: { name: string; email: string; password: string; inviteCode: string }) =>
  post('/api/auth/register', body, { schema: zAuthResponse })
export const logout = () => post('/api/auth/logout')
export const refresh = () => post('/api/auth/refresh', {}, { schema: zMeResponse })
export type { User }
