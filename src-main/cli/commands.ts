import type { Command } from 'commander'
import { zCreateTokenBody, type ApiToken } from '../../src-shared/schemas/tokens.ts'
import { zCreateInviteBody, zEmail, zName, zPassword, zRole } from '../../src-shared/schemas/users.ts'
import type { SheafApp } from '../app/index.ts'
import type { Accounts } from '../app/open-accounts.ts'
import { readPassword } from './prompt.ts'

type Opts = Record<string, string | boolean | undefined>
const out = (line: string): void => {
  process.stdout.write(line + '\n')
}

const valid = <T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } } }, v: unknown): T => {
  const r = schema.safeParse(v)
  if (!r.success) throw new Error(r.error.issues[0].message)
  return r.data
}

/** Loaded on first use, so `--help` and usage errors answer without opening the library. */
const loadAccounts = () => import('../app/open-accounts.ts')

async function withApp<T>(cmd: Command, fn: (sheaf: Accounts) => Promise<T> | T): Promise<T> {
  const { openAccounts } = await loadAccounts()
  const sheaf = await openAccounts(cmd.optsWithGlobals().dataDir as string | undefined)
  try {
    return await fn(sheaf)
  } finally {
    await sheaf.close()
  }
}

/** The whole app (library, pipeline, ...), for commands beyond accounts. */
async function withFullApp<T>(cmd: Command, fn: (sheaf: SheafApp) => Promise<T> | T): Promise<T> {
  const { openForCli } = await import('../app/index.ts')
  const sheaf = await openForCli(cmd.optsWithGlobals().dataDir as string | undefined)
  try {
    return await fn(sheaf)
  } finally {
    await sheaf.close()
  }
}

const findUser = (sheaf: Accounts, email: string) => {
  const user = sheaf.auth.users.findByEmail(email)
  if (!user) throw new Error(`no user with the e-mail ${email} (see \`sheaf user list\`)`)
  return user
}

/** 7d, 12h, 30 (days) → days. */
export function parseExpiry(v: string): number {
  const m = /^(\d+)\s*([dh]?)$/.exec(v.trim())
  if (!m) throw new Error(`--expires must look like 7d or 48h (got "${v}")`)
  const days = m[2] === 'h' ? Math.ceil(Number(m[1]) / 24) : Number(m[1])
  return valid(zCreateInviteBody, { role: 'viewer', expiresInDays: days }).expiresInDays!
}

export function registerUserCommands(user: Command): void {
  user.command('add').description('create an account')
    .requiredOption('--email <email>').requiredOption('--name <name>')
    .option('--role <role>', 'admin, member or viewer', 'member')
    .option('--password-stdin', 'read the password from standard input')
    .action(async (o: Opts, cmd: Command) => {
      const email = valid(zEmail, o.email)
      const name = valid(zName, o.name)
      const role = valid(zRole, o.role)
      const password = valid(zPassword, await readPassword(Boolean(o.passwordStdin)))
      const created = await withApp(cmd, (s) => s.auth.users.create({ email, name, role, password }))
      out(`created ${created.role} ${created.email} (id ${created.id})`)
    })
  user.command('list').description('list accounts').option('--json', 'print JSON')
    .action(async (o: Opts, cmd: Command) => {
      const users = await withApp(cmd, (s) => s.auth.users.list())
      if (o.json) return out(JSON.stringify(users, null, 2))
      if (users.length === 0) return out('no users yet (create one with `sheaf user add`)')
      for (const u of users) out(`${String(u.id).padStart(4)}  ${u.role.padEnd(6)}  ${u.email}  ${u.name}`)
    })
  user.command('set-password').description("change a user's password").argument('<email>')
    .option('--password-stdin', 'read the password from standard input')
    .action(async (email: string, o: Opts, cmd: Command) => {
      const password = valid(zPassword, await readPassword(Boolean(o.passwordStdin)))
      await withApp(cmd, (s) => s.auth.users.setPassword(findUser(s, email).id, password))
      out(`password changed for ${email}`)
    })
  user.command('set-role').description("change a user's role").argument('<email>').argument('<role>', 'admin, member or viewer')
    .action(async (email: string, role: string, _o: Opts, cmd: Command) => {
      const r = valid(zRole, role)
      await withApp(cmd, (s) => s.auth.users.setRole(findUser(s, email).id, r))
      out(`${email} is now ${r}`)
    })
  user.command('remove').description('delete an account').argument('<email>')
    .action(async (email: string, _o: Opts, cmd: Command) => {
      await withApp(cmd, (s) => s.auth.users.remove(findUser(s, email).id))
      out(`removed ${email}`)
    })
}

