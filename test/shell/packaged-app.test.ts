import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ShellProcess, type Snapshot } from './harness/shell-process'

// `electron-builder --linux dir deb` against a stand-in Electron distribution: a
// placeholder binary that carries the fuse wire, so packing, asar, unpacking, the
// after-pack hook and the fuse flip all run for real, offline. The deb step runs up
// to the fpm call (fpm is a download of its own) and its arguments are checked.
const ROOT = resolve(import.meta.dirname, '../..')
const require = createRequire(join(ROOT, 'package.json'))
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
// Electron's shipped fuse states, V1 wire of 8: RunAsNode on, cookie encryption off, NODE_OPTIONS on, --inspect on,
// asar integrity off, only-load-from-asar off, browser V8 snapshot off, file:// extra privileges on.
const SHIPPED_FUSES = [49, 48, 49, 49, 48, 48, 48, 49]
const ON = 49
const OFF = 48

interface Builder {
  build(options: Record<string, unknown>): Promise<string[]>
  Platform: { LINUX: { createTarget(targets: string[], arch: number): unknown } }
  Arch: { x64: number }
}
interface Asar {
  listPackage(archive: string, options: { isPack: boolean }): string[]
  extractAll(archive: string, dest: string): void
}

function missingTool(): string | null {
  for (const name of ['electron-builder', '@electron/asar', '@electron/fuses']) {
    try {
      require.resolve(name)
    } catch {
      return name
    }
  }
  return null
}
const missing = missingTool()
if (missing) console.warn(`packaged-app tests skipped: ${missing} is not installed`)

function stubElectronDist(dir: string): void {
  mkdirSync(dir, { recursive: true })
  const binary = Buffer.concat([
    Buffer.from('#!/bin/sh\necho "placeholder Electron binary"\nexit 0\n'),
    Buffer.alloc(256, 0x2e),
    Buffer.from(SENTINEL),
    Buffer.from([1, SHIPPED_FUSES.length, ...SHIPPED_FUSES]),
    Buffer.alloc(256, 0x2e),
  ])
  writeFileSync(join(dir, 'electron'), binary)
  chmodSync(join(dir, 'electron'), 0o755)
  writeFileSync(join(dir, 'LICENSE'), 'placeholder')
}

function fuseWire(binary: string): number[] {
  const bytes = readFileSync(binary)
  const at = bytes.indexOf(SENTINEL) + SENTINEL.length
  expect(bytes[at], 'fuse wire version').toBe(1)
  const length = bytes[at + 1] as number
  return [...bytes.subarray(at + 2, at + 2 + length)]
}

