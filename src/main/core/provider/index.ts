export type {
  AssistantMessage,
  ChatRequest,
  Citation,
  ProviderBlockPart,
  ServerTool,
  Completion,
  FinishReason,
  ImagePart,
  ModelMessage,
  ReasoningEffort,
  ReasoningPart,
  StreamEvent,
  TextPart,
  ToolCallEndEvent,
  ToolCallPart,
  ToolDefinition,
  ToolMessage,
  ToolResultPart,
  Usage,
  UserMessage,
} from './types'
export { ProviderRegistry, type ProviderRegistryOptions } from './provider-registry'
export { ProviderErrorNames, type ProviderErrorName, type ProviderErrorData, isProviderErrorName } from './errors'
export { type ModelInfo, computeCost, deprecationNotice, modelInfo } from './catalog'
export {
  type CatalogEntry,
  type ModelApi,
  type ModelCapabilities,
  type ModelPricing,
  type ReasoningCapability,
  type ReasoningKind,
  DEFAULT_MODEL,
  MODEL_CATALOG,
} from './catalog-data'
export { clampEffort, defaultEffort, isToggleOnly, offeredEfforts } from './reasoning'
export { type ModelRef, parseModelId } from './model-id'
export { LOCAL_PROBE_TIMEOUT_MS, probeLocalRuntimes, type LocalRuntime } from './local-models'
export { PROVIDER_PRESETS, type ProviderKind, type ProviderPreset } from './presets'
export { type ProviderSettings, type ProviderSettingsEntry, type SecretStore, secretKeyFor } from './settings'
export { type Env, type ResolvedProvider, resolveProvider } from './credentials'
export { type RetryOptions, type Sleep, defaultRetryOptions } from './retry'
export { toolCallIdFor } from './transform/tool-call-id'
export { AssistantAssembler } from './assemble'
export {
  runWebSearch,
  searchesFromBlocks,
  WEB_SEARCH_DEFAULT_MAX_USES,
  type WebSearchHit,
  type WebSearchOutcome,
  type WebSearchRequest,
  type WebSearchRun,
} from './web-search'
export { defaultMaxTokens } from './transform/request-limits'
