import { accessSync, constants, existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { delimiter, dirname, join } from 'node:path'
import { packagedResourcesDir } from '../util/unpacked-binary'
import type { ServerSpec } from './catalog'

/** Where a server's executable was found. */
export type ServerSource = 'config' | 'project' | 'app-data' | 'bundled' | 'path'

export interface LocatedServer {
  command: string
  args: string[]
  source: ServerSource
}

export interface LocateContext {
  projectRoot: string
  /** `<dataDir>/lsp`: where servers are installed on demand. */
  installDir: string
  /** PATH to search (the login shell's). */
  path: string
  /** Whether to look at the app's own node_modules (the copies it ships or was installed with). */
  bundled?: boolean
  /** Whether the project's own node_modules may provide the server (false in a restricted folder). */
  projectCode?: boolean
}

const requireHere = createRequire(import.meta.url)

function isExecutable(file: string): boolean {
  try {
    accessSync(file, process.platform === 'win32' ? constants.F_OK : constants.X_OK)
    return true
  } catch {
    // Not there or not executable: the next place is tried.
    return false
  }
}

function binIn(dir: string, bin: string): string | undefined {
  const names = process.platform === 'win32' ? [`${bin}.cmd`, `${bin}.exe`, bin] : [bin]
  for (const name of names) {
    const file = join(dir, name)
    if (isExecutable(file)) return file
  }
  return undefined
}

/** `node_modules/.bin/<bin>` in the project or any folder above it (monorepos hoist). */
function projectBin(root: string, bin: string): string | undefined {
  for (let dir = root; ; dir = dirname(dir)) {
    const found = binIn(join(dir, 'node_modules', '.bin'), bin)
    if (found) return found
    if (dirname(dir) === dir) return undefined
  }
}

function bundledBin(spec: ServerSpec): string | undefined {
  if (!spec.npm) return undefined
  try {
    const pkg = requireHere.resolve(`${spec.npm.package}/package.json`)
    // <app>/node_modules/<pkg>/package.json → <app>/node_modules/.bin/<bin>
    return binIn(join(dirname(dirname(pkg)), '.bin'), spec.bin)
  } catch {
    // The app does not ship this server.
    return undefined
  }
}

export function pathBin(path: string, bin: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue
    const found = binIn(dir, bin)
    if (found) return found
  }
  return undefined
}

/**
 * Finds a server's executable: the project's own (its node_modules, so its
 * versions win; not with `projectCode: false`), then what was installed on demand
 * into the data dir, then the app's own copy, then PATH. Undefined when it is nowhere.
 */
export function locateServer(spec: ServerSpec, ctx: LocateContext): LocatedServer | undefined {
  const places: Array<[ServerSource, () => string | undefined]> = [
    ['project', () => (spec.npm && ctx.projectCode !== false ? projectBin(ctx.projectRoot, spec.bin) : undefined)],
    ['app-data', () => (spec.npm ? binIn(join(ctx.installDir, 'node_modules', '.bin'), spec.bin) : undefined)],
    ['bundled', () => (ctx.bundled === false ? undefined : bundledBin(spec))],
    ['path', () => pathBin(ctx.path, spec.bin)],
  ]
  for (const [source, find] of places) {
    const command = find()
    if (command) return { command, args: spec.args, source }
  }
  return undefined
}

/**
 * The `typescript` the TypeScript server should use: the project's own (so the
 * errors match its `tsc`; not with `projectCode` false), else the one installed next
 * to the server, else the app's own copy.
 */
export function locateTypescript(projectRoot: string, installDir: string, projectCode = true): string | undefined {
  const own = projectCode ? projectTypescriptLib(projectRoot) : undefined
  if (own) return own
  const installed = join(installDir, 'node_modules', 'typescript', 'lib')
  if (existsSync(join(installed, 'tsserver.js'))) return installed
  try {
    return dirname(requireHere.resolve('typescript/lib/tsserver.js'))
  } catch {
    // No typescript anywhere: typescript-language-server then reports it itself.
    return undefined
  }
}

/** The `lib` folder of the project's own `typescript` package (in its node_modules or a folder above), if any. */
export function projectTypescriptLib(projectRoot: string): string | undefined {
  for (let dir = projectRoot; ; dir = dirname(dir)) {
    const lib = join(dir, 'node_modules', 'typescript', 'lib')
    if (existsSync(join(lib, 'tsserver.js'))) return lib
    if (dirname(dir) === dir) return undefined
  }
}

/**
 * The native TypeScript compiler (`tsgo`, from `@typescript/native-preview`'s package for this platform),
 * which serves LSP with `--lsp --stdio`. Undefined when the app ships none for this platform.
 */
export function nativeTypescriptBinary(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string | undefined {
  const key = `${platform}-${arch}`
  const known = nativeBinaries.get(key)
  if (known !== undefined) return known
  const found = findNativeTypescriptBinary(platform, arch)
  // Only a binary found is remembered: one installed later is found then.
  if (found !== undefined) nativeBinaries.set(key, found)
  return found
}

/** Where `nativeTypescriptBinary` found the binary, by platform and architecture (resolving it costs ~5 ms of module lookups). */
const nativeBinaries = new Map<string, string>()

function findNativeTypescriptBinary(platform: NodeJS.Platform, arch: string): string | undefined {
  const binary = platform === 'win32' ? 'tsgo.exe' : 'tsgo'
  try {
    // The platform package exports only its package.json; the binary sits in its `lib`.
    const main = requireHere.resolve('@typescript/native-preview/package.json')
    const pkg = createRequire(main).resolve(`@typescript/native-preview-${platform}-${arch}/package.json`)
    // A packaged app carries it, with the lib files it reads beside it, in resources/native-typescript.
    const resources = packagedResourcesDir(pkg)
    const file = resources ? join(resources, 'native-typescript', binary) : join(dirname(pkg), 'lib', binary)
    return existsSync(file) ? file : undefined
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined
    throw error
  }
}
