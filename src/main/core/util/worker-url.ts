import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, parse } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * Where a worker thread's code is, for `new Worker(url)`. `moduleUrl` is the `import.meta.url` of
 * the module that starts it, which sits next to the worker's source.
 * - Built (desktop main, CLI): `builtFile` is an entry of both builds, next to the bundle's entry;
 *   the calling module may sit in a chunk folder below it, so the parent folder is tried too.
 * - From source (tests, benchmarks under tsx/vitest): the worker is TypeScript, so a small
 *   bootstrap registers tsx (with the project's tsconfig for the `@shared` alias) in the worker
 *   thread and imports `sourceFile`.
 */
export function workerUrl(moduleUrl: string, builtFile: string, sourceFile: string): URL {
  const here = fileURLToPath(moduleUrl)
  if (here.endsWith('.ts')) return sourceBootstrap(here, join(dirname(here), sourceFile))
  const dir = dirname(here)
  for (const candidate of [join(dir, builtFile), join(dir, '..', builtFile)]) {
    if (existsSync(candidate)) return pathToFileURL(candidate)
  }
  throw new Error(`a worker of the app (${builtFile}) is missing next to ${here}; rebuild the app`)
}

function sourceBootstrap(here: string, worker: string): URL {
  const tsx = pathToFileURL(createRequire(here).resolve('tsx/esm/api')).href
  const code = [
    `const { register } = await import(${JSON.stringify(tsx)})`,
    `register({ tsconfig: ${JSON.stringify(projectTsconfig(here))} })`,
    `await import(${JSON.stringify(pathToFileURL(worker).href)})`,
  ].join('\n')
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`)
}

/** The main process's tsconfig, found upwards from a source file (it maps `@shared`). */
function projectTsconfig(from: string): string {
  const { root } = parse(from)
  for (let dir = dirname(from); dir !== root; dir = dirname(dir)) {
    const candidate = join(dir, 'tsconfig.node.json')
    if (existsSync(candidate)) return candidate
  }
  throw new Error(`no tsconfig.node.json above ${from}`)
}
