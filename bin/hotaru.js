#!/usr/bin/env node
// Entry of the `hotaru` command: runs the CLI built into out/cli by `npm run build`
// (which `npm install` runs through the "prepare" script).
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const entry = new URL('../out/cli/main.js', import.meta.url)
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('hotaru: the CLI is not built yet; run "npm run build" in the Hotaru folder\n')
  process.exit(1)
}
await import(entry.href)
