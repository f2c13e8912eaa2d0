export { MemoryApprovalStore, type ApprovalStore } from './approval-store'
export { rulesFromConfig } from './config-rules'
export { agentDefaultRules } from './defaults'
export { DOOM_LOOP_THRESHOLD, DoomLoopTracker, stableStringify } from './doom-loop'
export { PermissionDeniedError, PermissionErrorNames, PermissionRejectedError, isPermissionError } from './errors'
export { PLAN_DIR, Permission } from './names'
export { canonicalRoot, expandHome, externalPattern, realPathOf, resolveToolPath, type ResolvedPath } from './paths'
export { evaluate, findRule, wildcardMatch, type PermissionAction, type Rule, type Ruleset } from './rule'
export { buildRuleset, floorRulesets, rulesetFromLayers, type PermissionFloorConfig } from './ruleset'
export {
  PermissionService,
  bindAsk,
  type AskBinding,
  decide,
  type ApprovalScope,
  type PendingPermission,
  type PermissionAsk,
  type PermissionEvent,
  type PermissionListener,
  type PermissionReply,
  type PermissionReplyKind,
  type PermissionRequest,
  type PermissionServiceOptions,
} from './service'
export { analyzeShell, type AnalyzedCommand, type AnalyzedPath, type ShellAnalysis } from './shell/analyze'
export { alwaysPattern } from './shell/arity'
export { bashPermissionAsks } from './shell/bash-asks'
