import Ajv from 'ajv'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')
const read = (p: string) => JSON.parse(readFileSync(join(ROOT, p), 'utf8')) as Record<string, unknown>
const config = read('electron-builder.json') as Record<string, never> & {
  electronFuses: Record<string, boolean>
  asarUnpack: string[]
  extraResources: { from: string; to: string }[]
  linux: { target: string[]; icon: string }
  mac: { target: string[]; entitlements: string }
  win: { target: string[] }
  npmRebuild: boolean
  files: string[]
}

// Installers need the Electron binary and internet, so packaging cannot run
// here; the configuration is checked against electron-builder's own schema.
describe('packaging config', () => {
  it('is valid against electron-builder’s schema', () => {
    const schema = read('node_modules/app-builder-lib/scheme.json')
    const ajv = new Ajv({ allErrors: true, strict: false })
    const validate = ajv.compile(schema)
    const { $schema: _ignored, ...rest } = config as Record<string, unknown>
    expect(validate(rest), JSON.stringify(validate.errors, null, 1)).toBe(true)
  })

  it('builds AppImage + deb, dmg and nsis from the shipped icon', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb'])
    expect(config.mac.target).toEqual(['dmg'])
    expect(config.win.target).toEqual(['nsis'])
    expect(existsSync(join(ROOT, config.linux.icon))).toBe(true)
    expect(existsSync(join(ROOT, config.mac.entitlements))).toBe(true)
  })

  it('turns off RunAsNode and the other code-injection fuses', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
    })
  })

  it('unpacks native modules and ships the Electron-ABI sqlite build without rebuilding node_modules', () => {
    expect(config.asarUnpack).toContain('**/*.node')
    expect(config.asarUnpack.some((p) => p.includes('node-pty'))).toBe(true)
    // npmRebuild would rebuild better-sqlite3 in place for Electron and break the Node build tests and the CLI use.
    expect(config.npmRebuild).toBe(false)
    expect(config.extraResources).toContainEqual(expect.objectContaining({ from: 'build/native/electron', to: 'native' }))
  })

  it('points package.json at the built main and the hotaru bin', () => {
    const pkg = read('package.json') as { main: string; bin: Record<string, string>; allowScripts: Record<string, boolean> }
    expect(pkg.main).toBe('./out/main/index.js')
    expect(pkg.bin.hotaru).toBe('./bin/hotaru.js')
    expect(pkg.allowScripts).toMatchObject({ 'better-sqlite3': true, 'node-pty': true })
  })
})
