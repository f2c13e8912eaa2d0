import { setLogLevel } from '../main/core/util/log'
import { main } from './index'

// stderr carries tool activity and answers to the user; core diagnostics only on request.
setLogLevel('error')
// Libraries may repeat the same warning on every request (e.g. a model deprecation notice): show each once.
const seenWarnings = new Set<string>()
const warn = console.warn.bind(console)
console.warn = (...args: unknown[]) => {
  const key = args.map(String).join(' ')
  if (seenWarnings.has(key)) return
  seenWarnings.add(key)
  warn(...args)
}

/**
 * A command is over once it resolved: its services are disposed (database closed, workers
 * ended). What is left is output still buffered for a pipe; once both streams have flushed the
 * process exits at once instead of waiting for stray timers of libraries to run out.
 */
function exitWhenFlushed(code: number): void {
  process.exitCode = code
  let pending = 2
  const flushed = (): void => {
    pending--
    if (pending === 0) process.exit(code)
  }
  process.stdout.write('', flushed)
  process.stderr.write('', flushed)
}

main(process.argv.slice(2)).then(exitWhenFlushed, (error: unknown) => {
  console.error(error)
  exitWhenFlushed(1)
})
