/**
 * glibc gives each thread that allocates its own malloc arena (up to 8 per core) and keeps what an
 * arena once held after the thread is gone. The sentence model's thread and stage 4's worker each
 * left one of 40-60 MB behind (docs/understanding.md); with two arenas the threads share them, and
 * what one frees another reuses. Read by glibc when the process starts, so it is set by whatever
 * starts the server: bin/sheaf.cjs (its own copy: it runs before any TypeScript can; `npm run serve`
 * goes through it), `npm start`'s Electron, the benches, and on Linux the desktop app's login entry
 * (desktop/login-item.ts) and the deb's menu entry (electron-builder.yml). A value the user set is
 * kept, except by the two desktop entries (env(1) sets it). Other C libraries ignore it.
 */
export const MALLOC_ARENA_MAX = '2'

/** The environment to start a Sheaf server process with: `env` plus the allocator's setting. */
export const serverEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ ...env, MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX || MALLOC_ARENA_MAX })
