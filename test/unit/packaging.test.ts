import Ajv from 'ajv'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')
const read = (p: string) => JSON.parse(readFileSync(join(ROOT, p), 'utf8')) as Record<string, unknown>
const config = read('electron-builder.json') as Record<string, never> & {
  electronFuses: Record<string, boolean>
  asarUnpack: string[]
  linux: { target: string[]; icon: string; maintainer: string; syncDesktopName: boolean; executableName: string }
  deb: { depends: string[] }
  mac: { target: string[]; entitlements: string; identity: string }
  afterPack: string
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

  it('unpacks native modules and ships the same N-API builds Node loads, without rebuilding node_modules', () => {
    expect(config.asarUnpack).toContain('**/*.node')
    expect(config.asarUnpack).toContain('**/node_modules/@lydell/node-pty-*/**')
    // The N-API addons load in Electron as they are; a rebuild would only add a compiler to the release machine.
    expect(config.npmRebuild).toBe(false)
    // The one extra resource: the native TypeScript server with the lib files it reads beside it, outside the asar.
    expect(config.extraResources).toEqual([
      { from: 'node_modules/@typescript/native-preview-${platform}-${arch}/lib', to: 'native-typescript', filter: ['**/*'] },
    ])
  })

  it('needs no per-runtime native build step before start or dist', () => {
    const pkg = read('package.json') as { scripts: Record<string, string> }
    expect(pkg.scripts.start).toBe('npm run build && electron .')
    expect(pkg.scripts.dist).not.toMatch(/electron-native|rebuild/)
    expect(existsSync(join(ROOT, 'scripts/electron-native.mjs'))).toBe(false)
  })

  it('points package.json at the built main and the hotaru bin', () => {
    const pkg = read('package.json') as { main: string; bin: Record<string, string>; allowScripts: Record<string, boolean> }
    expect(pkg.main).toBe('./out/main/index.js')
    expect(pkg.bin.hotaru).toBe('./bin/hotaru.js')
    expect(pkg.allowScripts).toMatchObject({ 'better-sqlite3': true })
  })

  it('carries the deb metadata dpkg requires and extends electron-builder’s default dependencies', () => {
    const pkg = read('package.json') as { homepage: string; author: { name: string; email: string }; desktopName: string }
    expect(pkg.homepage).toMatch(/^https:\/\//)
    expect(pkg.author.email).toMatch(/@/)
    expect(config.linux.maintainer).toMatch(/^.+ <.+@.+>$/)
    // Electron uses desktopName as the Wayland app_id / WM_CLASS; the .desktop file must carry the same name.
    expect(pkg.desktopName).toBe(`${config.linux.executableName}.desktop`)
    expect(config.linux.syncDesktopName).toBe(true)
    const require = createRequire(join(ROOT, 'package.json'))
    const FpmTarget = (require('app-builder-lib/out/targets/FpmTarget') as { default: { prototype: { getDefaultDepends(t: string): string[] } } }).default
    const defaults = FpmTarget.prototype.getDefaultDepends('deb')
    expect(defaults).toContain('libsecret-1-0')
    for (const dependency of defaults) expect(config.deb.depends).toContain(dependency)
  })

  it('signs macOS builds ad hoc and restores exec bits after packing', () => {
    expect(config.mac.identity).toBe('-')
    expect(config.electronFuses).toMatchObject({ resetAdHocDarwinSignature: true })
    expect(existsSync(join(ROOT, config.afterPack))).toBe(true)
  })
})
