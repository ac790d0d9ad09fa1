import { BlockList, isIP } from 'node:net'

// Which addresses an outbound request may reach: pure functions of the address text (no lookups,
// no connections), so the policy is tested as such. Names are resolved by the caller.

/** Addresses a media fetch must not reach unless private fetching is allowed (SSRF guard). */
const blocked = new BlockList()
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, bits, 'ipv4')
for (const [net, bits] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['2001:db8::', 32], ['100::', 64],
  // Local-use NAT64 (RFC 8215): the IPv4 address sits where the operator chose, so the whole prefix is private.
  ['64:ff9b:1::', 48],
] as const) blocked.addSubnet(net, bits, 'ipv6')

const linkLocal = new BlockList()
linkLocal.addSubnet('169.254.0.0', 16, 'ipv4')
linkLocal.addSubnet('fe80::', 10, 'ipv6')
// The cloud metadata services' IPv6 addresses (AWS; others use 169.254.169.254).
linkLocal.addAddress('fd00:ec2::254', 'ipv6')

/** The 16 bytes of an IPv6 address (any textual form: `::`, a trailing dotted quad, a zone), or null. */
export function ipv6Bytes(address: string): Uint8Array | null {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  if (isIP(ip) !== 6) return null
  let text = ip.toLowerCase()
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number)
    text = text.slice(0, quad.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null]
  const h = head ? head.split(':') : []
  const t = tail ? tail.split(':') : []
  const groups = tail === null ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t]
  if (groups.length !== 8) return null
  const out = new Uint8Array(16)
  groups.forEach((g, i) => {
    const v = parseInt(g, 16)
    out[i * 2] = v >> 8
    out[i * 2 + 1] = v & 255
  })
  return out
}

const v4 = (b: Uint8Array, at: number, xor = 0) =>
  [b[at] ^ xor, b[at + 1] ^ xor, b[at + 2] ^ xor, b[at + 3] ^ xor].join('.')
const zero = (b: Uint8Array, from: number, to: number) => b.subarray(from, to).every((x) => x === 0)

/**
 * Every IPv4 address an IPv6 address carries, by the standard embeddings: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64
 * (64:ff9b::/96), 6to4 (2002:AABB:CCDD::/16), Teredo (2001:0::/32: server and de-obfuscated
 * client) and ISATAP (…:0:5efe:a.b.c.d). Empty for an address with none.
 */
export function embeddedIPv4(address: string): string[] {
  const b = ipv6Bytes(address)
  if (!b) return []
  const found: string[] = []
  const w = (i: number) => (b[i * 2] << 8) | b[i * 2 + 1]
  if (zero(b, 0, 10) && w(5) === 0xffff) found.push(v4(b, 12)) // mapped
  if (zero(b, 0, 8) && w(4) === 0xffff && w(5) === 0) found.push(v4(b, 12)) // translated
  if (zero(b, 0, 12) && !zero(b, 12, 16)) found.push(v4(b, 12)) // compatible (:: and ::1 are judged as IPv6)
  if (w(0) === 0x64 && w(1) === 0xff9b && zero(b, 4, 12)) found.push(v4(b, 12)) // NAT64 well-known prefix
  if (w(0) === 0x2002) found.push(v4(b, 2)) // 6to4
  if (w(0) === 0x2001 && w(1) === 0) found.push(v4(b, 4), v4(b, 12, 0xff)) // Teredo
  if ((w(4) & 0xfdff) === 0 && w(5) === 0x5efe) found.push(v4(b, 12)) // ISATAP
  return found
}

/** Whether an address (v4 or v6, or an IPv4 address embedded in IPv6) is on `list`; `notIp` answers for anything else. */
function listed(list: BlockList, address: string, notIp: boolean): boolean {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  const v = isIP(ip)
  if (v === 4) return list.check(ip, 'ipv4')
  if (v !== 6) return notIp
  return embeddedIPv4(ip).some((a) => list.check(a, 'ipv4')) || list.check(ip.toLowerCase(), 'ipv6')
}

/** True for loopback, private, link-local, CGNAT, multicast, reserved and unspecified addresses, v4 or v6, including IPv4 addresses embedded in IPv6. */
export const isPrivateAddress = (address: string): boolean => listed(blocked, address, true)

/**
 * True for link-local addresses (169.254.0.0/16, fe80::/10, and those embedded in IPv6) and the
 * cloud metadata addresses: never a legitimate AI provider, where a LAN or loopback address is.
 */
export const isLinkLocalAddress = (address: string): boolean => listed(linkLocal, address, false)
