import { serve, type ServerType } from '@hono/node-server'
import type { AddressInfo } from 'node:net'
import type { SheafApp } from './create-app.ts'

export interface RunningServer {
  url: string
  port: number
  close(): Promise<void>
}

export function listen(sheaf: SheafApp, host: string, port: number): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server: ServerType = serve({ fetch: sheaf.app.fetch, hostname: host, port }, (info: AddressInfo) => {
      const shownHost = info.family === 'IPv6' ? `[${info.address}]` : info.address
      resolve({
        url: `http://${shownHost}:${info.port}`,
        port: info.port,
        close: () => new Promise<void>((done) => {
          server.close(() => done())
          ;(server as { closeAllConnections?: () => void }).closeAllConnections?.()
        }),
      })
    })
    server.once('error', reject)
  })
}
