import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    pool: 'forks',
    // Generous: the tests start real servers and models, and a hang is still caught; none asserts on time.
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
})
