import { stat } from 'node:fs/promises'
import { extname } from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * TypeScript modules by file and mtime: every `tsImport` registers another loader
 * hook for the life of the process, so an unchanged file is not imported again.
 */
const tsModules = new Map<string, { mtimeMs: number; module: Promise<Record<string, unknown>> }>()

/**
 * Loads a tool file. TypeScript goes through tsx (a fresh module namespace per
 * import, so an edited file is picked up; only the file's own mtime is checked, not
 * its imports'); JavaScript is imported with the mtime in the URL, because Node
 * caches a module per URL for the life of the process.
 */
export async function importToolFile(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file)
  const { mtimeMs } = await stat(file)
  if (extname(file) === '.ts') {
    const cached = tsModules.get(file)
    if (cached && cached.mtimeMs === mtimeMs) return cached.module
    const module = import('tsx/esm/api').then(async ({ tsImport }) => esModuleExports(await tsImport(url.href, import.meta.url)))
    tsModules.set(file, { mtimeMs, module })
    // Only the cache entry is dropped here, so a failed import is retried next time; the caller still gets the error.
    module.catch(() => {
      if (tsModules.get(file)?.module === module) tsModules.delete(file)
    })
    return module
  }
  url.searchParams.set('t', String(mtimeMs))
  return esModuleExports(await import(/* @vite-ignore */ url.href))
}

/**
 * The exports as the file wrote them. A file run as CommonJS (a `.ts` without
 * `"type": "module"` in its package.json is compiled to CommonJS by tsx) comes back
 * as `{ default: exports }` with the compiler's `__esModule` mark on `exports`.
 */
export function esModuleExports(namespace: unknown): Record<string, unknown> {
  const ns = namespace as Record<string, unknown>
  const inner = ns.default
  if (inner !== null && typeof inner === 'object' && (inner as { __esModule?: unknown }).__esModule === true) {
    return inner as Record<string, unknown>
  }
  return ns
}
