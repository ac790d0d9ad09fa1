// @peculiar/x509 resolves its ASN.1 services through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata'
import * as x509 from '@peculiar/x509'
import { X509Certificate as NodeX509, createHash, webcrypto } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { isIP } from 'node:net'
import { join } from 'node:path'
import type { SecretStore } from '../secrets/index.ts'

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const
const DAY_MS = 86_400_000
const CA_DAYS = 3650
/** Apple refuses TLS server certificates valid for more than 825 days; stay under the 398 browsers like. */
const SERVER_DAYS = 397
const RENEW_BEFORE_DAYS = 30

export interface TlsMaterial {
  caCertPem: string
  certPem: string
  keyPem: string
  /** SHA-256 of the DER certificate, colon-separated upper-case hex. */
  fingerprint: string
  caFingerprint: string
  /** base64 SHA-256 of the server's SubjectPublicKeyInfo (Chromium's --ignore-certificate-errors-spki-list). */
  spkiSha256: string
}

export interface CertificateDeps {
  secrets: SecretStore
  /** Public certificates live in `<dataDir>/tls/`; private keys only in the secret store. */
  dataDir: string
  clock: () => number
}

export const fingerprintOf = (der: Uint8Array | Buffer): string =>
  createHash('sha256').update(der).digest('hex').toUpperCase().match(/../g)!.join(':')

type CryptoKey = webcrypto.CryptoKey
type CryptoKeyPair = webcrypto.CryptoKeyPair
const subtle = webcrypto.subtle
// Handed to @peculiar/x509 on each call rather than installed as its global provider.
const provider = webcrypto as never

async function exportKeyPem(key: CryptoKey): Promise<string> {
  const der = await subtle.exportKey('pkcs8', key)
  return x509.PemConverter.encode(der, 'PRIVATE KEY')
}

async function importKeyPair(keyPem: string, cert: x509.X509Certificate): Promise<CryptoKeyPair> {
  const der = x509.PemConverter.decode(keyPem)[0]
  const privateKey = await subtle.importKey('pkcs8', der, ALG, true, ['sign'])
  const publicKey = await cert.publicKey.export(ALG, ['verify'], provider)
  return { privateKey, publicKey }
}

const generate = () => subtle.generateKey(ALG, true, ['sign', 'verify']) as Promise<CryptoKeyPair>
const randomSerial = () => '01' + Buffer.from(webcrypto.getRandomValues(new Uint8Array(15))).toString('hex')

/**
 * Sheaf's own certificate authority and the server certificate it signs for the LAN listener.
 * The CA is made once per library; the server certificate is reissued when the served names change
 * or it nears expiry, so household devices that trust the CA keep working.
 */
export function createCertificates({ secrets, dataDir, clock }: CertificateDeps) {
  const dir = join(dataDir, 'tls')
  const caFile = join(dir, 'ca.crt')
  const serverFile = join(dir, 'server.crt')
  const write = (file: string, pem: string) => {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    writeFileSync(file, pem, { mode: 0o644 })
  }
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : null)

  async function ensureCa(): Promise<{ cert: x509.X509Certificate; keys: CryptoKeyPair; pem: string }> {
    const pem = read(caFile)
    const keyPem = await secrets.get('tls:ca-key')
    if (pem && keyPem) {
      const cert = new x509.X509Certificate(pem)
      if (cert.notAfter.getTime() - clock() > RENEW_BEFORE_DAYS * DAY_MS) {
        return { cert, keys: await importKeyPair(keyPem, cert), pem }
      }
    }
    const keys = await generate()
    const now = clock()
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: randomSerial(),
      name: `CN=Sheaf household CA (${new Date(now).toISOString().slice(0, 10)}), O=Sheaf`,
      notBefore: new Date(now - DAY_MS),
      notAfter: new Date(now + CA_DAYS * DAY_MS),
      signingAlgorithm: ALG,
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, provider),
      ],
    }, provider)
    await secrets.set('tls:ca-key', await exportKeyPem(keys.privateKey))
    const out = cert.toString('pem')
    write(caFile, out)
    // A new CA invalidates the old server certificate.
    await secrets.delete('tls:server-key')
    return { cert, keys, pem: out }
  }

  function covers(cert: x509.X509Certificate, hosts: readonly string[]): boolean {
    const san = cert.getExtension(x509.SubjectAlternativeNameExtension)
    if (!san) return false
    const have = new Set(san.names.items.map((n) => `${n.type}:${n.value.toLowerCase()}`))
    return hosts.every((h) => have.has(`${isIP(h) ? 'ip' : 'dns'}:${h.toLowerCase()}`))
  }

  /** The CA and a server certificate whose SANs include every name and address in `hosts`. */
  async function ensure(hosts: readonly string[]): Promise<TlsMaterial> {
    if (hosts.length === 0) throw new Error('ensure: at least one host name or address is needed')
    const ca = await ensureCa()
    let certPem = read(serverFile)
    let keyPem = await secrets.get('tls:server-key')
    const current = certPem ? new x509.X509Certificate(certPem) : null
    const fresh = current && keyPem &&
      current.issuer === ca.cert.subject &&
      (await current.verify({ publicKey: ca.keys.publicKey, signatureOnly: true }, provider)) &&
      current.notAfter.getTime() - clock() > RENEW_BEFORE_DAYS * DAY_MS &&
      covers(current, hosts)
    if (!fresh) {
      const keys = await generate()
      const now = clock()
      const cert = await x509.X509CertificateGenerator.create({
        serialNumber: randomSerial(),
        subject: `CN=${hosts.find((h) => !isIP(h)) ?? hosts[0]}, O=Sheaf`,
        issuer: ca.cert.subject,
        notBefore: new Date(now - DAY_MS),
        notAfter: new Date(now + SERVER_DAYS * DAY_MS),
        signingAlgorithm: ALG,
        publicKey: keys.publicKey,
        signingKey: ca.keys.privateKey,
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
          new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth], false),
          new x509.SubjectAlternativeNameExtension(
            hosts.map((h) => ({ type: isIP(h) ? 'ip' : 'dns', value: h.toLowerCase() }) as const), false),
          await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, provider),
          await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey, false, provider),
        ],
      }, provider)
      keyPem = await exportKeyPem(keys.privateKey)
      certPem = cert.toString('pem')
      await secrets.set('tls:server-key', keyPem)
      write(serverFile, certPem)
    }
    const server = new NodeX509(certPem!)
    return {
      caCertPem: ca.pem,
      certPem: certPem!,
      keyPem: keyPem!,
      fingerprint: fingerprintOf(server.raw),
      caFingerprint: fingerprintOf(new NodeX509(ca.pem).raw),
      spkiSha256: createHash('sha256').update(server.publicKey.export({ type: 'spki', format: 'der' })).digest('base64'),
    }
  }

  /** The CA certificate (PEM), created on first use. */
  const caCertificate = async (): Promise<string> => (await ensureCa()).pem

  return { ensure, caCertificate }
}
export type Certificates = ReturnType<typeof createCertificates>
