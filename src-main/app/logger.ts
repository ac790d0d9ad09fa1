export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

export interface Logger {
  debug(msg: string): void
  info(msg: string): void
  /** An error adds its message, not its stack: warnings are expected conditions. */
  warn(msg: string, err?: unknown): void
  error(msg: string, err?: unknown): void
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }

/** Plain lines on stderr (stdout is kept for the "listening on" line and command output). */
export function createLogger({ level = 'info', write = (line: string) => process.stderr.write(line + '\n') }: {
  level?: LogLevel
  write?: (line: string) => void
} = {}): Logger {
  const at = (l: LogLevel, msg: string) => {
    if (ORDER[l] >= ORDER[level]) write(`${new Date().toISOString()} ${l.padEnd(5)} ${msg}`)
  }
  return {
    debug: (m) => at('debug', m),
    info: (m) => at('info', m),
    warn: (m, err) => at('warn', err === undefined ? m : `${m}: ${err instanceof Error ? err.message : String(err)}`),
    error: (m, err) => at('error', err instanceof Error ? `${m}: ${err.stack ?? err.message}` : m),
  }
}
