// electron-builder `afterPack` hook: runs on the unpacked app, before the fuses are
// flipped and the app is signed. npm packages can ship executables without their
// exec bit (node-pty 1.1.0's prebuilds/darwin-*/spawn-helper is 0644, which makes
// every macOS terminal fail with `posix_spawnp failed`), and packaging keeps the
// mode it finds. Every binary the app spawns gets 0755 here.
import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'

/** File names of the binaries the app spawns from app.asar.unpacked. */
const SPAWNED = new Set(['spawn-helper', 'rg', 'esbuild'])

function resourcesDir(context) {
  if (context.electronPlatformName !== 'darwin' && context.electronPlatformName !== 'mas') {
    return join(context.appOutDir, 'resources')
  }
  const app = `${context.packager.appInfo.productFilename}.app`
  return join(context.appOutDir, app, 'Contents', 'Resources')
}

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* files(path)
    else if (entry.isFile()) yield path
  }
}

/** Sets 0755 on every spawned binary under `unpackedDir`; returns the files it changed or checked. */
export function restoreExecBits(unpackedDir) {
  const marked = []
  for (const file of files(unpackedDir)) {
    if (!SPAWNED.has(basename(file))) continue
    if ((statSync(file).mode & 0o111) !== 0o111) chmodSync(file, 0o755)
    marked.push(file)
  }
  return marked
}

export default async function afterPack(context) {
  if (context.electronPlatformName === 'win32') return
  const unpacked = join(resourcesDir(context), 'app.asar.unpacked')
  if (!existsSync(unpacked)) throw new Error(`after-pack: ${unpacked} is missing; check asarUnpack in electron-builder.json`)
  const marked = restoreExecBits(unpacked)
  if (marked.length === 0) throw new Error(`after-pack: no spawned binary (${[...SPAWNED].join(', ')}) under ${unpacked}`)
}
