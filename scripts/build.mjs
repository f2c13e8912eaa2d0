#!/usr/bin/env node
// Builds the app (main, preload, renderer) and the CLI into out/, skipping the build when out/ was
// built from exactly the current inputs. `npm install` builds (the `prepare` script) and `npm test`
// builds, so a fresh checkout that installs and tests would otherwise build twice with nothing
// changed in between. The inputs are hashed by content (not mtime), so an edit, a checkout or a
// dependency change always rebuilds. `--force` rebuilds regardless.
import { createHash } from 'node:crypto'
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'

const root = join(import.meta.dirname, '..')
const stamp = join(root, 'out', '.build-inputs')
const INPUT_DIRS = ['src']
const INPUT_FILES = [
  'electron.vite.config.ts',
  'vite.cli.config.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.base.json',
  'tsconfig.node.json',
  'tsconfig.web.json',
]
/** What a complete build leaves behind; a missing one means out/ was cleaned or half-built. */
const OUTPUTS = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'out/cli/main.js']

function filesUnder(dir) {
  const found = []
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) found.push(...filesUnder(path))
    else if (entry.isFile()) found.push(path)
  }
  return found
}

function inputsHash() {
  const hash = createHash('sha256')
  const files = [...INPUT_DIRS.flatMap(filesUnder), ...INPUT_FILES.filter((file) => existsSync(join(root, file)))].sort()
  for (const file of files) {
    hash.update(relative(root, join(root, file)))
    hash.update('\0')
    hash.update(readFileSync(join(root, file)))
    hash.update('\0')
  }
  hash.update(process.versions.node.split('.')[0])
  return hash.digest('hex')
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' })
  if (result.error) throw result.error
  if (result.status !== 0) process.exit(result.status ?? 1)
}

const force = process.argv.includes('--force')
const wanted = inputsHash()
const complete = OUTPUTS.every((file) => existsSync(join(root, file)))
if (!force && complete && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === wanted) {
  console.log('out/ is up to date with the sources (npm run build -- --force rebuilds)')
  process.exit(0)
}

rmSync(stamp, { force: true })
run('npx', ['--no', 'electron-vite', 'build'])
run('npx', ['--no', 'vite', 'build', '--config', 'vite.cli.config.ts'])
writeFileSync(stamp, `${wanted}\n`)
