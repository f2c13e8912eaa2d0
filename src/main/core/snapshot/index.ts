export { SnapshotErrorNames } from './errors'
export { countLineChanges, isBinary } from './line-diff'
export type { RestoreTransaction } from './restore-transaction'
export type * from './restore-types'
export {
  DEFAULT_MAX_FILE_BYTES,
  SnapshotEngine,
  type PreImage,
  type RestoreRunOptions,
  type SnapshotOptions,
  type TreeChange,
  type WatchHandle,
} from './snapshot-engine'
export type * from './types'
export { SnapshotClient, SnapshotWorkerFailed, type SnapshotClientOptions } from './client'
export type { ChangeFeedState } from './worker-protocol'
