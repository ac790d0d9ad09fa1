import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp, createLogger, listen, resolveConfig, type AppOverrides, type Config, type RunningServer, type SheafApp } from '../../src-main/app/index.ts'
import { createMemoryStore } from '../../src-main/secrets/index.ts'

export interface TestServer {
  url: string
  sheaf: SheafApp
  server: RunningServer
  dataDir: string
  /** A manual clock (ms) that tests may move. */
  clock: { now: number }
  close(): Promise<void>
}

export interface TestServerOptions extends AppOverrides {
  env?: Record<string, string>
  config?: Partial<Config>
  /** Keep the data dir (for restart tests). */
  dataDir?: string
}

/** The real server on 127.0.0.1 with port 0 and a real SQLite file in a temp dir. */
export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'sheaf-test-'))
  const clock = { now: Date.now() }
  const config = {
    ...resolveConfig({ dataDir, host: '127.0.0.1', port: 0 }, {
      SHEAF_RATE_LIMIT_API: '100000/1m',
      SHEAF_RATE_LIMIT_LOGIN: '100000/1m',
      SHEAF_RATE_LIMIT_REGISTER: '100000/1m',
      SHEAF_RATE_LIMIT_TOKEN: '100000/1m',
      ...opts.env,
    }),
    ...opts.config,
  }
  const sheaf = await createApp(config, {
    clock: () => clock.now,
    secrets: createMemoryStore(),
    log: createLogger({ level: 'error', write: () => {} }),
    bcryptCost: 4,
    ...opts,
  })
  const server = await listen(sheaf, '127.0.0.1', 0)
  return {
    url: server.url,
    sheaf,
    server,
    dataDir,
    clock,
    async close() {
      await server.close()
      await sheaf.close()
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
