import bcrypt from 'bcrypt'

export const BCRYPT_COST = 12

export const hashPassword = (password: string, cost = BCRYPT_COST): Promise<string> => bcrypt.hash(password, cost)

/** bcrypt.compare is constant-time over the hash. */
export const verifyPassword = (password: string, hash: string): Promise<boolean> => bcrypt.compare(password, hash)

/**
 * A real hash of a random password, compared against when the e-mail is unknown so that an unknown
 * address and a wrong password take the same time.
 */
export const createDummyHash = (cost = BCRYPT_COST): Promise<string> =>
  bcrypt.hash(`dummy-${Math.random()}`, cost)
