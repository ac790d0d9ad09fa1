export type RepoHost = 'github' | 'gitlab' | 'npm' | 'pypi' | 'crates'
export type RepoRef = { host: RepoHost; owner: string; name: string; url: string }

/** First path segments on github.com that are site pages, not owners. */
const GITHUB_RESERVED = new Set([
  'about', 'apps', 'blog', 'collections', 'contact', 'customer-stories', 'enterprise', 'events', 'explore', 'features',
  'issues', 'login', 'marketplace', 'new', 'notifications', 'orgs', 'organizations', 'pricing', 'pulls', 'readme',
  'search', 'security', 'settings', 'signup', 'site', 'sponsors', 'topics', 'trending', 'users', 'codespaces', 'copilot', 'resources', 'solutions',
])

const segments = (u: URL) => u.pathname.split('/').filter(Boolean).map((s) => decodeURIComponent(s))

/** A repository or package named by a URL, or null. Accepts URLs with or without a scheme. */
export const parseRepoUrl = (raw: string): RepoRef | null => {
  let u: URL
  try {
    u = new URL(/^https?:\/\//i.test(raw) ? raw : `https://${raw}`)
  } catch {
    return null
  }
  const host = u.hostname.toLowerCase().replace(/^www\./, '')
  const seg = segments(u)
  if (host === 'github.com') {
    if (seg.length < 2 || GITHUB_RESERVED.has(seg[0].toLowerCase())) return null
    const [owner, rawName] = seg
    const name = rawName.replace(/\.git$/, '')
    if (!/^[\w.-]+$/.test(owner) || !/^[\w.-]+$/.test(name)) return null
    return { host: 'github', owner, name, url: `https://github.com/${owner}/${name}` }
  }
  if (host === 'gitlab.com') {
    const end = seg.indexOf('-')
    const path = end >= 0 ? seg.slice(0, end) : seg
    if (path.length < 2 || ['explore', 'users', 'help', 'dashboard'].includes(path[0])) return null
    const name = path[path.length - 1].replace(/\.git$/, '')
    const owner = path.slice(0, -1).join('/')
    return { host: 'gitlab', owner, name, url: `https://gitlab.com/${owner}/${name}` }
  }
  if (host === 'npmjs.com' && seg[0] === 'package' && seg.length >= 2) {
    const scoped = seg[1].startsWith('@') && seg.length >= 3
    const owner = scoped ? seg[1] : ''
    const name = scoped ? seg[2] : seg[1]
    return { host: 'npm', owner, name, url: `https://www.npmjs.com/package/${scoped ? `${owner}/` : ''}${name}` }
  }
  if (host === 'pypi.org' && seg[0] === 'project' && seg.length >= 2) {
    return { host: 'pypi', owner: '', name: seg[1], url: `https://pypi.org/project/${seg[1]}/` }
  }
  if (host === 'crates.io' && seg[0] === 'crates' && seg.length >= 2) {
    return { host: 'crates', owner: '', name: seg[1], url: `https://crates.io/crates/${seg[1]}` }
  }
  return null
}
