import { workerUrl } from '../util/worker-url'

/** The built worker's file name; both builds (electron-vite main and the CLI) emit it as an entry. */
export const SNAPSHOT_WORKER_FILE = 'snapshot-worker.js'

/** Where the snapshot worker's code is, for `new Worker(url)` (see `workerUrl`). */
export function snapshotWorkerUrl(moduleUrl: string = import.meta.url): URL {
  return workerUrl(moduleUrl, SNAPSHOT_WORKER_FILE, 'worker.ts')
}
