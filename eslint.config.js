// Lint = the machine-checked half of the architecture (see /docs/decisions.md, "Import direction").
// 1. eslint-plugin-boundaries: which folder may import which, and capabilities only through index.ts.
// 2. no-restricted-imports per scope: the few npm packages that belong to one folder, and each folder's
//    face on the store (src-main/store/faces.json: which names of store/index.ts it may import).
// 3. typescript-eslint and react-hooks for the usual correctness rules.
import { readFileSync } from 'node:fs'
import js from '@eslint/js'
import boundaries from 'eslint-plugin-boundaries'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

const el = (...types) => ({ element: { types: { anyOf: types } } })

const ELEMENTS = [
  { type: 'shared', pattern: 'src-shared' },
  { type: 'renderer', pattern: 'src-renderer' },
  { type: 'desktop', pattern: 'src-main/desktop' },
  { type: 'cli', pattern: 'src-main/cli' },
  { type: 'app', pattern: 'src-main/app' },
  { type: 'http', pattern: 'src-main/http' },
  { type: 'store', pattern: 'src-main/store' },
  // auth, importers, pipeline, ai, search, secrets, library, lan, ...
  { type: 'capability', pattern: 'src-main/*', capture: ['name'] },
]

const boundaryPolicies = [
  { from: el('shared'), allow: { to: el('shared') } },
  { from: el('renderer'), allow: { to: el('renderer', 'shared') } },
  { from: el('store'), allow: { to: el('store', 'shared') } },
  { from: el('capability'), allow: { to: el('capability', 'store', 'shared') } },
  {
    from: el('http'),
    allow: { to: el('http', 'capability', 'shared') },
  },
  { from: el('app'), allow: { to: el('app', 'http', 'capability', 'store', 'shared') } },
  // The Logger interface is defined by the composition root and handed to capabilities in their deps.
  {
    from: el('capability', 'http', 'store'),
    allow: { to: { element: { type: 'app', fileInternalPath: 'logger.ts' } }, dependency: { kind: 'type' } },
  },
  { from: el('desktop', 'cli'), allow: { to: el('app', 'shared', 'desktop', 'cli') } },
  {
    from: el('shared', 'renderer', 'desktop', 'cli', 'app', 'http', 'store', 'capability'),
    disallow: {
      to: { element: { types: { anyOf: ['capability', 'store', 'http'] }, fileInternalPath: '!**/index.ts' } },
    },
    message: 'import the folder\'s public face (its index.ts), not its internals',
  },
  // ...except inside one folder (a later matching policy wins).
  { allow: { dependency: { relationship: { to: 'internal' } } } },
]

const restricted = (paths, patterns = []) => ['error', { paths, patterns }]
const ELECTRON = { name: 'electron', message: 'Only src-main/desktop/ talks to Electron.' }
const HONO = { group: ['hono', 'hono/*', '@hono/*'], message: 'Capabilities are HTTP-agnostic: plain arguments in, AppError out. Routes live in src-main/http/.' }
const DB = [
  { name: 'better-sqlite3', message: 'Queries live in src-main/store/queries/; call them through src-main/store.' },
  { name: 'drizzle-orm', message: 'Queries live in src-main/store/queries/; call them through src-main/store.' },
]
const DB_PATTERN = { group: ['drizzle-orm/*'], message: 'Queries live in src-main/store/queries/; call them through src-main/store.' }
// What a folder may take from the store's index.ts: its face in src-main/store/faces.json, or nothing.
const STORE_FACES = JSON.parse(readFileSync(new URL('./src-main/store/faces.json', import.meta.url), 'utf8')).faces
const STORE_INDEX = '/store/index\\.ts$'
const NO_FACE = { regex: STORE_INDEX, message: 'This folder has no face on the store: give it one in src-main/store/faces.json.' }
const storeFace = (name) => ({
  regex: STORE_INDEX, allowImportNames: STORE_FACES[name].names,
  message: `${name} calls the store through its face (src-main/store/faces.json); a name it needs is added there.`,
})
const CAPABILITIES_WITH_FACES = Object.keys(STORE_FACES).filter((name) => name !== 'app')

