import { createHash, randomBytes } from 'node:crypto'
import { AppError } from '../../src-shared/errors.ts'
import type { Role } from '../../src-shared/roles.ts'
import { INVITE_DEFAULT_TTL_DAYS, type Invite } from '../../src-shared/schemas/users.ts'
import { type Db, findInviteByHash, findInviteById, insertInvite, type InviteRow, listInvites, markInvite } from '../store/index.ts'

const DAY_MS = 24 * 60 * 60 * 1000
/** 160 random bits; the 4-character hint leaves well over 128 unknown. */
const CODE_BYTES = 20
const HINT_LENGTH = 4

export const hashInviteCode = (code: string): string => createHash('sha256').update(code.trim()).digest('hex')

/** A code never starts with '-': `sheaf invite revoke -Xy…` would be read as an option. */
function newCode(): string {
  for (;;) {
    const code = randomBytes(CODE_BYTES).toString('base64url')
    if (!code.startsWith('-')) return code
  }
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

function status(row: InviteRow, now: number): Invite['status'] {
  if (row.revokedAt !== null) return 'revoked'
  if (row.usedAt !== null) return 'used'
  return row.expiresAt <= now ? 'expired' : 'active'
}

export interface InviteDeps {
  db: Db
  clock: () => number
}

/** Invite codes: single use, expiring, revocable, unguessable, stored only as a SHA-256 hash. */
export function createInvites({ db, clock }: InviteDeps) {
  const toInvite = (row: InviteRow): Invite => ({
    id: row.id,
    hint: row.hint,
    role: row.role,
    status: status(row, clock()),
    createdAt: iso(row.createdAt)!,
    expiresAt: iso(row.expiresAt)!,
    createdBy: row.createdBy,
    usedAt: iso(row.usedAt),
    usedBy: row.usedBy,
  })

  function create(input: { role: Role; expiresInDays?: number; createdBy: number | null }) {
    const code = newCode()
    const now = clock()
    const row = insertInvite(db, {
      codeHash: hashInviteCode(code),
      hint: code.slice(0, HINT_LENGTH),
      role: input.role,
      createdBy: input.createdBy,
      createdAt: now,
      expiresAt: now + (input.expiresInDays ?? INVITE_DEFAULT_TTL_DAYS) * DAY_MS,
    })
    return { inviteCode: code, id: row.id, role: row.role, expiresAt: iso(row.expiresAt)! }
  }

  /** Must run inside the transaction that creates the user, so a code is never spent twice. */
  function consume(code: string, userIdFor: (role: Role) => number): void {
    const row = findInviteByHash(db, hashInviteCode(code))
    const state = row ? status(row, clock()) : 'unknown'
    if (!row || state !== 'active') {
      const why = { unknown: 'is not valid', used: 'has already been used', expired: 'has expired', revoked: 'has been revoked' }
      throw new AppError('VALIDATION_ERROR', `This invite code ${why[state as keyof typeof why] ?? 'is not valid'}; ask an admin for a new one.`, { field: 'inviteCode' })
    }
    markInvite(db, row.id, { usedAt: clock(), usedBy: userIdFor(row.role) })
  }

  /** The role an active code grants, or an error saying why it cannot be used. */
  function peek(code: string): Role {
    const row = findInviteByHash(db, hashInviteCode(code))
    if (!row || status(row, clock()) !== 'active') {
      throw new AppError('VALIDATION_ERROR', 'This invite code is not valid (unknown, used, expired or revoked); ask an admin for a new one.', { field: 'inviteCode' })
    }
    return row.role
  }

  /** Revoke by the full code or by the invite's numeric id. */
  function revoke(codeOrId: string): Invite {
    const row = /^\d+$/.test(codeOrId)
      ? findInviteById(db, Number(codeOrId))
      : findInviteByHash(db, hashInviteCode(codeOrId))
    if (!row) throw new AppError('NOT_FOUND', 'No such invite code.')
    if (row.revokedAt === null && row.usedAt === null) markInvite(db, row.id, { revokedAt: clock() })
    return toInvite(findInviteById(db, row.id)!)
  }

  const list = (): Invite[] => listInvites(db).map(toInvite)

  return { create, consume, peek, revoke, list }
}
export type Invites = ReturnType<typeof createInvites>
