#!/usr/bin/env node
// Entry of the `hotaru` command: runs the CLI built into out/cli by `npm run build`
// (which `npm install` runs through the "prepare" script).
import { existsSync } from 'node:fs'
import { enableCompileCache } from 'node:module'
import { fileURLToPath } from 'node:url'

// V8 keeps the compiled CLI bundle on disk (in the OS temp folder): later starts skip parsing and
// compiling it. A cache that cannot be written just means a slower start, never a failure.
enableCompileCache()

const entry = new URL('../out/cli/main.js', import.meta.url)
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('hotaru: the CLI is not built yet; run "npm run build" in the Hotaru folder\n')
  process.exit(1)
}
await import(entry.href)
