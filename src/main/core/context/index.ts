export { ContextManager } from './manager'
export type {
  CompactOptions,
  CompactionResult,
  CompactionSettings,
  ContextAction,
  ContextManagerOptions,
  ContextStatus,
  PreparedRequest,
  RequestInput,
  StepInput,
} from './manager'
export { COMPACTION_AGENT, SUMMARY_MAX_TOKENS, type SummaryProvider, summarize } from './compaction'
export { ContextErrorNames, type ContextErrorName } from './errors'
export { checkInvariant, enforceInvariant, type InvariantRepair } from './invariant'
export { type ContextBudget, MAX_RESERVE_TOKENS, contextBudget, isOverflow } from './overflow'
export { PRUNE_MINIMUM_TOKENS, PRUNE_PROTECT_TOKENS, type PruneSelection, selectPrune } from './prune'
export { type ContextView, contextView, summaryText } from './window'
export { estimateTokens, usageTotal } from './tokens'
export {
  DEFAULT_MEMORY_FILE,
  MAX_MEMORY_BYTES,
  type MemoryChange,
  type MemoryConfig,
  type MemoryFile,
  memoryBlock,
  memoryFilePath,
  readMemory,
  updateMemory,
} from './memory'
export { MEMORY_TOOL_ID, type MemoryToolArgs, type MemoryToolResult, memoryToolDescription, memoryToolParameters, runMemoryTool } from './memory-tool'
