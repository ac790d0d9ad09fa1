/** Names of the secrets Sheaf keeps. AI keys are `ai:<provider>`; TLS keys `tls:<name>`. */
export type SecretName = 'JWT_SECRET' | `ai:${string}` | `tls:${string}`

export type SecretStoreKind = 'keychain' | 'file' | 'memory'

export interface SecretStore {
  readonly kind: SecretStoreKind
  get(name: SecretName): Promise<string | null>
  set(name: SecretName, value: string): Promise<void>
  delete(name: SecretName): Promise<void>
}
