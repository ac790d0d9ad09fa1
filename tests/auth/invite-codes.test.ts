import { describe, expect, it } from 'vitest'
import { createInvites } from '../../src-main/auth/invites.ts'
import { closeDatabase, openDatabase } from '../../src-main/store/index.ts'

describe('invite codes', () => {
  it('are 160-bit base64url strings that never start with "-" (a command line would read it as an option)', () => {
    const db = openDatabase({ file: ':memory:' })
    const invites = createInvites({ db, clock: Date.now })
    // one code in 64 would start with '-' if nothing prevented it: 2,000 draws all miss by chance ~1 time in 10^13
    const codes = Array.from({ length: 2000 }, () => invites.create({ role: 'viewer', createdBy: null }).inviteCode)
    expect(codes.every((c) => /^[A-Za-z0-9_][A-Za-z0-9_-]{26}$/.test(c))).toBe(true)
    expect(new Set(codes).size).toBe(codes.length)
    expect(invites.revoke(codes[0]).status).toBe('revoked')
    closeDatabase(db)
  })
})
