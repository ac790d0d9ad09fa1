import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Hono } from 'hono'
import { createAuth, type Auth } from '../auth/index.ts'
import {
  bookmarkRoutes, categorizeRoutes, categoryRoutes, createHttpApp, desktopLoginRoutes, exportRoutes, importRoutes, lanRoutes,
  mediaRoutes, mindmapRoutes, clearSpool, searchRoutes, serveGuarded, settingsRoutes, statsRoutes, type AppEnv, type RouteModule,
  digestRoutes, reviewRoutes, stateRoutes,
} from '../http/index.ts'
import { createLan, type FetchHandler, type Lan, type LanNetwork } from '../lan/index.ts'
import { createMcpHandler } from '../mcp/index.ts'
import { createLocalLogin, firstAdmin, type LocalLogin } from '../local-login/index.ts'
import { createLibrary, startWarming, type Library } from '../library/index.ts'
import { createMember, type Member } from '../member/index.ts'
import { activeEmbedder, activeReranker, createSearch, type Reranker, type Search } from '../search/index.ts'
import { createPipeline, type Pipeline } from '../pipeline/index.ts'
import { createSettings, type Settings } from '../settings/index.ts'
import { createMediaCache, createMediaFiles, type MediaFiles } from '../media/index.ts'
import { openSecretStore, type SecretStore } from '../secrets/index.ts'
import { closeDatabase, noticeCommits, openDatabase, type Db } from '../store/index.ts'
import type { Config } from './config.ts'
import { createLogger, type Logger } from './logger.ts'
import { warmRequestPaths } from './warm-paths.ts'

export interface AppOverrides {
  clock?: () => number
  log?: Logger
  secrets?: SecretStore
  bcryptCost?: number
  /** Where LAN sharing listens (tests pass a loopback address such as 127.0.0.2). */
  lanNetwork?: LanNetwork
  /** Reorders and explains search results; by default the active AI provider's, resolved per search. */
  reranker?: Reranker | null
  /** Multiplies the pipeline's batch sizes (tests use small batches to see work committed batch by batch). */
  pipelineBatchScale?: number
}

export interface SheafApp {
  config: Config
  app: Hono<AppEnv>
  db: Db
  auth: Auth
  secrets: SecretStore
  log: Logger
  /** Host names served besides loopback (LAN sharing adds to it). */
  extraHosts: Set<string>
  /** Bookmarks, categories, import, export, stats, mind map. */
  library: Library
  /** Sharing on the home network (HTTPS listener, certificates, join links). */
  lan: Lan
  /** One-time sign-in tokens for the desktop window. */
  localLogin: LocalLogin
  /** The classification pipeline (jobs, progress events). */
  pipeline: Pipeline
  /** AI provider and pipeline settings. */
  settings: Settings
  close(): Promise<void>
}

/**
 * The composition root: the one place that wires configuration, store, secrets, capabilities and
 * routes. It reads top to bottom: each piece is made from the pieces above it.
 */
