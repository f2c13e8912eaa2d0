export { BackgroundProcesses, type BackgroundInfo, type BackgroundStart, type BackgroundStatus } from './bash/background'
export { loginShellEnv, pickShell, useProcessEnvironment } from './bash/shell-env'
export { builtinTools } from './builtin'
export { editFamilyDefaults, usesPatchEdits } from './edit-family'
export { applyEdit } from './edit/apply-edit'
export { ToolError, ToolErrorNames } from './errors'
export { FileTimes } from './file-times'
export { planFilePath } from './plan'
export { ToolRegistry, toolDefinition } from './registry'
export { errorResult, formatZodIssues, plannedWrites, runTool, type RunToolOptions, type ToolResult } from './run-tool'
export { MemoryTodoStore, TodoSchema, type Todo, type TodoStore } from './todos'
export {
  defineTool,
  type Question,
  type QuestionAnswer,
  type QuestionOption,
  type SubagentRequest,
  type Tool,
  type ToolAttachment,
  type ToolContext,
  type ToolDef,
  type ToolOutput,
  type ToolProgress,
  type TruncateDirection,
  mayMutateFiles,
} from './tool'
export { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES, truncateText } from './truncate'