describe.skipIf(missing !== null)('the packaged Linux app', () => {
  const work = mkdtempSync(join(tmpdir(), 'hotaru-package-'))
  const output = join(work, 'dist')
  const appOut = join(output, 'linux-unpacked')
  const resources = join(appOut, 'resources')
  const archive = join(resources, 'app.asar')
  const unpacked = join(resources, 'app.asar.unpacked')
  let fpmArgs: string[] = []
  let desktopEntry = ''
  let files: string[] = []

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'out/main/index.js'))) throw new Error('out/ is missing: run `npm run build` first')
    const builder = require('electron-builder') as Builder
    const asar = require('@electron/asar') as Asar
    const electronVersion = (require('electron/package.json') as { version: string }).version
    const dist = join(work, 'electron-dist')
    stubElectronDist(dist)
    // electron-builder also reads electron-builder.json from the project and adds its extra resources to ours: given once.
    const { $schema: _schema, extraResources: _extra, ...config } = JSON.parse(readFileSync(join(ROOT, 'electron-builder.json'), 'utf8')) as Record<string, unknown>
    await builder.build({
      projectDir: ROOT,
      targets: builder.Platform.LINUX.createTarget(['dir', 'deb'], builder.Arch.x64),
      publish: 'never',
      // Nothing is downloaded: the Electron distribution is given, nothing is rebuilt.
      config: { ...config, electronDist: dist, electronVersion, npmRebuild: false, directories: { output, buildResources: 'build' }, publish: null },
      // The deb target stops here, just before it would fetch and run fpm.
      effectiveOptionComputed: (computed: [string[], string]) => {
        fpmArgs = computed[0]
        desktopEntry = readFileSync(computed[1], 'utf8')
        return Promise.resolve(true)
      },
    })
    files = asar.listPackage(archive, { isPack: false })
  }, 240_000)

  afterAll(() => rmSync(work, { recursive: true, force: true }))

  it('holds the built app and its production dependencies, not the CLI, source maps or dev tools', () => {
    for (const file of ['/package.json', '/out/main/index.js', '/out/preload/index.cjs', '/out/renderer/index.html', '/node_modules/better-sqlite3/package.json', '/node_modules/@lydell/node-pty/package.json']) {
      expect(files, file).toContain(file)
    }
    expect(files.filter((f) => f.startsWith('/out/cli/'))).toEqual([])
    expect(files.filter((f) => f.endsWith('.map') && f.startsWith('/out/'))).toEqual([])
    for (const dev of ['electron', 'electron-builder', 'vitest', 'typescript', 'monaco-editor']) {
      expect(files.some((f) => f.startsWith(`/node_modules/${dev}/`)), dev).toBe(false)
    }
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { desktopName: string }
    expect(pkg.desktopName).toBe('hotaru.desktop')
  })

  it('puts every spawned binary and native addon under app.asar.unpacked, executable', () => {
    // (macOS adds node-pty's spawn-helper; its exec bit is checked in after-pack.test.ts.)
    const spawned = [
      'node_modules/@vscode/ripgrep-linux-x64/bin/rg',
      'node_modules/@esbuild/linux-x64/bin/esbuild',
    ]
    for (const file of spawned) {
      const mode = statSync(join(unpacked, file)).mode
      expect((mode & 0o111).toString(8), file).toBe('111')
    }
    // They run from there, and esbuild's binary is the version its JavaScript API (the one tsx loads) demands.
    expect(execFileSync(join(unpacked, spawned[0] as string), ['--version'], { encoding: 'utf8' })).toMatch(/^ripgrep \d+/)
    const esbuildVersion = (JSON.parse(readFileSync(join(unpacked, 'node_modules/esbuild/package.json'), 'utf8')) as { version: string }).version
    expect(execFileSync(join(unpacked, spawned[1] as string), ['--version'], { encoding: 'utf8' }).trim()).toBe(esbuildVersion)
    // The native TypeScript server ships outside the asar with the lib files it reads beside it (the asar would drop them).
    const tsgo = join(resources, 'native-typescript', 'tsgo')
    expect(statSync(tsgo).mode & 0o111).toBe(0o111)
    expect(execFileSync(tsgo, ['--version'], { encoding: 'utf8' })).toMatch(/Version 7\./)
    expect(existsSync(join(resources, 'native-typescript', 'lib.es5.d.ts'))).toBe(true)
    for (const addon of ['node_modules/better-sqlite3/prebuilds/linux-x64.node', 'node_modules/@lydell/node-pty-linux-x64/pty.node']) {
      expect(existsSync(join(unpacked, addon)), addon).toBe(true)
    }
  })

  it('flips the fuses on the packaged binary: no RunAsNode, NODE_OPTIONS or --inspect; asar only, integrity checked', () => {
    const wire = fuseWire(join(appOut, 'hotaru'))
    expect(wire).toEqual([OFF, ON, OFF, OFF, ON, ON, SHIPPED_FUSES[6], OFF])
    expect(statSync(join(appOut, 'hotaru')).mode & 0o111).toBe(0o111)
  })

  it('passes the deb metadata step with a maintainer, homepage and a desktop entry named after desktopName', () => {
    const arg = (name: string): string | undefined => fpmArgs[fpmArgs.indexOf(name) + 1]
    expect(arg('--name')).toBe('hotaru-desktop')
    expect(arg('--maintainer')).toBe('Hotaru <hello@hotaru.dev>')
    expect(arg('--url')).toBe('https://hotaru.dev')
    expect(fpmArgs).toContain(`${appOut}/=/opt/Hotaru`)
    expect(fpmArgs.some((a) => a.endsWith('=/usr/share/applications/hotaru.desktop'))).toBe(true)
    expect(desktopEntry).toContain('Exec=/opt/Hotaru/hotaru %U')
    expect(desktopEntry).toContain('StartupWMClass=hotaru')
    // Ubuntu 24.04 restricts unprivileged user namespaces; the deb installs an AppArmor profile for the sandbox.
    expect(existsSync(join(resources, 'apparmor-profile'))).toBe(true)
  })

  it('boots the main process from the extracted archive and serves its renderer', async () => {
    const asar = require('@electron/asar') as Asar
    const extracted = join(work, 'extracted')
    asar.extractAll(archive, extracted)
    const home = join(work, 'home')
    mkdirSync(home)
    const shell = new ShellProcess(join(extracted, 'out/main/index.js'), {
      cwd: extracted,
      env: { PATH: process.env.PATH, HOME: home, SHELL: '/bin/sh', HOTARU_DATA_DIR: join(home, 'data'), HOTARU_LOG: 'warn' },
    })
    try {
      await shell.booted
      const ready = await shell.call<Snapshot>('ready')
      expect(ready.windows[0]).toMatchObject({ loadState: 'loaded', shown: true })
      expect(ready.dialogs).toEqual([])
      expect(ready.env.ESBUILD_BINARY_PATH?.startsWith(extracted)).toBe(true)
      const page = await shell.call<{ status: number }>('request', { url: 'app://hotaru/index.html' })
      expect(page.status).toBe(200)
      expect(await shell.invoke('project.list', {})).toEqual({ ok: true, value: [] })
      await shell.call('quit')
      expect(await shell.exited).toMatchObject({ code: 0, appExit: 0 })
    } finally {
      shell.kill()
    }
  }, 120_000)
})