export default tseslint.config(
  {
    ignores: ['node_modules/', 'out/', 'dist/', 'coverage/', 'test-results/', '.sheaf-data/', '.scratch-*/', 'bench/results/', 'resources/', 'drizzle/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        // Node (scripts, tests, main process)
        process: 'readonly', Buffer: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly',
        setInterval: 'readonly', clearInterval: 'readonly', setImmediate: 'readonly', URL: 'readonly', URLSearchParams: 'readonly',
        TextEncoder: 'readonly', TextDecoder: 'readonly', fetch: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly',
        structuredClone: 'readonly', queueMicrotask: 'readonly', __dirname: 'readonly', require: 'readonly', module: 'writable',
        Headers: 'readonly', Request: 'readonly', Response: 'readonly', FormData: 'readonly', Blob: 'readonly', File: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // Stripping control characters from imported text is deliberate.
      'no-control-regex': 'off',
      'no-restricted-syntax': ['error',
        { selector: 'TSEnumDeclaration', message: 'Node type stripping cannot run enums; use a union of string literals or an `as const` object.' },
        { selector: 'TSModuleDeclaration[declare!=true]', message: 'Node type stripping cannot run namespaces; use a module.' },
        { selector: 'TSParameterProperty', message: 'Node type stripping cannot run parameter properties; assign fields in the constructor body.' },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['tests/**', 'bench/**', 'scripts/**'],
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: {
      // Test helpers parse JSON answers of any shape; the zod schemas check them where it matters.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['src-shared/**', 'src-main/**', 'src-renderer/**'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': ELEMENTS,
      'boundaries/include': ['src-shared/**', 'src-main/**', 'src-renderer/**'],
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.cjs', '.mjs', '.json'] } },
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', policies: boundaryPolicies }],
    },
  },
  // Package rules, one block per scope (a later block for the same files replaces the rule, so each
  // scope lists everything that applies to it).
  {
    files: ['src-main/**'],
    ignores: ['src-main/desktop/**', 'src-main/http/**', 'src-main/app/**', 'src-main/store/**'],
    rules: { 'no-restricted-imports': restricted([ELECTRON, ...DB], [HONO, DB_PATTERN, NO_FACE]) },
  },
  ...CAPABILITIES_WITH_FACES.map((name) => ({
    files: [`src-main/${name}/**`],
    rules: { 'no-restricted-imports': restricted([ELECTRON, ...DB], [HONO, DB_PATTERN, storeFace(name)]) },
  })),
  {
    files: ['src-main/http/**'],
    rules: { 'no-restricted-imports': restricted([ELECTRON, ...DB], [DB_PATTERN]) },
  },
  {
    files: ['src-main/app/**'],
    rules: { 'no-restricted-imports': restricted([ELECTRON, ...DB], [DB_PATTERN, storeFace('app')]) },
  },
  {
    files: ['src-main/store/**'],
    rules: { 'no-restricted-imports': restricted([ELECTRON], [HONO]) },
  },
  {
    files: ['src-main/desktop/**'],
    rules: { 'no-restricted-imports': restricted([...DB], [HONO, DB_PATTERN]) },
  },
  {
    files: ['src-shared/**'],
    rules: {
      'no-restricted-imports': restricted(
        [ELECTRON, ...DB, { name: 'react', message: 'src-shared is plain TypeScript used by both sides.' }, { name: 'zustand', message: 'src-shared is plain TypeScript used by both sides.' }],
        [HONO, DB_PATTERN, { group: ['node:*'], message: 'src-shared runs in the browser too: no Node modules.' }],
      ),
    },
  },
  {
    files: ['src-renderer/**'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: {
      globals: { window: 'readonly', document: 'readonly', navigator: 'readonly', localStorage: 'readonly', sessionStorage: 'readonly', location: 'readonly', history: 'readonly', EventSource: 'readonly', HTMLElement: 'readonly', requestAnimationFrame: 'readonly', cancelAnimationFrame: 'readonly', matchMedia: 'readonly', getComputedStyle: 'readonly', ResizeObserver: 'readonly', IntersectionObserver: 'readonly', MutationObserver: 'readonly' },
    },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'no-restricted-imports': restricted(
        [ELECTRON, ...DB, { name: 'jose', message: 'The renderer never sees the token (HttpOnly cookie); ask /api/auth/me.' }],
        [HONO, DB_PATTERN, { group: ['node:*'], message: 'The renderer runs in a browser: no Node modules; talk to the server over HTTP.' }],
      ),
    },
  },
)
