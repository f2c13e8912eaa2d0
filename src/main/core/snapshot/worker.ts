/**
 * Entry of the snapshot worker thread: one `SnapshotEngine` (and its change feed) per worker,
 * driven by `SnapshotClient` over `parentPort`. Requests run one at a time in arrival order, so
 * the engine's synchronous API keeps its guarantees; only `watch` and the feed settle are async.
 */
import { HotaruError } from '@shared/errors'
import { parentPort, workerData } from 'node:worker_threads'
import { SnapshotErrorNames } from './errors'
import { SnapshotEngine, type WatchHandle } from './snapshot-engine'
import type { SnapshotEngineOptions } from './types'
import type { SerializedError, SnapshotOps, SnapshotRequest, SnapshotWorkerMessage } from './worker-protocol'
import { detached } from '../util/detached'
import { BACKGROUND_NICENESS, lowerThisThreadPriority } from '../util/thread-priority'
import { listenToFeedPort, type FeedListener } from '../project/watch-protocol'

const port = parentPort
if (!port) throw new Error('the snapshot worker must run in a worker thread')

const { background, ...engineOptions } = workerData as SnapshotEngineOptions & { background?: boolean }
const engine = new SnapshotEngine(engineOptions)
let watching: WatchHandle | null = null

const post = (message: SnapshotWorkerMessage): void => port.postMessage(message)

// Where the host has a UI (`SnapshotClientOptions.background`), a walk of a large tree must not take
// the CPU from the event loop serving it.
if (background) {
  try {
    lowerThisThreadPriority(BACKGROUND_NICENESS)
  } catch (error) {
    post({ type: 'log', level: 'warn', message: `snapshots run at normal priority: ${(error as Error).message}` })
  }
}

type Handlers = { [K in keyof SnapshotOps]: (...args: SnapshotOps[K][0]) => SnapshotOps[K][1] | Promise<SnapshotOps[K][1]> }

const handlers: Handlers = {
  snapshot: (options) => engine.snapshot(options),
  withPreImages: (preImages) => engine.withPreImages(preImages),
  scopedSnapshot: (images) => engine.scopedSnapshot(images),
  markDirty: (paths) => {
    for (const path of paths) {
      try {
        engine.markDirty([path])
      } catch (error) {
        // A tool may write outside the project (with permission): not part of this tree.
        if (!(error instanceof HotaruError && error.name === 'OutsideWorkspace')) throw error
      }
    }
  },
  markAllDirty: () => engine.markAllDirty(),
  settleAfterUnlistedChange: () => engine.settleAfterUnlistedChange(),
  changeFeed: () => engine.changeFeed,
  watch: async (feed) => {
    if (watching) {
      feed?.close()
      return
    }
    watching = await engine.watch({
      onError: (error) => post({ type: 'log', level: 'warn', message: `change feed: ${error.message}` }),
      ...(feed ? { source: (listener: FeedListener) => listenToFeedPort(feed, listener) } : {}),
    })
  },
  unwatch: async () => {
    watching = null
    // Also ends a feed still starting (its `watch` request then resolves).
    await engine.dispose()
  },
  exists: (id) => engine.exists(id),
  manifest: (id) => engine.manifest(id),
  diff: (fromId, toId, options) => engine.diff(fromId, toId, options),
  fileVersions: (path, fromId, toId) => engine.fileVersions(path, fromId, toId),
  preview: (targetId, options) => engine.preview(targetId, options),
  restore: (targetId, options) => engine.restore(targetId, options),
  recover: (options) => engine.recover(options),
  usage: (options) => engine.usage(options),
  gc: (liveIds) => engine.gc(liveIds),
  materialize: (id, target, indexDir) => engine.materialize(id, target, indexDir),
  compareDir: (id, dir, indexDir) => engine.compareDir(id, dir, indexDir),
  filesLeftOutMatching: (patterns) => engine.filesLeftOutMatching(patterns),
  forgetCopy: (dir) => engine.forgetCopy(dir),
  comparePaths: (id, paths, dir) => engine.comparePaths(id, paths, dir),
  entries: (id, paths) => engine.entries(id, paths),
}

function serialize(error: unknown): SerializedError {
  if (error instanceof HotaruError) return { name: error.name, message: error.message, data: error.data, stack: error.stack }
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack }
  return { name: 'Error', message: String(error) }
}

async function answer(request: SnapshotRequest): Promise<void> {
  try {
    const handler = handlers[request.op] as (...args: unknown[]) => unknown
    const value = await handler(...request.args)
    post({ type: 'result', id: request.id, ok: true, value })
  } catch (error) {
    post({ type: 'result', id: request.id, ok: false, error: serialize(error) })
  }
}

/**
 * Quiet time after the last request before the worker settles a copy just written and compresses
 * what bulk writes stored raw.
 */
const IDLE_MS = 1_000
/**
 * Raw bytes compressed per step: tens of milliseconds of brotli, so a request that arrives meanwhile
 * waits no longer than that (a whole 64 MB pack took seconds, and a checkpoint or a merge preview
 * asked for then waited for all of it).
 */
const COMPRESS_SLICE_BYTES = 1024 * 1024
let inFlight = 0
let idleTimer: NodeJS.Timeout | null = null

/**
 * One step per turn of the event loop once the worker has been quiet for `IDLE_MS`, so a request
 * never waits for more than one step: a copy's stat index settled (one walk of it), else a slice of
 * a deferred pack compressed. A request resets the quiet period.
 */
function workWhenIdle(delay = IDLE_MS): void {
  if (idleTimer || inFlight > 0) return
  idleTimer = setTimeout(() => {
    idleTimer = null
    if (inFlight > 0) return
    try {
      if (engine.settleCopy()) workWhenIdle(0)
    } catch (error) {
      // The copy may be going away (removed): its next comparison walks it anyway.
      post({ type: 'log', level: 'warn', message: `settling a copy's stat index: ${(error as Error).message}` })
    }
    if (idleTimer) return
    try {
      if (engine.compressDeferred(COMPRESS_SLICE_BYTES).remaining > 0) workWhenIdle(0)
    } catch (error) {
      // Another process holding the store is no failure: its own worker compresses, or we try after the next request.
      const busy = error instanceof HotaruError && error.name === SnapshotErrorNames.Busy
      post({ type: 'log', level: busy ? 'debug' : 'warn', message: `compressing stored objects: ${(error as Error).message}` })
    }
  }, delay)
}

async function tracked(request: SnapshotRequest): Promise<void> {
  try {
    await answer(request)
  } finally {
    inFlight--
    workWhenIdle()
  }
}

// Requests run in arrival order; a feed settle must not be overtaken by the snapshot that follows it.
let queue: Promise<void> = Promise.resolve()

port.on('message', (request: SnapshotRequest) => {
  inFlight++
  if (idleTimer) {
    clearTimeout(idleTimer)
    idleTimer = null
  }
  // Starting the feed takes as long as the watcher's first crawl: snapshots go on meanwhile (they
  // walk the tree until the feed is live), so `watch` does not hold up the queue.
  if (request.op === 'watch') {
    detached('snapshot worker watch', tracked(request))
    return
  }
  queue = queue.then(() => tracked(request))
})
