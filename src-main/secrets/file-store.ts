import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import type { SecretName, SecretStore } from './secret-store.ts'

/** Fallback where no credential store is reachable: a JSON file readable only by its owner (0600). */
export function createFileStore({ file }: { file: string }): SecretStore {
  const read = (): Record<string, string> =>
    existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {}
  const write = (data: Record<string, string>) => {
    const tmp = `${file}.tmp`
    writeFileSync(tmp, JSON.stringify(data, null, 2), { mode: 0o600 })
    chmodSync(tmp, 0o600)
    renameSync(tmp, file)
  }
  if (existsSync(file)) chmodSync(file, 0o600)
  return {
    kind: 'file',
    get: async (name) => read()[name] ?? null,
    async set(name, value) {
      write({ ...read(), [name]: value })
    },
    async delete(name: SecretName) {
      const data = read()
      delete data[name]
      write(data)
    },
  }
}

export function createMemoryStore(): SecretStore {
  const data = new Map<string, string>()
  return {
    kind: 'memory',
    get: async (name) => data.get(name) ?? null,
    async set(name, value) {
      data.set(name, value)
    },
    async delete(name) {
      data.delete(name)
    },
  }
}
