import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** The built worker's file name; both builds (electron-vite main and the CLI) emit it as an entry. */
export const SNAPSHOT_WORKER_FILE = 'snapshot-worker.js'

/**
 * Where the snapshot worker's code is, for `new Worker(url)`.
 * - Built (desktop main, CLI): `snapshot-worker.js` next to the bundle's entry; this module may
 *   sit in a chunk folder below it, so the parent folder is tried too.
 * - From source (tests, benchmarks under tsx/vitest): the worker is TypeScript, so a small
 *   bootstrap registers tsx (with the project's tsconfig for the `@shared` alias) in the worker
 *   thread and imports `worker.ts`.
 */
export function snapshotWorkerUrl(moduleUrl: string = import.meta.url): URL {
  const here = fileURLToPath(moduleUrl)
  if (here.endsWith('.ts')) return sourceBootstrap(here)
  const dir = dirname(here)
  for (const candidate of [join(dir, SNAPSHOT_WORKER_FILE), join(dir, '..', SNAPSHOT_WORKER_FILE)]) {
    if (existsSync(candidate)) return pathToFileURL(candidate)
  }
  throw new Error(`the snapshot worker (${SNAPSHOT_WORKER_FILE}) is missing next to ${here}; rebuild the app`)
}

function sourceBootstrap(here: string): URL {
  const dir = dirname(here)
  const repo = resolve(dir, '../../../..')
  const tsx = pathToFileURL(createRequire(here).resolve('tsx/esm/api')).href
  const tsconfig = join(repo, 'tsconfig.node.json')
  const worker = pathToFileURL(join(dir, 'worker.ts')).href
  const code = [
    `const { register } = await import(${JSON.stringify(tsx)})`,
    `register({ tsconfig: ${JSON.stringify(tsconfig)} })`,
    `await import(${JSON.stringify(worker)})`,
  ].join('\n')
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`)
}
