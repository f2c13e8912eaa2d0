#!/usr/bin/env node
// Builds better-sqlite3 for Electron's ABI into build/native/electron/, apart from
// the Node build in node_modules that tests, the CLI and `hotaru serve` load.
// The desktop app passes this file to better-sqlite3 as `nativeBinding`; packaged
// apps carry it in resources/native. node-pty is N-API and needs no second build.
//
// Order: prebuilt binary for this Electron version (prebuild-install), else a
// source build against Electron's headers (node-gyp). Both need internet once.
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(join(root, 'package.json'))
const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version
const sqliteDir = dirname(require.resolve('better-sqlite3/package.json'))
const sqliteVersion = JSON.parse(readFileSync(join(sqliteDir, 'package.json'), 'utf8')).version
const outDir = join(root, 'build', 'native', 'electron')
const target = join(outDir, 'better_sqlite3.node')
const stampFile = join(outDir, 'stamp.json')
const stamp = JSON.stringify({ electronVersion, sqliteVersion, platform: process.platform, arch: process.arch })

if (existsSync(target) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
  process.exit(0)
}

const work = mkdtempSync(join(tmpdir(), 'hotaru-electron-native-'))
const copy = join(work, 'better-sqlite3')
cpSync(sqliteDir, copy, { recursive: true, filter: (src) => !src.includes(`${join(sqliteDir, 'build')}`) })
const built = join(copy, 'build', 'Release', 'better_sqlite3.node')

const run = (cmd, args) => execFileSync(cmd, args, { cwd: copy, stdio: 'inherit', env: { ...process.env } })
try {
  try {
    const prebuild = join(dirname(require.resolve('prebuild-install/package.json', { paths: [sqliteDir] })), 'bin.js')
    run(process.execPath, [prebuild, '--runtime', 'electron', '--target', electronVersion, '--arch', process.arch, '--platform', process.platform])
  } catch (error) {
    console.warn(`electron-native: no prebuilt better-sqlite3 for Electron ${electronVersion} (${error.message}); building from source`)
    const gyp = require.resolve('node-gyp/bin/node-gyp.js')
    run(process.execPath, [gyp, 'rebuild', '--release', `--target=${electronVersion}`, '--runtime=electron', `--arch=${process.arch}`, '--dist-url=https://electronjs.org/headers'])
  }
  if (!existsSync(built)) throw new Error(`no addon at ${built}`)
  mkdirSync(outDir, { recursive: true })
  copyFileSync(built, target)
  writeFileSync(stampFile, stamp)
  console.log(`electron-native: better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} → ${target}`)
} catch (error) {
  console.error(`electron-native: could not build better-sqlite3 for Electron ${electronVersion}: ${error.message}`)
  console.error('The desktop app needs it; an internet connection is required the first time.')
  process.exitCode = 1
} finally {
  rmSync(work, { recursive: true, force: true })
}
