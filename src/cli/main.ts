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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    console.error(error)
    process.exitCode = 1
  },
)
