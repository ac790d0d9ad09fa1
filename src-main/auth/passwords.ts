import bcrypt from 'bcrypt'
import { PASSWORD_MAX_BYTES } from '../../src-shared/schemas/users.ts'

export const BCRYPT_COST = 12

export const hashPassword = (password: string, cost = BCRYPT_COST): Promise<string> => bcrypt.hash(password, cost)

/**
 * bcrypt.compare is constant-time over the hash. bcrypt reads only the first 72 bytes, so a longer
 * candidate could match a 72-byte password by its prefix; such passwords can never be set, so they
 * never match (the comparison still runs, to take the same time).
 */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const ok = await bcrypt.compare(password, hash)
  return ok && Buffer.byteLength(password, 'utf8') <= PASSWORD_MAX_BYTES
}

/**
 * A real hash of a random password, compared against when the e-mail is unknown so that an unknown
 * address and a wrong password take the same time.
 */
export const createDummyHash = (cost = BCRYPT_COST): Promise<string> =>
  bcrypt.hash(`dummy-${Math.random()}`, cost)