export function registerInviteCommands(invite: Command): void {
  invite.command('create').description('issue a single-use invite code')
    .requiredOption('--role <role>', 'admin, member or viewer')
    .option('--expires <duration>', 'lifetime such as 7d or 48h', '7d')
    .action(async (o: Opts, cmd: Command) => {
      const role = valid(zRole, o.role)
      const expiresInDays = parseExpiry(String(o.expires))
      const created = await withApp(cmd, (s) => s.auth.invites.create({ role, expiresInDays, createdBy: null }))
      out(created.inviteCode)
      process.stderr.write(`a ${role} invite, valid until ${created.expiresAt}; it works once\n`)
    })
  invite.command('list').description('list invite codes (codes are stored hashed: shown by their first characters)')
    .option('--json', 'print JSON')
    .action(async (o: Opts, cmd: Command) => {
      const invites = await withApp(cmd, (s) => s.auth.invites.list())
      if (o.json) return out(JSON.stringify(invites, null, 2))
      if (invites.length === 0) return out('no invites')
      for (const i of invites) out(`${String(i.id).padStart(4)}  ${i.hint}…  ${i.role.padEnd(6)}  ${i.status.padEnd(7)}  expires ${i.expiresAt}`)
    })
  invite.command('revoke').description('revoke an invite by its code or id').argument('<code>')
    .action(async (code: string, _o: Opts, cmd: Command) => {
      const inv = await withApp(cmd, (s) => s.auth.invites.revoke(code))
      out(`invite ${inv.id} is ${inv.status}`)
    })
}

const tokenLine = (t: ApiToken, email: string) =>
  `${String(t.id).padStart(4)}  ${t.hint}…  ${t.readOnly ? 'read-only ' : 'read-write'}  ${email}  ${t.name}  last used ${t.lastUsedAt ?? 'never'}`

export function registerTokenCommands(token: Command): void {
  token.command('create').description("create a personal API token for a member or admin (printed once; Sheaf keeps only its hash)")
    .requiredOption('--user <email>', 'whose token it is').requiredOption('--name <name>', 'what it is for, e.g. "Claude Desktop"')
    .option('--read-only', 'it may read and search but change nothing')
    .action(async (o: Opts, cmd: Command) => {
      const body = valid(zCreateTokenBody, { name: o.name, readOnly: Boolean(o.readOnly) })
      const created = await withApp(cmd, (s) => s.auth.tokens.create(findUser(s, String(o.user)), body))
      out(created.secret)
      process.stderr.write(`token ${created.token.id} "${created.token.name}"${body.readOnly ? ' (read-only)' : ''} for ${String(o.user)}; it is shown only now, so keep it somewhere safe\n`)
    })
  token.command('list').description('list active API tokens (by their first characters)')
    .option('--user <email>', "only this person's").option('--json', 'print JSON')
    .action(async (o: Opts, cmd: Command) => {
      const rows = await withApp(cmd, (s) => {
        const owner = o.user ? findUser(s, String(o.user)).id : null
        const emails = new Map(s.auth.users.list().map((u) => [u.id, u.email]))
        return s.auth.tokens.list(owner).map((t) => ({ ...t, email: emails.get(t.userId) ?? '?' }))
      })
      if (o.json) return out(JSON.stringify(rows, null, 2))
      if (rows.length === 0) return out('no API tokens')
      for (const t of rows) out(tokenLine(t, t.email))
    })
  token.command('revoke').description('revoke an API token by its id (see `sheaf token list`); it stops working at once').argument('<id>')
    .action(async (id: string, _o: Opts, cmd: Command) => {
      if (!/^\d+$/.test(id)) throw new Error(`the token id must be a number (got "${id}"); see \`sheaf token list\``)
      const t = await withApp(cmd, (s) => s.auth.tokens.revoke(Number(id), null))
      out(`token ${t.id} "${t.name}" is revoked`)
    })
}

export function registerSecretCommands(secret: Command): void {
  secret.command('rotate').description('replace the session signing key: everyone must sign in again')
    .action(async (_o: Opts, cmd: Command) => {
      await withApp(cmd, (s) => s.auth.key.rotate())
      out('signing key rotated; every session has ended')
    })
}

export function registerImportCommand(program: Command): void {
  program.command('import').description('import an export file (any supported format) into the library')
    .argument('<file>', 'the export file, e.g. bookmarks.json or the X archive .zip')
    .option('--json', 'print the result as JSON')
    .action(async (file: string, o: Opts, cmd: Command) => {
      const r = await withFullApp(cmd, (s) => s.library.importFile(file, { limitBytes: s.config.importLimitBytes }))
      if (o.json) return out(JSON.stringify(r, null, 2))
      out(`${file}: ${r.format}; ${r.imported} imported, ${r.updated} updated, ${r.duplicates} duplicates, ${r.errors} errors`)
      for (const e of r.errorDetails.slice(0, 20)) out(`  record ${e.index}${e.postId ? ` (post ${e.postId})` : ''}: ${e.reason}`)
    })
}
