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
} as const satisfies Record<string, readonly Role[]>

export type Action = keyof typeof PERMISSIONS

export const can = (role: Role, action: Action): boolean =>
  (PERMISSIONS[action] as readonly Role[]).includes(role)

/** A sentence a person can act on, for 403 responses and disabled controls. */
export const forbiddenMessage = (role: Role, action: Action): string => {
  const allowed = PERMISSIONS[action] as readonly Role[]
  const who = allowed.length === 1 ? `an ${allowed[0]}` : allowed.map((r) => `${r}s`).join(' and ')
  return `Your role (${role}) cannot do this (${action}); only ${who} can. Ask an admin to change your role.`
}
