export { ConfigInvalid, type ConfigInvalidData, type ConfigIssue } from './config-error'
export {
  CONFIG_FILE_NAMES,
  DOT_HOTARU_DIR,
  type ConfigEnv,
  globalConfigDir,
  managedConfigDir,
} from './locations'
export {
  ENV_CONFIG_SOURCE,
  MERGED_CONFIG,
  type ConfigSource,
  type ConfigSourceKind,
  type LoadConfigOptions,
  type LoadedConfig,
  type PermissionFloor,
  type PermissionLayerRules,
  isProjectLayer,
  loadConfig,
} from './load'
export { RESTRICTED_LAYER_POLICY, describeMcpServer, type WithheldItem, type WithheldKind } from './restricted-layer'
export { defaultDataDir } from './paths'
export * from './schema'
