import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join, matchesGlob, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { mallocEnvArgs } from '../../src-main/app/server-env.ts'

/*
 * electron-builder cannot run here (it downloads the Electron runtime), so its configuration is checked
 * offline against the options documented for electron-builder 26 (www.electron.build/configuration):
 * known keys only (a typo fails), the targets we ship, icons that exist and are real images, and every
 * native module actually installed covered by asarUnpack.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8'))
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))

const TOP_LEVEL = new Set([
  'appId', 'productName', 'copyright', 'directories', 'files', 'extraFiles', 'extraResources', 'asar', 'asarUnpack',
  'npmRebuild', 'nodeGypRebuild', 'buildDependenciesFromSource', 'electronVersion', 'electronDist', 'compression',
  'artifactName', 'fileAssociations', 'protocols', 'mac', 'dmg', 'mas', 'pkg', 'win', 'nsis', 'portable', 'appx',
  'linux', 'deb', 'rpm', 'snap', 'appImage', 'flatpak', 'publish', 'afterPack', 'afterSign', 'beforeBuild',
  'extraMetadata', 'includeSubNodeModules', 'removePackageScripts', 'removePackageKeywords',
])
const PLATFORM_KEYS = {
  mac: new Set(['category', 'icon', 'target', 'hardenedRuntime', 'entitlements', 'entitlementsInherit', 'fileAssociations', 'identity', 'notarize', 'extendInfo', 'minimumSystemVersion', 'artifactName']),
  win: new Set(['icon', 'target', 'publisherName', 'signtoolOptions', 'azureSignOptions', 'fileAssociations', 'artifactName', 'requestedExecutionLevel']),
  linux: new Set(['icon', 'category', 'synopsis', 'description', 'maintainer', 'vendor', 'mimeTypes', 'target', 'desktop', 'executableName', 'fileAssociations', 'artifactName']),
}
const TARGETS = { mac: ['dmg', 'zip', 'pkg', 'mas', 'dir'], win: ['nsis', 'portable', 'appx', 'msi', 'zip', 'dir'], linux: ['AppImage', 'deb', 'rpm', 'snap', 'flatpak', 'tar.gz', 'dir'] }

const targetsOf = (platform: 'mac' | 'win' | 'linux'): string[] =>
  (config[platform].target as ({ target: string } | string)[]).map((t) => (typeof t === 'string' ? t : t.target))

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    const s = statSync(p)
    if (s.isDirectory()) yield* walk(p)
    else yield p
  }
}

/** Production dependencies and everything they pull in, by folder name under node_modules. */
function productionPackages(): Set<string> {
  const seen = new Set<string>()
  const queue = Object.keys(pkg.dependencies)
  while (queue.length) {
    const name = queue.pop()!
    if (seen.has(name)) continue
    const file = join(ROOT, 'node_modules', name, 'package.json')
    if (!existsSync(file)) continue
    seen.add(name)
    const p = JSON.parse(readFileSync(file, 'utf8'))
    queue.push(...Object.keys(p.dependencies ?? {}), ...Object.keys(p.optionalDependencies ?? {}))
  }
  return seen
}

