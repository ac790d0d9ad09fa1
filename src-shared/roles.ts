export const ROLES = ['viewer', 'member', 'admin'] as const
export type Role = (typeof ROLES)[number]

export const isRole = (v: unknown): v is Role => typeof v === 'string' && (ROLES as readonly string[]).includes(v)

/**
 * Every action a route or a UI control can need. The server gate and the renderer both read this
 * one table; routes the spec leaves open get their rule here (see docs/api.md).
 */
export const PERMISSIONS = {
  'bookmarks:read': ['viewer', 'member', 'admin'],
  'bookmarks:edit': ['member', 'admin'],
  'bookmarks:delete': ['member', 'admin'],
  'notes:write': ['member', 'admin'],
  'categories:read': ['viewer', 'member', 'admin'],
  'categories:manage': ['admin'],
  'stats:read': ['viewer', 'member', 'admin'],
  'mindmap:read': ['viewer', 'member', 'admin'],
  'search:use': ['member', 'admin'],
  'export:use': ['member', 'admin'],
  'pipeline:read': ['viewer', 'member', 'admin'],
  'pipeline:run': ['member', 'admin'],
  'import:use': ['admin'],
  'settings:manage': ['admin'],
  'users:manage': ['admin'],
  'media:read': ['viewer', 'member', 'admin'],
  'tokens:manage': ['member', 'admin'],
  'state:write': ['viewer', 'member', 'admin'],
  'review:use': ['viewer', 'member', 'admin'],
  'digest:read': ['viewer', 'member', 'admin'],
} as const satisfies Record<string, readonly Role[]>

export type Action = keyof typeof PERMISSIONS

export const can = (role: Role, action: Action): boolean =>
  (PERMISSIONS[action] as readonly Role[]).includes(role)

/** What each action lets a person do, in words for refusals ("Only admins can change settings"). */
export const ACTION_WORDS: Record<Action, string> = {
  'bookmarks:read': 'read the library',
  'bookmarks:edit': 'change posts (their categories)',
  'bookmarks:delete': 'delete posts',
  'notes:write': 'write notes on posts',
  'categories:read': 'see the categories',
  'categories:manage': 'create, rename, merge or delete categories',
  'stats:read': 'see the statistics',
  'mindmap:read': 'open the mind map',
  'search:use': 'use search',
  'export:use': 'export the library',
  'pipeline:read': 'watch the pipeline',
  'pipeline:run': 'run the pipeline',
  'import:use': 'import files',
  'settings:manage': 'change settings',
  'users:manage': 'manage people and invites',
  'media:read': 'see images',
  'tokens:manage': 'create API tokens',
  'state:write': 'mark posts read, starred or hidden for themselves',
  'review:use': 'use the daily review',
  'digest:read': 'read the household digest',
}

/** What a role can do, for "…; as a member you can …". */
export const ROLE_CAN: Record<Role, string> = {
  viewer: 'read the library, its statistics and the mind map',
  member: 'search, export, put posts in categories, write notes and run the pipeline',
  admin: 'do everything',
}

/**
 * A sentence a person can act on, for 403 responses and disabled controls: what only whom can do,
 * what this person can do instead, and whom to ask. No permission codes.
 */
export const forbiddenMessage = (role: Role, action: Action): string => {
  const allowed = PERMISSIONS[action] as readonly Role[]
  const who = allowed.map((r) => `${r}s`).join(' and ')
  return `Only ${who} can ${ACTION_WORDS[action]}. As a ${role} you can ${ROLE_CAN[role]}; an admin can change your role.`
}
