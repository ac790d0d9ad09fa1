import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import { existsSync } from 'node:fs'
import { basename, dirname, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'

const at = (p: string) => fileURLToPath(new URL(p, import.meta.url))
const ROOT = at('./')

/**
 * The UI is served over HTTP by the app's own server, to its window and to browsers on the LAN, at
 * every route (`/post/12` included): its assets must be asked for from the root. electron-vite sets a
 * production renderer's base to './' (for pages loaded from files), which made a reload of any nested
 * route, or a link to one opened in a browser, ask for `/post/assets/…` and get the page instead.
 */
const servedFromRoot = (): Plugin => ({ name: 'sheaf:served-from-root', config: () => ({ base: '/' }) })

/** Worker threads started with `new Worker(new URL('./x.ts', import.meta.url))` or startNicedWorker: built as their own entries. */
const WORKERS = {
  'local-worker': at('./src-main/ai/providers/local-worker.ts'),
  'import-worker': at('./src-main/library/import-worker.ts'),
  'language-worker': at('./src-main/library/language-worker.ts'),
  'vector-worker': at('./src-main/search/vector-worker.ts'),
  'word-memory-worker': at('./src-main/search/word-memory-worker.ts'),
  'scan-worker': at('./src-main/vectors/scan-worker.ts'),
}

/**
 * Server modules find data beside their source (`../../drizzle`, `resources/`, a worker file). Bundled
 * into out/main/main.js those relative paths would point elsewhere, so each module's
 * import.meta.url/dirname is rewritten to its source location under the app root (the nearest folder above the bundle with a package.json),
 * which holds drizzle/ and resources/ in the repo and inside the packaged app alike. Worker URLs
 * keep pointing at the bundle, where their entries are emitted as <name>.js.
 */
function sourceRelativePaths(): Plugin {
  return {
    name: 'sheaf-source-relative-paths',
    transform(code, id) {
      if (!id.startsWith(at('./src-main/')) || !code.includes('import.meta.')) return null
      const rel = relative(ROOT, dirname(id)).split(sep).join('/')
      const workers: string[] = []
      let out = code.replace(/new URL\((['"])\.\/([\w-]+)\.ts\1,\s*import\.meta\.url\)/g, (_m, _q, name: string) => {
        workers.push(`new URL('./${name}.js', import.meta.url)`)
        return `__SHEAF_WORKER_${workers.length - 1}__`
      })
      out = out
        .replace(/import\.meta\.dirname/g, `__sheafJoin(__sheafRoot, ${JSON.stringify(rel)})`)
        .replace(/import\.meta\.url/g, `__sheafToUrl(__sheafJoin(__sheafRoot, ${JSON.stringify(rel)}, ${JSON.stringify(basename(id))})).href`)
        .replace(/__SHEAF_WORKER_(\d+)__/g, (_m, i: string) => workers[Number(i)])
      // The app root is the nearest folder above the bundle file with a package.json (chunks sit deeper).
      const header = "import { join as __sheafJoin, dirname as __sheafDirname } from 'node:path'\n" +
        "import { existsSync as __sheafExists } from 'node:fs'\n" +
        "import { fileURLToPath as __sheafFromUrl, pathToFileURL as __sheafToUrl } from 'node:url'\n" +
        "let __sheafRoot = __sheafDirname(__sheafFromUrl(import.meta.url))\n" +
        "while (!__sheafExists(__sheafJoin(__sheafRoot, 'package.json')) && __sheafDirname(__sheafRoot) !== __sheafRoot) __sheafRoot = __sheafDirname(__sheafRoot)\n"
      return { code: header + out, map: null }
    },
  }
}

/**
 * One section per process (electron-vite). Sheaf's folders differ from the template's src/main,
 * src/preload and src/renderer, so each section names its entry. Building needs only the electron
 * package, not its runtime binary.
 */
export default defineConfig({
  main: {
    plugins: [sourceRelativePaths()],
    build: {
      outDir: at('./out/main'),
      // node_modules stay external (native modules, wasm, data files load from their packages).
      externalizeDeps: true,
      rollupOptions: {
        input: {
          main: at('./src-main/desktop/main.ts'),
          ...Object.fromEntries(Object.entries(WORKERS).filter(([, file]) => existsSync(file))),
        },
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: at('./out/preload'),
      // A sandboxed preload can neither be ESM nor require local files: one CommonJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { preload: at('./src-main/desktop/preload.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: at('./src-renderer'),
    base: '/',
    plugins: [react(), servedFromRoot()],
    build: {
      outDir: at('./out/renderer'),
      emptyOutDir: true,
      target: 'es2022',
      modulePreload: { polyfill: false },
      chunkSizeWarningLimit: 900,
      rollupOptions: { input: at('./src-renderer/index.html') },
    },
  },
})
