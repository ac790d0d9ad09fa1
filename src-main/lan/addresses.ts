import { hostname as osHostname, networkInterfaces } from 'node:os'

export interface InterfaceAddress {
  address: string
  family: string | number
  internal: boolean
}

/**
 * Where LAN sharing listens and which names it serves. Tests pass their own (a loopback address such as
 * 127.0.0.2 and a name like sheaf-test.local) so no test ever binds a real network address.
 */
export interface LanNetwork {
  /** Addresses the HTTPS listener binds, one server each. */
  bindAddresses(): string[]
  /** Host names and addresses in the certificate and accepted by the Host check (first = preferred). */
  servedHosts(): string[]
}

export interface SystemNetworkOptions {
  hostname?: () => string
  interfaces?: () => Record<string, InterfaceAddress[] | undefined>
}

const isLinkLocal = (a: string) => a.startsWith('169.254.')

/** Every non-internal, non-link-local IPv4 address of this machine. */
export function lanIpv4Addresses(interfaces: Record<string, InterfaceAddress[] | undefined>): string[] {
  const out: string[] = []
  for (const list of Object.values(interfaces)) {
    for (const a of list ?? []) {
      const v4 = a.family === 'IPv4' || a.family === 4
      if (v4 && !a.internal && !isLinkLocal(a.address) && !out.includes(a.address)) out.push(a.address)
    }
  }
  return out
}

/** The host name and its mDNS `.local` form, lower-case, when the name is usable in a certificate. */
export function hostNames(hostname: string): string[] {
  const h = hostname.trim().toLowerCase().replace(/\.$/, '')
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(h)) return []
  const short = h.endsWith('.local') ? h.slice(0, -'.local'.length) : h
  return short.includes('.') ? [h] : [short, `${short}.local`]
}

/** The machine's real network: each LAN IPv4 address, plus hostname and hostname.local. */
export function systemNetwork({ hostname = osHostname, interfaces = networkInterfaces }: SystemNetworkOptions = {}): LanNetwork {
  const ips = () => lanIpv4Addresses(interfaces())
  return {
    bindAddresses: ips,
    servedHosts: () => [...ips(), ...hostNames(hostname())],
  }
}

/** A fixed network, for tests and for operators who want one address. */
export const fixedNetwork = (bind: string[], hosts: string[]): LanNetwork => ({
  bindAddresses: () => [...bind],
  servedHosts: () => [...hosts],
})
