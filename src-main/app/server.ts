import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serveGuarded } from '../http/index.ts'
import type { SheafApp } from './create-app.ts'
import { limitHeapGrowth } from '../background/index.ts'

export interface RunningServer {
  url: string
  port: number
  close(): Promise<void>
}

/** Serves the app; the process's heaps are held to the growth a long-running server can afford (background/heap-growth.ts). */
export function listen(sheaf: SheafApp, host: string, port: number): Promise<RunningServer> {
  limitHeapGrowth()
  return new Promise((resolve, reject) => {
    const server: Server = serveGuarded({ fetch: sheaf.app.fetch, hostname: host, port, limits: sheaf.config.connections }, (info: AddressInfo) => {
      const shownHost = info.family === 'IPv6' ? `[${info.address}]` : info.address
      resolve({
        url: `http://${shownHost}:${info.port}`,
        port: info.port,
        close: () => new Promise<void>((done) => {
          server.close(() => done())
          server.closeAllConnections()
        }),
      })
    })
    server.once('error', reject)
  })
}
