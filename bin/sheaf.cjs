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
// Two malloc arenas for all threads: as src-main/app/server-env.ts (which says why).
const env = { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX || '2' }
const r = spawnSync(node, [entry, ...process.argv.slice(2)], { stdio: 'inherit', env })
process.exit(r.status === null ? 1 : r.status)
