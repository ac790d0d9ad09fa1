import { z } from 'zod'
import type { Role } from '../../src-shared/roles.ts'
import { zInvite, zInviteCreated, zUser } from '../../src-shared/schemas/users.ts'
import { del, get, patch, post } from './client.ts'

export const listUsers = () => get('/api/users', { schema: z.object({ users: z.array(zUser) }) })
export const setUserRole = (id: number, role: Role) => patch(`/api/users/${id}`, { role }, { schema: z.object({ user: zUser }) })
export const removeUser = (id: number) => del(`/api/users/${id}`)
export const createInvite = (role: Role, expiresInDays: number) => post('/api/users/invite', { role, expiresInDays }, { schema: zInviteCreated })
export const listInvites = () => get('/api/users/invites', { schema: z.object({ invites: z.array(zInvite) }) })
export const revokeInvite = (idOrCode: number | string) => del(`/api/users/invites/${encodeURIComponent(String(idOrCode))}`)

/** The join link the LAN sharing page and the invite dialog both hand out. */
export const joinLink = (code: string, origin = location.origin) => `${origin}/join?code=${encodeURIComponent(code)}`
