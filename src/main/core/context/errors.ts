/** Error names of the context module (checked by name, never `instanceof`). */
export const ContextErrorNames = {
  /** There is nothing (or nothing new) to summarize. */
  NothingToCompact: 'NothingToCompact',
  /** The summary could not be written (empty answer, or the input never fit). */
  CompactionFailed: 'CompactionFailed',
  /** A manual compaction was asked for while a turn of the session runs. */
  CompactionBusy: 'CompactionBusy',
} as const

export type ContextErrorName = (typeof ContextErrorNames)[keyof typeof ContextErrorNames]
