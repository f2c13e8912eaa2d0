#!/usr/bin/env node
// Runs every benchmark in bench/ (or those named on the command line, e.g.
// `npm run bench -- snapshot`) and prints one JSON object: { name: result }.
import { execFileSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const wanted = process.argv.slice(2)
const files = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/\.bench\.ts$/, '')))
const results = {}
for (const file of files) {
  const name = file.replace(/\.bench\.ts$/, '')
  const output = execFileSync(process.execPath, ['--import', 'tsx', join('bench', file)], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  })
  results[name] = JSON.parse(output.trim().split('\n').at(-1))
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`)
