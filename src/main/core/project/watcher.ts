import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads'
import type { FsChanged } from '@shared/schema/fs-events'
import { log } from '../util/log'
import { workerUrl } from '../util/worker-url'
import type { IgnoreRules } from './ignore-rules'
import type { WatchWorkerData, WatchWorkerMessage, WatchWorkerRequest } from './watch-protocol'

/** The built watch worker's file name; both builds (electron-vite main and the CLI) emit it as an entry. */
export const WATCH_WORKER_FILE = 'watch-worker.js'
/** Heap cap of the watch worker: a runaway watch of a huge tree ends that thread, not the app. */
const MAX_HEAP_MB = 512
/** The watch keeps one small record per file for its life; a large young generation only adds resident memory. */
const YOUNG_GENERATION_MB = 8
/** How long `dispose` waits for the watch to close its handles before ending its thread. */
const CLOSE_WAIT_MS = 5_000

export interface ProjectWatcherOptions {
  root: string
  /** The project's rules as the host uses them (listings): forgotten where a `.gitignore` changed. */
  rules: IgnoreRules
  onChanges(batch: FsChanged): void
  /** The watch reported a failure or ended: the folder itself may have gone. */
  onTrouble?(): void
  batchMs?: number
}

/**
 * The project's one file watch, in its own worker thread (`watch-worker.ts`): chokidar's crawl of
 * a large tree and its events stay off the event loop that carries IPC, streams and ptys. It reports
 * the file tree's batched, project-relative changes (`onChanges`) and, through `openFeed`, the raw
 * changed paths to the snapshot engine's change feed in its worker, without passing through this
 * thread. Gitignored folders (and node_modules, .git) are not descended into.
 */
export class ProjectWatcher {
  private readonly worker: Worker
  private readonly ready: Promise<void>
  private readonly closed: Promise<void>
  private disposed = false

  constructor(private readonly options: ProjectWatcherOptions) {
    const data: WatchWorkerData = { root: options.root, batchMs: options.batchMs }
    this.worker = new Worker(workerUrl(import.meta.url, WATCH_WORKER_FILE, 'watch-worker.ts'), {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: MAX_HEAP_MB, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      name: 'hotaru-watch',
    })
    // The watch never keeps a process alive by itself.
    this.worker.unref()
    let markReady = (): void => {}
    let markClosed = (): void => {}
    this.ready = new Promise((resolve) => (markReady = resolve))
    this.closed = new Promise((resolve) => (markClosed = resolve))
    this.worker.on('message', (message: WatchWorkerMessage) => {
      if (message.type === 'changes') this.deliver(message.batch)
      else if (message.type === 'ready') markReady()
      else if (message.type === 'closed') markClosed()
      else {
        log.warn(`[watcher] ${options.root}: ${message.message}`)
        options.onTrouble?.()
      }
    })
    this.worker.on('error', (error) => {
      log.warn(`[watcher] ${options.root}: the watch failed: ${error.message}`)
      options.onTrouble?.()
    })
    this.worker.on('exit', (code) => {
      // Whoever waits for the watch is not left hanging; the tree lists its folders again when asked.
      markReady()
      markClosed()
      if (this.disposed) return
      log.warn(`[watcher] ${options.root}: the watch ended (code ${code}); the file tree no longer follows changes`)
      options.onTrouble?.()
    })
  }

  /** Resolves once the initial crawl is done and changes are being reported. */
  whenReady(): Promise<void> {
    return this.ready
  }

  /**
   * A port on which the watch reports raw changes (`FeedMessage`) from now on, for a change feed in
   * another thread; hand it over with `postMessage(…, [port])`. It closes when the watch ends.
   */
  openFeed(): MessagePort {
    const { port1, port2 } = new MessageChannel()
    const request: WatchWorkerRequest = { type: 'feed', port: port1 }
    this.worker.postMessage(request, [port1])
    return port2
  }

  async dispose(): Promise<void> {
    if (this.disposed) return
    this.disposed = true
    const request: WatchWorkerRequest = { type: 'close' }
    this.worker.postMessage(request)
    // chokidar closes its watchers (inotify handles) before the thread ends; a watch that does not
    // answer in time is ended with its thread (the OS drops its handles then).
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))
    await Promise.race([this.closed, late])
    clearTimeout(timer)
    await this.worker.terminate()
  }

  private deliver(batch: FsChanged): void {
    if (this.disposed) return
    for (const dir of batch.invalidated) this.options.rules.invalidate(dir)
    this.options.onChanges(batch)
  }
}
