import { zTokenCreated, zTokenList } from '../../src-shared/schemas/tokens.ts'
import { del, get, post } from './client.ts'

export const listTokens = () => get('/api/tokens', { schema: zTokenList })
export const createToken = (name: string, readOnly: boolean) => post('/api/tokens', { name, readOnly }, { schema: zTokenCreated })
export const revokeToken = (id: number) => del(`/api/tokens/${id}`)
