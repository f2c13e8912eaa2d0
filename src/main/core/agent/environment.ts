import type { Session } from '@shared/schema/session'
import { defaultDataDir, type Config, type ConfigEnv } from '../config'
import type { ProjectConfigs } from '../config/project-configs'
import { memoryBlock } from '../context'
import type { EventBus } from '../bus/bus'
import {
  createSkillTool,
  discoverSkills,
  loadAgentFiles,
  loadCustomTools,
  mergeAgentFiles,
  skillsPromptBlock,
  subagentsPromptBlock,
  type ExtensionError,
} from '../extensions'
import { portsPromptBlock } from '../project/command-env'
import type { Tool } from '../tools'
import type { ProjectManager } from '../project/manager'
import { log } from '../util/log'
import { detached } from '../util/detached'
import { enforcedRules, policyInput } from '../permission/policy'
import { commandSandbox } from '../sandbox/project'
import { sandboxContext } from '../sandbox/status'
import { resolveAgents } from './agents'
import type { McpRuntime } from './mcp-runtime'
import type { ToolRuntimes, TurnHooks } from './project-tools'
import type { TurnEnvironment } from './service'
import type { ContextSection } from '../context/turn-context'
import { buildSystemPrompt, turnGitSummary, turnSections, type TurnGitSummary } from './system-prompt'

/**
 * How long a turn waits for MCP servers still starting before it sends its first request without them: a server
 * launched through npx or tsx makes it into the first request of a one-shot run; a hung one costs this, not its
 * whole handshake timeout.
 */
export const MCP_START_GRACE_MS = 5_000

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref())
}

export interface EnvironmentOptions {
  projects: ProjectManager
  /** Every config read goes through here (trust applied). */
  configs: ProjectConfigs
  tools: ToolRuntimes
  mcp?: McpRuntime
  bus?: EventBus
  /** The app's environment, for the sandbox's secret-free child environment. */
  env?: ConfigEnv
  /** The app's data dir: hidden from sandboxed commands (database, secret store). */
  dataDir?: string
}

export interface TurnContext {
  hooks: TurnHooks
  /** The user message that started the turn (for turn-scoped approvals). */
  turnId: () => string | undefined
}

/**
 * Builds what a turn needs from the project's current config and extensions:
 * agents (built-in, config, agent files), tools (built-in, memory, skills, custom
 * tools, MCP), hooks and the system prompt. Re-read for every turn so edits apply
 * at once; an invalid config fails the turn with the file and JSON path of the
 * error; a broken extension file is reported and skipped.
 */
export function turnEnvironment(options: EnvironmentOptions): (session: Session, turn: TurnContext) => Promise<TurnEnvironment> {
  return async (session, turn) => {
    const project = options.projects.get(session.projectId)
    const snapshot = await options.configs.of(project).load()
    const { config, locations } = snapshot
    const globalDir = locations.globalConfigDir
    // Until the folder is trusted, its tool files are not imported and its agent files widen nothing.
    const trusted = snapshot.trust.trusted
    const env = (options.env ?? process.env) as NodeJS.ProcessEnv
    const sandbox = commandSandbox(
      config.sandbox,
      sandboxContext({ projectRoot: project.root, dataDir: options.dataDir ?? defaultDataDir(env), env, homeDir: locations.homeDir }),
    )
    // MCP servers start in parallel and hold up the model request by at most a short grace (so a server that
    // starts quickly is in the first request); one still in its handshake offers its tools from the first step
    // after it connects (tools are listed per step), and one that never answers delays nothing further.
    const mcpStarted = options.mcp ? options.mcp.ensure(project, snapshot) : Promise.resolve(undefined)
    detached('mcp start', mcpStarted)
    const [skills, agentFiles, custom, , git] = await Promise.all([
      discoverSkills(locations),
      loadAgentFiles({ ...locations, restrictProject: !trusted }),
      loadCustomTools({ ...locations, projectTools: trusted }),
      Promise.race([mcpStarted.catch(() => undefined), delay(MCP_START_GRACE_MS)]),
      turnGitSummary(project.root, { restricted: !trusted }),
    ])
    report(options.bus, project.id, [...skills.errors, ...agentFiles.errors, ...custom.errors])
    const agents = mergeAgentFiles(resolveAgents(config), agentFiles.agents)
    const mcpTools = (): Tool[] => options.mcp?.toolsOf(project.id) ?? []
    const skillTools = skills.skills.length > 0 ? [createSkillTool(skills.skills)] : []
    const blocks = [skillsPromptBlock(skills.skills), subagentsPromptBlock(agents.values()), portsPromptBlock(project.ports)].filter((b) => b.length > 0)
    return {
      projectRoot: project.root,
      project,
      commandEnv: project.commandEnv,
      agents,
      config,
      tools: options.tools.for(project).host({
        config,
        sessionId: session.id,
        turnId: turn.turnId,
        hooks: turn.hooks,
        extraTools: [...skillTools, ...custom.tools],
        // The same policy Settings → Permissions shows; MCP tools are those connected at the call.
        rules: (agent) => enforcedRules(agent, policyInput(snapshot, agentFiles.agents, [...custom.tools, ...mcpTools()])),
        ...(sandbox ? { sandbox } : {}),
      }),
      ...(sandbox ? { sandbox } : {}),
      system: (agent) => buildSystemPrompt(agent, { projectRoot: project.root, extraInstructions: [...(config.instructions ?? []), ...blocks] }),
      turnSections: () => turnSections({ projectRoot: project.root, globalConfigDir: globalDir, git: git.now, memory: memoryBlock(project.root, config) }),
      ...(git.later ? { lateContext: lateGitSection(git.later) } : {}),
      maxTurns: config.maxTurns,
      smallModel: config.smallModel,
      compaction: config.compaction,
      providerSettings: snapshot.providerSettings,
    }
  }
}

/** The turn's git summary that was not ready for its first request, for the first request after it is (once). */
function lateGitSection(later: NonNullable<TurnGitSummary['later']>): () => ContextSection[] {
  let ready: string | undefined
  let told = false
  detached(
    'git summary',
    later.then((text) => {
      ready = text
    }),
  )
  return () => {
    if (told || ready === undefined) return []
    told = true
    return [{ name: 'git', text: `${ready} (at the start of this turn)` }]
  }
}

/** Broken extension files are shown to the user, never dropped silently. */
function report(bus: EventBus | undefined, projectId: string, errors: ExtensionError[]): void {
  for (const error of errors) {
    log.warn(`[extensions] ${error.file}: ${error.error}`)
    bus?.publish('project:notice', { projectId, level: 'warning', message: `${error.file}: ${error.error}`, file: error.file }, projectId)
  }
}

export type { Config }