export async function createApp(config: Config, overrides: AppOverrides = {}): Promise<SheafApp> {
  const log = overrides.log ?? createLogger()
  const clock = overrides.clock ?? Date.now
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
  const db = openDatabase({ file: config.dbFile, log: (m) => log.info(m) })
  try {
    const secrets = overrides.secrets ??
      (await openSecretStore({ dataDir: config.dataDir, preference: config.secretStore, warn: (m) => log.warn(m) }))
    const auth = createAuth({ db, secrets, clock, bcryptCost: overrides.bcryptCost })
    await auth.key.current()
    await bootstrapAdmin(config, auth, log)
    const spoolDir = join(config.dataDir, 'tmp')
    clearSpool(spoolDir)

    const settings = createSettings({
      db, secrets, allowPrivateMediaFetch: config.allowPrivateMediaFetch, claudeCommand: config.claudePath ?? undefined,
    })
    const mediaCache = createMediaCache({ dir: join(config.dataDir, 'media'), allowPrivate: () => settings.allowPrivateMediaFetch() })
    // Resolved per search from the current settings; the local provider has no model to rerank with.
    const remoteProvider = async () => (settings.stored().provider === 'local' ? null : settings.activeProvider())
    const reranker = overrides.reranker !== undefined
      ? overrides.reranker
      : activeReranker(remoteProvider, (m, e) => log.warn(`${m}: ${e instanceof Error ? e.message : String(e)}`))
    const search = createSearch({ db, clock, reranker, providerEmbedder: activeEmbedder(remoteProvider), log })
    const pipeline = createPipeline({
      db, clock, log, batchScale: overrides.pipelineBatchScale,
      activeProvider: () => settings.activeProvider(),
      mediaCache: () => (settings.fetchMedia() ? mediaCache : null),
      autoRunAfterImport: () => settings.autoRunAfterImport(),
      onJobsEnded: () => search.writesEnded(),
      vectors: (model) => search.vectorsOf(model),
    })
    const library = createLibrary({
      db, clock, log, tempDir: spoolDir,
      // New and changed posts: index them for search now, and auto-run the pipeline.
      onImported: (ids) => {
        search.kick()
        return pipeline.onImported(ids)
      },
      beforeCommit: (posts) => search.indexQueuedInSlices(posts),
      onCategoriesChanged: () => pipeline.categoriesChanged(),
    })
    const member = createMember({ db, clock, items: (ids, userId) => library.bookmarks.items(ids, userId) })
    const media = createMediaFiles({ db, cache: mediaCache })

    // The LAN listener serves the very app built last, from every route; `self` hands it over then.
    const self = selfFetch()
    const extraHosts = new Set(config.allowedHosts)
    const lan = createLan({
      db, secrets, dataDir: config.dataDir, clock, log, extraHosts, invites: auth.invites, fetch: self.fetch, network: overrides.lanNetwork,
      serve: (o, onListening) => serveGuarded({ ...o, limits: config.connections }, onListening),
    })
    settings.setLanStatus(() => lan.status())
    const localLogin = createLocalLogin({ clock, owner: () => firstAdmin(auth.users.list()) })

    const app = createHttpApp({
      config,
      auth,
      clock,
      logError: (m, e) => log.error(m, e),
      allowedHosts: () => [...extraHosts],
      requestBegins: () => noticeCommits(db),
      routes: routesOf({ config, spoolDir, auth, library, pipeline, search, member, settings, lan, localLogin, media }),
      mcp: createMcpHandler(async (req) => self.fetch(req, { via: 'mcp' })),
    })
    self.serve(app)
    pipeline.resume()
    const warmer = startWarming({
      db, tasks: [warmRequestPaths({ search, library, local: () => !overrides.reranker && settings.stored().provider === 'local' })],
    })

    const close = async () => {
      warmer.stop()
      await pipeline.close()
      await search.close()
      member.close()
      library.close()
      await lan.close()
      closeDatabase(db)
    }
    return { config, app, db, auth, secrets, log, extraHosts, library, lan, localLogin, pipeline, settings, close }
  } catch (e) {
    closeDatabase(db)
    throw e
  }
}

/** The app's own fetch for what serves it again (LAN, MCP's in-process calls), bound once it is built. */
function selfFetch(): { fetch: FetchHandler; serve(app: Hono<AppEnv>): void } {
  let app: Hono<AppEnv> | null = null
  return {
    fetch: (req, env) => {
      if (!app) throw new Error('the app is not built yet')
      return app.fetch(req, env as AppEnv['Bindings'])
    },
    serve: (built) => {
      app = built
    },
  }
}

interface Capabilities {
  config: Config
  spoolDir: string
  auth: Auth
  library: Library
  pipeline: Pipeline
  search: Search
  member: Member
  settings: Settings
  lan: Lan
  localLogin: LocalLogin
  media: MediaFiles
}

/** Every capability's routes, one line each, mounted under /api/<path>. */
function routesOf(c: Capabilities): RouteModule[] {
  const { library, pipeline, member } = c
  return [
    { path: '/bookmarks', routes: bookmarkRoutes({ library }) },
    { path: '/categories', routes: categoryRoutes({ library, pipeline }) },
    { path: '/stats', routes: statsRoutes({ library }) },
    { path: '/mindmap', routes: mindmapRoutes({ library }) },
    { path: '/import', routes: importRoutes({ library, limitBytes: () => c.config.importLimitBytes, spoolDir: c.spoolDir }) },
    { path: '/export', routes: exportRoutes({ library }) },
    { path: '/search', routes: searchRoutes({ search: c.search, member }) },
    { path: '/bookmarks', routes: stateRoutes({ member }) },
    { path: '/review', routes: reviewRoutes({ member }) },
    { path: '/digest', routes: digestRoutes({ member }) },
    { path: '/categorize', routes: categorizeRoutes({ pipeline }) },
    { path: '/settings', routes: settingsRoutes({ settings: c.settings }) },
    { path: '/media', routes: mediaRoutes({ media: c.media }) },
    { path: '/lan', routes: lanRoutes({ lan: c.lan }) },
    { path: '/auth/desktop', routes: desktopLoginRoutes({ localLogin: c.localLogin, sessions: c.auth.sessions }) },
  ]
}

async function bootstrapAdmin(config: Config, auth: Auth, log: Logger): Promise<void> {
  const admin = config.bootstrapAdmin
  if (!admin || auth.users.count() > 0) return
  const user = await auth.users.create({ ...admin, email: admin.email.trim().toLowerCase(), role: 'admin' })
  log.info(`created the first admin ${user.email} from SHEAF_ADMIN_EMAIL`)
}
