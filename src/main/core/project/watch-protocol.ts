import type { MessagePort } from 'node:worker_threads'
import type { FsChanged } from '@shared/schema/fs-events'
import type { TreeWatchListener } from './tree-watch'

/** Options of the project's watch worker (its `workerData`). */
export interface WatchWorkerData {
  root: string
  batchMs?: number
}

/** From the host to the watch worker. */
export type WatchWorkerRequest =
  /** Report raw changes on `port` too (a change feed: see `FeedMessage`). */
  | { type: 'feed'; port: MessagePort }
  | { type: 'close' }

/** From the watch worker to the host. */
export type WatchWorkerMessage =
  | { type: 'changes'; batch: FsChanged }
  /** The first crawl is done: every folder is watched. */
  | { type: 'ready' }
  | { type: 'log'; level: 'warn'; message: string }
  /** After `close`: the watch has ended. */
  | { type: 'closed' }

/**
 * What the watch worker tells a change feed on its port: `TreeWatchListener` as messages.
 * Paths are project-relative; a folder stands for its whole subtree.
 */
export type FeedMessage =
  | { type: 'paths'; paths: string[] }
  | { type: 'ready' }
  | { type: 'restarting' }
  | { type: 'failed'; message: string; code?: string; fatal: boolean }

/** What a change feed hears from a watch: changed paths in batches, and whether it can trust them. */
export interface FeedListener {
  paths(paths: readonly string[]): void
  ready(): void
  restarting(): void
  failed(error: Error, fatal: boolean): void
}

/** Feeds a `TreeWatch` into a `FeedListener` in the same thread (paths one at a time). */
export function feedFromWatch(listener: FeedListener): TreeWatchListener {
  return {
    change: (_kind, rel) => listener.paths([rel]),
    ready: () => listener.ready(),
    restarting: () => listener.restarting(),
    failed: (error, fatal) => listener.failed(error, fatal),
  }
}

/**
 * Hears a feed port of the watch worker (the other thread's end of `feedFromWatch`). The port
 * closing (the watcher ended) is a fatal failure: nothing reports changes any more.
 */
export function listenToFeedPort(port: MessagePort, listener: FeedListener): { close(): void } {
  let closed = false
  port.on('message', (message: FeedMessage) => {
    if (message.type === 'paths') listener.paths(message.paths)
    else if (message.type === 'ready') listener.ready()
    else if (message.type === 'restarting') listener.restarting()
    else listener.failed(Object.assign(new Error(message.message), message.code ? { code: message.code } : {}), message.fatal)
  })
  port.once('close', () => {
    if (!closed) listener.failed(new Error('the project watcher ended'), true)
  })
  return {
    close: () => {
      closed = true
      port.close()
    },
  }
}
