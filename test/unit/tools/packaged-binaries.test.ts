import { accessSync, constants } from 'node:fs'
import { join, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { pointEsbuildOutsideAsar } from '../../../src/main/electron/binaries'
import { nativeTypescriptBinary } from '../../../src/main/core/lsp/locate'
import { bundledRipgrep, findRipgrep } from '../../../src/main/core/tools/search/ripgrep'
import { esbuildBinary, packagedResourcesDir, resolvePackagedBinary, unpackedPath } from '../../../src/main/core/util/unpacked-binary'

describe('binaries spawned from a packaged app', () => {
  it('rewrites a path inside app.asar to app.asar.unpacked, and leaves others alone', () => {
    const inside = join(sep, 'opt', 'Hotaru', 'resources', 'app.asar', 'node_modules', 'x', 'bin', 'rg')
    expect(unpackedPath(inside)).toBe(join(sep, 'opt', 'Hotaru', 'resources', 'app.asar.unpacked', 'node_modules', 'x', 'bin', 'rg'))
    expect(unpackedPath(unpackedPath(inside))).toBe(unpackedPath(inside))
    const plain = join(sep, 'home', 'me', 'app.asarx', 'rg')
    expect(unpackedPath(plain)).toBe(plain)
  })

  it('finds the executable ripgrep of this platform without importing @vscode/ripgrep', () => {
    const rg = bundledRipgrep()
    expect(rg).toContain(`ripgrep-${process.platform}-${process.arch}`)
    expect(() => accessSync(rg as string, constants.X_OK)).not.toThrow()
  })

  it('falls back (null, so the JS search runs) when the platform package is missing instead of throwing', () => {
    expect(findRipgrep('aix', 'ppc64')).toBeNull()
    expect(resolvePackagedBinary('@vscode/ripgrep-aix-ppc64/bin/rg')).toBeNull()
  })

  it('resolves the esbuild binary tsx uses and hands it to esbuild through ESBUILD_BINARY_PATH', () => {
    const binary = esbuildBinary()
    expect(binary).toMatch(/@esbuild[/\\]/)
    expect(() => accessSync(binary as string, constants.X_OK)).not.toThrow()
    const env: NodeJS.ProcessEnv = {}
    pointEsbuildOutsideAsar(env)
    expect(env.ESBUILD_BINARY_PATH).toBe(binary)
    const chosen: NodeJS.ProcessEnv = { ESBUILD_BINARY_PATH: '/usr/local/bin/esbuild' }
    pointEsbuildOutsideAsar(chosen)
    expect(chosen.ESBUILD_BINARY_PATH).toBe('/usr/local/bin/esbuild')
    expect(esbuildBinary('aix', 'ppc64')).toBeNull()
  })

  it('finds the native TypeScript server of this platform, and none for a platform the app ships none for', () => {
    const tsgo = nativeTypescriptBinary()
    expect(tsgo).toContain(`native-preview-${process.platform}-${process.arch}`)
    expect(() => accessSync(tsgo as string, constants.X_OK)).not.toThrow()
    expect(nativeTypescriptBinary('aix', 'ppc64')).toBeUndefined()
    // Packaged, it is found in resources/native-typescript, outside the asar the package resolves into.
    const resources = join(sep, 'opt', 'Hotaru', 'resources')
    expect(packagedResourcesDir(join(resources, 'app.asar', 'node_modules', '@typescript', 'x', 'package.json'))).toBe(resources)
    expect(packagedResourcesDir(join(sep, 'home', 'me', 'node_modules', 'x'))).toBeUndefined()
  })
})
