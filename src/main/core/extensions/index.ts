export { agentFromFile, loadAgentFiles, mergeAgentFiles, parseAgentFile, subagentsPromptBlock, type AgentFile, type AgentFileDiscovery, type AgentOverride } from './agent-files'
export {
  customToolRules,
  defaultReservedIds,
  loadCustomTools,
  sanitizeToolId,
  type CustomToolContext,
  type CustomToolSource,
  type CustomToolsOptions,
  type CustomToolsResult,
} from './custom-tools'
export { importToolFile } from './custom-tool-import'
export { FrontmatterError, parseFrontmatter, type Frontmatter, type FrontmatterValue } from './frontmatter'
export {
  DEFAULT_HOOK_TIMEOUT_S,
  HOOK_BLOCK_EXIT_CODE,
  plannedHooks,
  runHooks,
  type HookFailure,
  type HookPayload,
  type HookRunOptions,
  type HookRunResult,
} from './hooks'
export { createSkillTool, SKILL_TOOL_ID } from './skill-tool'
export { discoverSkills, loadSkillBody, skillsPromptBlock, type SkillDiscovery, type SkillInfo, type SkillLocations, type SkillShadow } from './skills'
export { type ExtensionError, type ExtensionScope } from './types'
