/**
 * glibc's allocator settings the server starts with. glibc reads them when the process starts, so
 * they are set by whatever starts the server: bin/sheaf.cjs (its own copy: it runs before any
 * TypeScript can; `npm run serve` goes through it), `npm start`'s Electron, the benches, and on Linux
 * the desktop app's login entry (desktop/login-item.ts) and the deb's menu entry (electron-builder.yml).
 * A value the user set is kept, except by the two desktop entries (env(1) sets it). Other C libraries
 * ignore them. docs/understanding.md ("Two malloc arenas", "Stop 27") has the measurements.
 * - MALLOC_ARENA_MAX: glibc gives each thread that allocates its own arena (up to 8 per core) and keeps
 *   what an arena once held after the thread is gone. The sentence model's thread and stage 4's worker
 *   each left one of 40-60 MB behind; with two arenas the threads share them.
 * - MALLOC_MMAP_THRESHOLD_: blocks of 4 MB and more get maps of their own, given back when freed. Left
 *   to itself glibc raises this threshold to the largest mapped block freed so far (28 MB at start,
 *   the sentence model's size) and the arenas' trim threshold to twice that, so every block under
 *   28 MB came from the arenas and up to 56 MB free at an arena's top was kept: at 100,000 posts the
 *   arenas held twice what was in use, more as the encoder stage went on. A fixed threshold also
 *   keeps the trim threshold at its 128 KB default.
 */
export const MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: String(4 << 20),
}

/** The environment to start a Sheaf server process with: `env` plus the allocator's settings it lacks. */
export const serverEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv =>
  ({ ...env, ...Object.fromEntries(Object.entries(MALLOC_ENV).map(([k, v]) => [k, env[k] || v])) })

/** The allocator's settings as env(1)'s arguments, for a desktop entry's Exec line. */
export const mallocEnvArgs = (): string => Object.entries(MALLOC_ENV).map(([k, v]) => `${k}=${v}`).join(' ')
