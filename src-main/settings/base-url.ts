import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { AppError } from '../../src-shared/errors.ts'
import { isLinkLocalAddress } from '../media/index.ts'

/** A host name's addresses (dns.lookup by default; tests inject their own and never resolve for real). */
export type ResolveHost = (host: string) => Promise<string[]>

export const systemResolveHost: ResolveHost = async (host) => (await lookup(host, { all: true })).map((a) => a.address)

const refused = (host: string, address: string) => new AppError('VALIDATION_ERROR',
  `baseUrl: ${host === address ? address : `${host} (${address})`} is a link-local address, where cloud machines answer with their ` +
  'credentials; an AI provider is never there. Use the provider\'s own address, a machine on your network, or localhost.', { field: 'baseUrl' })

/**
 * An AI provider's base URL may point at the internet, the LAN or this machine (Ollama), but never at
 * a link-local address (169.254.169.254, the cloud metadata service; fe80::/10; and those forms inside
 * IPv6). A name is resolved once here; one that does not resolve now is accepted (the provider may be
 * off), and the AI client does its own connecting.
 */
export async function checkProviderBaseUrl(raw: string, resolve: ResolveHost): Promise<void> {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new AppError('VALIDATION_ERROR', 'baseUrl: not a URL; write it like http://localhost:11434/v1.', { field: 'baseUrl' })
  }
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (isIP(host)) {
    if (isLinkLocalAddress(host)) throw refused(host, host)
    return
  }
  let addresses: string[]
  try {
    addresses = await resolve(host)
  } catch {
    return
  }
  const bad = addresses.find(isLinkLocalAddress)
  if (bad) throw refused(host, bad)
}
