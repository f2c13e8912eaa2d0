import { createRequire } from 'node:module'
import { sep } from 'node:path'

// Not named `require`: electron-vite's ESM shim declares one at the top of the bundle.
const localRequire = createRequire(import.meta.url)

const ASAR = `${sep}app.asar${sep}`
const UNPACKED = `${sep}app.asar.unpacked${sep}`

/**
 * The path a binary can be executed from. Inside a packaged desktop app, modules
 * resolve into `app.asar`, which Electron can read but the OS cannot execute; the
 * packager copies every binary to `app.asar.unpacked` (see `asarUnpack`).
 */
export function unpackedPath(path: string): string {
  return path.includes(ASAR) ? path.replace(ASAR, UNPACKED) : path
}

/**
 * The `resources` folder of a packaged desktop app when `path` lies inside its `app.asar`, else undefined.
 * Programs that must find files beside them (and that the packager would cut down inside the asar) ship
 * there as extra resources (see `extraResources`).
 */
export function packagedResourcesDir(path: string): string | undefined {
  const at = path.indexOf(ASAR)
  return at < 0 ? undefined : path.slice(0, at)
}

/**
 * A binary shipped in an npm package (`@scope/pkg/bin/tool`), resolved from `from`
 * and rewritten for asar, or null when the package is not installed (optional
 * platform packages are left out on other platforms or by `--omit=optional`).
 */
export function resolvePackagedBinary(specifier: string, from: string = import.meta.url): string | null {
  const resolved = resolveOrNull(() => createRequire(from).resolve(specifier))
  return resolved ? unpackedPath(resolved) : null
}

/**
 * The esbuild binary that tsx drives (TypeScript custom tools), or null when its
 * platform package is missing. Resolved from tsx's own location, so it is the
 * esbuild whose JavaScript API tsx loads (esbuild refuses a binary of another version).
 */
export function esbuildBinary(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string | null {
  const subpath = platform === 'win32' ? 'esbuild.exe' : 'bin/esbuild'
  const esbuildMain = resolveOrNull(() => createRequire(localRequire.resolve('tsx/package.json')).resolve('esbuild'))
  return esbuildMain ? resolvePackagedBinary(`@esbuild/${platform}-${arch}/${subpath}`, esbuildMain) : null
}

function resolveOrNull(resolve: () => string): string | null {
  try {
    return resolve()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return null
    throw error
  }
}
