/**
 * Entry of a project's watch worker thread: the project's one chokidar watch (`TreeWatch`), whose
 * crawl of a large tree and whose events never touch the event loop that carries IPC, streams and
 * ptys. It reports to the host the file tree's batched changes, and to each change feed (a
 * `MessagePort` the host hands over: the snapshot engine's, in its own worker) the raw changed paths.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
import { ChangeBatches } from './change-batches'
import { IgnoreRules } from './ignore-rules'
import { TreeWatch } from './tree-watch'
import { BACKGROUND_NICENESS, lowerThisThreadPriority } from '../util/thread-priority'
import type { FeedMessage, WatchWorkerData, WatchWorkerMessage, WatchWorkerRequest } from './watch-protocol'

const host = parentPort
if (!host) throw new Error('the watch worker must run in a worker thread')
const post = (message: WatchWorkerMessage): void => host.postMessage(message)
const { root, batchMs } = workerData as WatchWorkerData
// The watch is background work: its crawl of a large tree must not take the CPU from the event loop serving the UI.
try {
  lowerThisThreadPriority(BACKGROUND_NICENESS)
} catch (error) {
  post({ type: 'log', level: 'warn', message: `the watch runs at normal priority: ${(error as Error).message}` })
}

/** A change feed's port, with the paths gathered for it in this turn of the event loop. */
interface Feed {
  port: MessagePort
  paths: string[]
}
const feeds = new Set<Feed>()
let ready = false
/** Why the watch ended for good (the OS stopped reporting changes): a feed joining later hears it. */
let ended: FeedMessage | null = null
let flushing = false

const toFeeds = (message: FeedMessage): void => {
  flushPaths()
  for (const feed of feeds) feed.port.postMessage(message)
}

/** Paths go out once per turn of the event loop: a `git checkout` is a few messages, not one per file. */
function flushPaths(): void {
  flushing = false
  for (const feed of feeds) {
    if (feed.paths.length === 0) continue
    feed.port.postMessage({ type: 'paths', paths: feed.paths } satisfies FeedMessage)
    feed.paths = []
  }
}

const rules = new IgnoreRules(root)
const batches = new ChangeBatches(root, rules, (batch) => post({ type: 'changes', batch }), batchMs, (message) =>
  post({ type: 'log', level: 'warn', message }),
)
const watch = new TreeWatch(root, rules, {
  change: (kind, rel) => {
    batches.record(kind, rel)
    if (feeds.size === 0) return
    for (const feed of feeds) feed.paths.push(rel)
    if (!flushing) {
      flushing = true
      setImmediate(flushPaths)
    }
  },
  ready: () => {
    ready = true
    // chokidar reports nothing of what its crawl finds, and watches a folder only once the crawl
    // reached it: listings taken until now may have missed a change, so clients list them again.
    batches.invalidate('')
    post({ type: 'ready' })
    toFeeds({ type: 'ready' })
  },
  restarting: () => {
    ready = false
    toFeeds({ type: 'restarting' })
  },
  failed: (error, fatal) => {
    const message: FeedMessage = { type: 'failed', message: error.message, code: (error as NodeJS.ErrnoException).code, fatal }
    if (fatal) {
      ready = false
      ended = message
    }
    post({ type: 'log', level: 'warn', message: `${fatal ? 'watching stopped: ' : ''}${error.message}` })
    toFeeds(message)
  },
})

host.on('message', (request: WatchWorkerRequest) => {
  if (request.type === 'feed') {
    const feed: Feed = { port: request.port, paths: [] }
    feeds.add(feed)
    request.port.once('close', () => feeds.delete(feed))
    // A feed that joins a running watch has missed what came before: `ready` makes it rescan once.
    if (ended) feed.port.postMessage(ended)
    else if (ready) feed.port.postMessage({ type: 'ready' } satisfies FeedMessage)
    return
  }
  batches.close()
  watch.close().then(
    () => post({ type: 'closed' }),
    (error: unknown) => {
      post({ type: 'log', level: 'warn', message: `closing the watch: ${(error as Error).message}` })
      post({ type: 'closed' })
    },
  )
})
