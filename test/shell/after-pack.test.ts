import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
// @ts-expect-error -- the hook is plain JavaScript that electron-builder loads; it has no type declarations.
import afterPack from '../../build/after-pack.mjs'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

type Hook = (context: { electronPlatformName: string; appOutDir: string; packager: { appInfo: { productFilename: string } } }) => Promise<void>

function packedMacApp(): { appOutDir: string; helper: string; rg: string } {
  const appOutDir = mkdtempSync(join(tmpdir(), 'hotaru-afterpack-'))
  dirs.push(appOutDir)
  const unpacked = join(appOutDir, 'Hotaru.app/Contents/Resources/app.asar.unpacked/node_modules')
  const helper = join(unpacked, '@lydell/node-pty-darwin-arm64/spawn-helper')
  const rg = join(unpacked, '@vscode/ripgrep-darwin-arm64/bin/rg')
  for (const file of [helper, rg]) {
    mkdirSync(join(file, '..'), { recursive: true })
    writeFileSync(file, '#!/bin/sh\n')
    // As some npm tarballs ship them (node-pty 1.1.0's spawn-helper): not executable.
    chmodSync(file, 0o644)
  }
  return { appOutDir, helper, rg }
}

describe('after-pack hook', () => {
  it('makes every spawned binary of a packed macOS app executable (else every terminal fails with posix_spawnp)', async () => {
    const { appOutDir, helper, rg } = packedMacApp()
    await (afterPack as Hook)({ electronPlatformName: 'darwin', appOutDir, packager: { appInfo: { productFilename: 'Hotaru' } } })
    expect(statSync(helper).mode & 0o777).toBe(0o755)
    expect(statSync(rg).mode & 0o777).toBe(0o755)
  })

  it('fails the build when the unpacked folder or its binaries are missing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'hotaru-afterpack-'))
    dirs.push(empty)
    const run = (afterPack as Hook)({ electronPlatformName: 'linux', appOutDir: empty, packager: { appInfo: { productFilename: 'Hotaru' } } })
    await expect(run).rejects.toThrow(/app\.asar\.unpacked is missing/)
    mkdirSync(join(empty, 'resources/app.asar.unpacked'), { recursive: true })
    const bare = (afterPack as Hook)({ electronPlatformName: 'linux', appOutDir: empty, packager: { appInfo: { productFilename: 'Hotaru' } } })
    await expect(bare).rejects.toThrow(/no spawned binary/)
  })
})
