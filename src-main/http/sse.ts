import type { Context } from 'hono'
import { streamSSE } from 'hono/streaming'

/** What a source of events hands a stream: the state to send first, whether more follows, how to stop listening. */
export interface EventWatch<T> { initial: T; live: boolean; stop(): void }

export interface EventStreamOptions<T> {
  /** Quiet time after which a `: heartbeat` comment is written, so the connection is seen to be alive. */
  heartbeatMs: number
  /** The event after which the stream ends. */
  isLast(ev: T): boolean
}

/**
 * The one way a route streams server-sent events: `data: <initial>` first, then each event as it
 * comes, `: heartbeat` comments while quiet, until the last event or the client goes away.
 */
export function streamEvents<T>(c: Context, watch: (onEvent: (ev: T) => void) => EventWatch<T>, { heartbeatMs, isLast }: EventStreamOptions<T>): Response {
  c.header('cache-control', 'no-cache, no-transform')
  c.header('x-accel-buffering', 'no')
  return streamSSE(c, async (stream) => {
    const queue: T[] = []
    let wake: (() => void) | null = null
    const { initial, live, stop } = watch((ev) => {
      queue.push(ev)
      wake?.()
    })
    let closed = false
    stream.onAbort(() => {
      closed = true
      wake?.()
    })
    const quiet = async () => {
      const timer = setTimeout(() => wake?.(), heartbeatMs)
      await new Promise<void>((r) => (wake = r))
      clearTimeout(timer)
      wake = null
      if (queue.length === 0 && !closed) await stream.write(': heartbeat\n\n')
    }
    try {
      await stream.writeSSE({ data: JSON.stringify(initial) })
      if (!live) return
      while (!closed) {
        if (queue.length === 0) {
          await quiet()
          continue
        }
        const ev = queue.shift()!
        await stream.writeSSE({ data: JSON.stringify(ev) })
        if (isLast(ev)) break
      }
    } finally {
      stop()
    }
  })
}