describe('electron-builder.yml', () => {
  it('uses only documented options', () => {
    expect(Object.keys(config).filter((k) => !TOP_LEVEL.has(k))).toEqual([])
    for (const p of ['mac', 'win', 'linux'] as const) {
      expect(Object.keys(config[p]).filter((k) => !PLATFORM_KEYS[p].has(k))).toEqual([])
      expect(targetsOf(p).filter((t) => !TARGETS[p].includes(t))).toEqual([])
    }
  })

  it('builds dmg, nsis, AppImage and deb without rebuilding native modules', () => {
    expect(targetsOf('mac')).toEqual(['dmg'])
    expect(targetsOf('win')).toEqual(['nsis'])
    expect(targetsOf('linux')).toEqual(['AppImage', 'deb'])
    expect(config.npmRebuild).toBe(false)
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z0-9-]+)+$/)
    expect(pkg.main).toBe('out/main/main.js')
  })

  it("starts the deb's app from the menu with glibc's allocator settings", () => {
    expect(config.deb.desktop.entry.Exec).toBe(`env ${mallocEnvArgs()} "/opt/${config.productName}/${pkg.name}" %U`)
  })

  it('points at icons that exist and are what their name says', async () => {
    expect(readFileSync(join(ROOT, config.mac.icon)).subarray(0, 4).toString('ascii')).toBe('icns')
    expect(readFileSync(join(ROOT, config.win.icon)).readUInt16LE(2)).toBe(1)
    const sizes = []
    for (const f of readdirSync(join(ROOT, config.linux.icon))) {
      const m = await sharp(join(ROOT, config.linux.icon, f)).metadata()
      expect(`${m.width}x${m.height}.png`).toBe(f)
      sizes.push(m.width)
    }
    expect(sizes.sort((a, b) => a! - b!)).toEqual([16, 24, 32, 48, 64, 128, 256, 512, 1024])
  })

  it('packs the built app, migrations and offline language resources; keeps buildResources to the icons', () => {
    expect(config.files).toEqual(expect.arrayContaining(['package.json', 'out/**', 'drizzle/**', 'resources/**']))
    expect(config.directories.buildResources).toBe('resources/icons')
    for (const f of ['gazetteer.json', 'word-vectors.bin']) expect(existsSync(join(ROOT, 'resources', f))).toBe(true)
    const inApp = (rel: string) => config.files.some((g: string) => !g.startsWith('!') && matchesGlob(rel, g)) &&
      !config.files.some((g: string) => g.startsWith('!') && matchesGlob(rel, g.slice(1)))
    expect(inApp('resources/word-vectors.bin')).toBe(true)
    expect(inApp('drizzle/0000_initial_schema.sql')).toBe(true)
    expect(inApp('resources/icons/icon.svg')).toBe(false)
    expect(config.extraResources).toEqual([{ from: 'resources/icons/png', to: 'icons/png', filter: ['*.png'] }])
  })

  it('unpacks every installed native module of the app from the asar', () => {
    const prod = productionPackages()
    const natives = [...walk(join(ROOT, 'node_modules'))]
      .filter((f) => f.endsWith('.node'))
      .map((f) => relative(ROOT, f).split('\\').join('/'))
      .filter((f) => {
        const parts = f.split('/')
        const name = parts[1].startsWith('@') ? `${parts[1]}/${parts[2]}` : parts[1]
        return prod.has(name)
      })
    expect(natives.length).toBeGreaterThan(3)
    const unpacked = (f: string) => config.asarUnpack.some((g: string) => matchesGlob(f, g))
    expect(natives.filter((f) => !unpacked(f))).toEqual([])
    for (const m of ['better-sqlite3', 'bcrypt', '@napi-rs/keyring', 'sharp']) {
      expect(config.asarUnpack.some((g: string) => matchesGlob(`node_modules/${m}/package.json`, g))).toBe(true)
    }
  })
})

describe('worker entries of the desktop build', () => {
  it('builds every worker thread the main process starts by file as an entry of its own', () => {
    const build = readFileSync(join(ROOT, 'electron.vite.config.ts'), 'utf8')
    // The build rewrites each such URL to the entry's .js beside the bundle; all are workers' files.
    const started = [...walk(join(ROOT, 'src-main'))].flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/new URL\('\.\/([\w-]+)\.ts', import\.meta\.url\)/g)].map((m) => m[1]))
    expect(started).toEqual(expect.arrayContaining(['local-worker', 'scan-worker', 'word-memory-worker', 'import-worker']))
    for (const name of started) expect(build, `${name}.ts is started as a worker`).toContain(`'${name}': at(`)
  })
})

describe('the UI the desktop build emits', () => {
  it('asks for its assets from the root, so any route the server answers with the page (a reload of /post/12, a shared link) loads', async () => {
    const { resolveConfig: resolveDesktop } = await import('electron-vite')
    const { resolveConfig } = await import('vite')
    const desktop = await resolveDesktop({ configFile: join(ROOT, 'electron.vite.config.ts') }, 'build', 'production')
    const renderer = await resolveConfig({ ...desktop.config!.renderer, configFile: false }, 'build', 'production')
    // electron-vite's own preset is among its plugins (it would make the base './' for pages loaded from files).
    expect(renderer.plugins.map((p) => p.name)).toContain('vite:electron-renderer-config-preset')
    expect(renderer.base).toBe('/')
    const web = await resolveConfig({ configFile: join(ROOT, 'vite.web.config.ts') }, 'build', 'production')
    expect(web.base).toBe('/')
  })
})
