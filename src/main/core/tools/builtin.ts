import { applyPatchTool } from './apply-patch'
import { bashTool } from './bash'
import { bashKillTool } from './bash-kill'
import { bashOutputTool } from './bash-output'
import { editTool } from './edit'
import { createGlobTool } from './glob'
import { createGrepTool } from './grep'
import { listTool } from './list'
import { multieditTool } from './multiedit'
import { planEnterTool, planExitTool } from './plan'
import { questionTool } from './question'
import { readTool } from './read'
import { taskTool } from './task'
import { todowriteTool } from './todo'
import type { Tool } from './tool'
import { webfetchTool } from './webfetch'
import { websearchTool } from './websearch'
import { writeTool } from './write'

/** Every built-in tool. `rg: null` forces the JavaScript search (no ripgrep binary). */
export function builtinTools(options: { rg?: string | null } = {}): Tool[] {
  return [
    readTool,
    writeTool,
    editTool,
    multieditTool,
    applyPatchTool,
    listTool,
    createGlobTool(options),
    createGrepTool(options),
    bashTool,
    bashOutputTool,
    bashKillTool,
    todowriteTool,
    questionTool,
    taskTool,
    webfetchTool,
    websearchTool,
    planEnterTool,
    planExitTool,
  ]
}
