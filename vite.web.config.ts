import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const root = fileURLToPath(new URL('./src-renderer', import.meta.url))
const outDir = fileURLToPath(new URL('./out/renderer', import.meta.url))

/** The renderer as a plain web build: served by `sheaf serve` to the desktop window and LAN browsers. */
export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // The CSP forbids inline scripts; the polyfill would be bundled anyway, but no browser we ship to needs it.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 900,
  },
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:5717' } },
})
