import type { z } from 'zod'
import type { ElectronApi, IpcMainInvokeEvent } from './electron-api.ts'

export interface IpcOptions {
  ipcMain: Pick<ElectronApi['ipcMain'], 'handle' | 'removeHandler'>
  /** Only pages of this origin, in the top frame, may call. */
  appOrigin: string
  onRefused?: (channel: string, why: string) => void
}

/** Why a call is refused, or null when its sender is the app's own top-level page. */
export function senderProblem(event: Pick<IpcMainInvokeEvent, 'senderFrame'>, appOrigin: string): string | null {
  const frame = event.senderFrame
  if (!frame) return 'the sending frame is gone'
  if (frame.parent !== null) return 'sub-frames may not call the desktop API'
  let origin: string
  try {
    origin = new URL(frame.url).origin
  } catch {
    return `unparseable sender URL ${frame.url}`
  }
  return origin === appOrigin ? null : `sender origin ${origin} is not the app (${appOrigin})`
}

/**
 * VS Code's validatedIpcMain at Sheaf's size: a handler runs only for the app's top frame and only
 * with arguments its zod schema accepts; everything else is refused loudly.
 */
export function createIpc({ ipcMain, appOrigin, onRefused = () => undefined }: IpcOptions) {
  const channels: string[] = []
  function handle<A extends z.ZodType<unknown[]>, R>(channel: string, args: A, fn: (...a: z.infer<A>) => R | Promise<R>): void {
    if (!channel.startsWith('sheaf:')) throw new Error(`ipc: channel "${channel}" must start with "sheaf:"`)
    channels.push(channel)
    ipcMain.handle(channel, async (event, ...raw: unknown[]) => {
      const problem = senderProblem(event, appOrigin)
      if (problem) {
        onRefused(channel, problem)
        throw new Error(`Refused ${channel}: ${problem}`)
      }
      const parsed = args.safeParse(raw)
      if (!parsed.success) {
        onRefused(channel, 'bad arguments')
        throw new Error(`Refused ${channel}: bad arguments (${parsed.error.issues[0]?.message ?? 'invalid'})`)
      }
      return fn(...(parsed.data as z.infer<A>))
    })
  }
  const dispose = () => {
    for (const c of channels.splice(0)) ipcMain.removeHandler(c)
  }
  return { handle, dispose }
}
export type Ipc = ReturnType<typeof createIpc>
