/**
 * The store as src-main/auth/ sees it: accounts, invites, API tokens and the signing key (settings). Every
 * function takes the opaque `Db` that openDatabase returns; nothing else of the store is auth's to call.
 */
export { transaction, type Db } from '../db.ts'
export {
  findApiTokenByHash, findApiTokenById, insertApiToken, listApiTokens, markApiTokenUsed, revokeApiToken, type ApiTokenRow,
} from '../queries/api-tokens.ts'
export {
  findInviteByHash, findInviteById, insertInvite, listInvites, markInvite, type InviteRow,
} from '../queries/invites.ts'
export { getSetting, putSetting } from '../queries/settings.ts'
export {
  countAdmins, countUsers, deleteUser, findUserByEmail, findUserById, insertUser, listUsers, updateUser, type UserRow,
} from '../queries/users.ts'
