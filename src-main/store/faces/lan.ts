/**
 * The store as src-main/lan/ sees it: the LAN sharing switch, kept as a setting. Every function takes the opaque
 * `Db` that openDatabase returns; nothing else of the store is lan's to call.
 */
export type { Db } from '../db.ts'
export { getSetting, putSetting } from '../queries/settings.ts'
