import { describe, expect, it } from 'vitest'
import { embeddedIPv4, isLinkLocalAddress, isPrivateAddress } from '../../src-main/media/index.ts'

// Issue 14, finding 5: the private-address check sees IPv4 addresses inside every IPv6 form that
// embeds one. Pure functions of the address text: nothing here resolves a name or connects.

describe('IPv4 addresses embedded in IPv6', () => {
  it.each([
    ['::ffff:169.254.169.254', ['169.254.169.254']], // IPv4-mapped
    ['::ffff:a9fe:a9fe', ['169.254.169.254']],
    ['::ffff:0:7f00:1', ['127.0.0.1']], // IPv4-translated (SIIT)
    ['::a9fe:a9fe', ['169.254.169.254']], // IPv4-compatible
    ['::127.0.0.1', ['127.0.0.1']],
    ['64:ff9b::a9fe:a9fe', ['169.254.169.254']], // NAT64
    ['64:ff9b::10.0.0.1', ['10.0.0.1']],
    ['2002:a9fe:a9fe::1', ['169.254.169.254']], // 6to4
    ['2002:7f00:1::', ['127.0.0.1']],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', ['65.54.227.120', '192.0.2.45']], // Teredo (RFC 4380's example)
    ['fe80::5efe:c0a8:101', ['192.168.1.1']], // ISATAP
    ['2606:4700::6810:84e5', []],
  ])('%s carries %j', (ip, v4) => {
    expect(embeddedIPv4(ip)).toEqual(v4)
  })
})

describe('isPrivateAddress', () => {
  it.each([
    '64:ff9b::a9fe:a9fe', '64:ff9b::169.254.169.254', '2002:a9fe:a9fe::1', '::a9fe:a9fe', '::169.254.169.254', '64:ff9b:1::1', '64:ff9b:1:abcd::a9fe:a9fe',
    '::ffff:0:a9fe:a9fe', '2002:7f00:1::1', '2002:0a00:0001::', '2001:0:4136:e378:8000:63bf:80ff:fffe', '[::ffff:127.0.0.1]', '::7f00:1', '64:ff9b::7f00:1',
    '2002:c0a8:0101::1', 'fe80::1%eth0',
  ])('refuses %s', (ip) => {
    expect(isPrivateAddress(ip)).toBe(true)
  })
  it.each(['2606:4700::6810:84e5', '64:ff9b::5db8:d822', '2002:5db8:d822::1', '2a00:1450:4001:80b::200e', '93.184.216.34'])('allows %s', (ip) => {
    expect(isPrivateAddress(ip)).toBe(false)
  })
})

describe('isLinkLocalAddress (the AI provider base URL)', () => {
  it.each(['169.254.169.254', '169.254.0.1', 'fe80::1', '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::1', '::a9fe:a9fe', '::ffff:169.254.169.254', 'fd00:ec2::254'])('refuses %s', (ip) => {
    expect(isLinkLocalAddress(ip)).toBe(true)
  })
  it.each(['127.0.0.1', '::1', '192.168.1.20', '10.0.0.5', 'fd12::1', '203.0.113.9', '2606:4700::6810:84e5'])('allows %s (loopback and LAN are where Ollama runs)', (ip) => {
    expect(isLinkLocalAddress(ip)).toBe(false)
  })
})
