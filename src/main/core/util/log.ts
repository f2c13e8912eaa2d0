export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 }

function initialLevel(): LogLevel {
  const wanted = process.env.HOTARU_LOG as LogLevel | undefined
  return wanted && wanted in ORDER ? wanted : 'warn'
}

let level: LogLevel = initialLevel()

/** The CLI keeps stderr for the user (`HOTARU_LOG=debug` shows everything). */
export function setLogLevel(next: LogLevel): void {
  if (!process.env.HOTARU_LOG) level = next
}

function at(target: LogLevel, write: (...args: unknown[]) => void) {
  return (...args: unknown[]): void => {
    if (ORDER[target] >= ORDER[level]) write(...args)
  }
}

/** Diagnostics of the core, on stderr, filtered by level. */
export const log = {
  debug: at('debug', console.debug),
  info: at('info', console.info),
  warn: at('warn', console.warn),
  error: at('error', console.error),
}
