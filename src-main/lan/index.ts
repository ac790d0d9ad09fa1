export { createLan, type Lan, type LanDeps, type LanListener } from './sharing.ts'
export { createCertificates, fingerprintOf, type Certificates, type TlsMaterial } from './certificates.ts'
export { fixedNetwork, hostNames, lanIpv4Addresses, systemNetwork, type LanNetwork } from './addresses.ts'
export { LAN_BINDING, type FetchHandler, type ServeFn } from './https-listener.ts'
