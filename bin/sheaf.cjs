#!/usr/bin/env node
// Runs the CLI on the Node 22 that the project pins (native modules need it), whatever `node` is on PATH.
const { spawnSync } = require('node:child_process')
const { join } = require('node:path')
const root = join(__dirname, '..')
const entry = join(root, 'src-main', 'cli', 'main.ts')
let node = process.execPath
if (Number(process.versions.node.split('.')[0]) !== 22) {
  try {
    node = require.resolve('node/bin/node', { paths: [root] })
  } catch {
    process.stderr.write('sheaf: Node 22 is needed; run `npm install` in ' + root + ' first\n')
    process.exit(1)
  }
}
// glibc's allocator settings, a user's own kept: src-main/app/server-env.ts's MALLOC_ENV (which says why).
const MALLOC_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: String(4 << 20) }
const env = { ...process.env }
for (const [k, v] of Object.entries(MALLOC_ENV)) env[k] = process.env[k] || v
const r = spawnSync(node, [entry, ...process.argv.slice(2)], { stdio: 'inherit', env })
process.exit(r.status === null ? 1 : r.status)
