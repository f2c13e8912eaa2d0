import { ErrorNames } from '@shared/errors'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Config } from '../config'
import type { EventBus } from '../bus/bus'
import { bindAsk, DoomLoopTracker, type AskBinding, type PermissionService } from '../permission'
import type { EnforcedRules } from '../permission/policy'
import type { ProjectInstance } from '../project/instance'
import { ServiceKey } from '../project/service-key'
import type { KvRepo } from '../storage/kv-repo'
import { MEMORY_TOOL_ID, memoryFilePath, memoryToolDescription, memoryToolParameters, runMemoryTool } from '../context'
import { Permission } from '../permission/names'
import { warmBashParser } from '../permission/shell/bash-parser'
import { BackgroundProcesses, builtinTools, defineTool, editFamilyDefaults, FileTimes, mayMutateFiles, plannedWrites, ToolRegistry, type SubagentRequest, type Todo, type TodoStore, type Tool } from '../tools'
import type { ToolContext } from '../tools/tool'
import type { Disposable } from '../util/disposable'
import { plannedHooks } from '../extensions'
import type { CommandSandbox } from '../sandbox/sandbox'
import type { AgentInfo } from './agents'
import type { QuestionService } from './questions'
import type { ToolHost } from './tool-host'
import { runWebSearch, type ProviderRegistry, type ProviderSettings } from '../provider'
import { wildcardMatch } from '../permission/rule'

export interface TurnHooks {
  /** Runs a subagent in a child session of `parentSessionId`; resolves with its final text. */
  runSubagent(parentSessionId: string, request: SubagentRequest, signal: AbortSignal): Promise<string>
  /** Makes `agent` the session's agent from its next turn on. */
  switchAgent(sessionId: string, agent: string): void
}

export interface ToolRuntimeDeps {
  permissions: PermissionService
  questions: QuestionService
  kv: KvRepo
  bus: EventBus
  /** Where long tool outputs are saved for the model to page through. */
  outputRoot: string
  /** Extra tools (MCP) for a project, looked up per turn; they ask unless a rule says otherwise. */
  extraTools?: (projectId: string) => Tool[]
  /** Core tools built outside the registry (the `lsp` tool): permissions like the built-ins'. */
  coreTools?: Tool[]
  /** Runs web searches on the session's provider; without it the websearch tool is not offered. */
  providers?: ProviderRegistry
}

/** The todo list of a session, kept in the settings table so it survives restarts. */
class KvTodoStore implements TodoStore {
  constructor(
    private readonly kv: KvRepo,
    private readonly bus: EventBus,
    private readonly projectId: string,
    private readonly sessionId: string,
  ) {}

  get(): Todo[] {
    return this.kv.get<Todo[]>(`todos.${this.sessionId}`) ?? []
  }

  set(todos: Todo[]): void {
    this.kv.set(`todos.${this.sessionId}`, todos)
    this.bus.publish('session:todos', { sessionId: this.sessionId, todos }, this.projectId)
  }
}

/** The `memory` tool: reads the project memory freely; changing it is an edit of that file. */
function memoryTool(config: Config): Tool {
  return defineTool({
    id: MEMORY_TOOL_ID,
    description: memoryToolDescription,
    parameters: memoryToolParameters,
    async execute(args, ctx) {
      const path = memoryFilePath(config)
      if (args.action !== 'read') {
        await ctx.ask({ permission: Permission.Edit, patterns: [path], always: [path], title: `Update the project memory (${path})` })
      }
      return runMemoryTool(ctx.root, config, args)
    },
  })
}

const TOOL_RUNTIME = new ServiceKey<ProjectToolRuntime>('tools')

/**
 * The tools of one open project: the registry, the project's background
 * processes (they end with the project), and per-session read stamps.
 */
export class ProjectToolRuntime implements Disposable {
  readonly registry = new ToolRegistry(builtinTools())
  readonly background = new BackgroundProcesses()
  private readonly fileTimes = new Map<string, FileTimes>()
  private readonly doomLoop = new DoomLoopTracker()
  private readonly outputDir: string

  constructor(
    private readonly project: ProjectInstance,
    private readonly deps: ToolRuntimeDeps,
  ) {
    this.outputDir = join(deps.outputRoot, project.id)
    mkdirSync(this.outputDir, { recursive: true })
    this.background.onChange((info) => deps.bus.publish('process:changed', info, project.id))
  }

  /** A tool host for one turn of `sessionId`. */
  host(input: {
    config: Config
    sessionId: string
    turnId: () => string | undefined
    hooks: TurnHooks
    /** Skill and custom tools of this turn. */
    extraTools?: Tool[]
    /**
     * The permission rules in force for an agent (`permission/policy.ts`), asked at each call: MCP tools that
     * connected after the turn began ask like the others.
     */
    rules: (agent: string) => EnforcedRules
    /** The OS sandbox bash and hooks run in (`sandbox.enabled`). */
    sandbox?: CommandSandbox
  }): ToolHost {
    const { config, sessionId, hooks } = input
    // Built-ins, project memory and MCP tools, each filtered by the agent's defaults and its `tools` config.
    const memory = memoryTool(config)
    // Web search is offered only where the model's provider runs it (a tool the model cannot use costs it a step).
    const searchable = (model: string | undefined, settings: ProviderSettings | undefined): boolean =>
      model !== undefined && this.deps.providers?.webSearchApi(model, settings) !== undefined
    // The model's own edit family, and no question where nobody can answer (see `editFamilyDefaults`).
    const situation = (model: string | undefined, settings: ProviderSettings | undefined): Record<string, boolean> => ({
      ...(model ? editFamilyDefaults(model) : {}),
      ...(this.deps.questions.answerable ? {} : { question: false }),
      // Without a model (which tools may write files) every tool counts.
      ...(model === undefined || searchable(model, settings) ? {} : { websearch: false }),
    })
    const tools = (agent: AgentInfo, model?: string, settings?: ProviderSettings): Tool[] => [
      ...this.registry.forAgent(agent.name, agent.tools, situation(model, settings)),
      ...new ToolRegistry([memory, ...(this.deps.coreTools ?? []), ...(input.extraTools ?? []), ...(this.deps.extraTools?.(this.project.id) ?? [])]).forAgent(
        agent.name,
        agent.tools,
      ),
    ]
    return {
      definitions: (agent, model, settings) => this.registry.definitions(tools(agent, model, settings)),
      mutatesFiles: (name, agent) => mayMutateFiles(tools(agent).find((t) => t.id === name)),
      permissionRules: (agent) => input.rules(agent),
      // The shell checker's grammar (WebAssembly) loads while a request waits for the model, not before it.
      warm: warmBashParser,
      plannedWrites: (call, agent) => {
        const tool = tools(agent).find((t) => t.id === call.name)
        // A hook around the call is a shell command: what it writes nobody knows in advance.
        const hooked = (['PreToolUse', 'PostToolUse'] as const).some((event) => plannedHooks(config.hooks, event, call.name).planned.length > 0)
        return tool && !hooked ? plannedWrites(tool, call.input, this.project.root) : Promise.resolve(undefined)
      },
      execute: async (call, ctx) => {
        const available = tools(ctx.agent, ctx.model, ctx.providerSettings)
        const rules = input.rules(ctx.agent.name)
        const binding: AskBinding = {
          sessionId,
          projectId: this.project.id,
          ruleset: rules.ruleset,
          floors: rules.floors,
          turnId: input.turnId(),
          messageId: ctx.messageId,
          callId: call.callId,
          agent: ctx.agent.name,
          signal: ctx.signal,
        }
        const permissions = this.deps.permissions
        const ask = bindAsk(permissions, binding)
        const result = await this.registry.run(
          call.name,
          call.input,
          {
            root: this.project.root,
            projectId: this.project.id,
            sessionId,
            messageId: ctx.messageId,
            callId: call.callId,
            agent: ctx.agent.name,
            signal: ctx.signal,
            ask,
            check: (request) => permissions.check({ ...binding, ...request }),
            ...(input.sandbox ? { sandbox: input.sandbox } : {}),
            denyPatterns: (permission) =>
              [...binding.ruleset, ...(binding.floors ?? []).flat()]
                .filter((rule) => rule.action === 'deny' && wildcardMatch(permission, rule.permission))
                .map((rule) => rule.pattern),
            ...(this.deps.providers && ctx.model && searchable(ctx.model, ctx.providerSettings)
              ? { webSearch: this.webSearcher(this.deps.providers, ctx.model, ctx.providerSettings) }
              : {}),
            metadata: (progress) => ctx.progress(progress),
            fileTimes: this.fileTimesFor(sessionId),
            todos: new KvTodoStore(this.deps.kv, this.deps.bus, this.project.id, sessionId),
            question: (questions) =>
              this.deps.questions.ask({ sessionId, projectId: this.project.id, callId: call.callId, questions }, ctx.signal),
            runSubagent: (request) => hooks.runSubagent(sessionId, request, ctx.signal),
            switchAgent: (agent) => hooks.switchAgent(sessionId, agent),
            background: this.background,
            outputDir: this.outputDir,
            shell: config.shell,
            env: this.project.commandEnv,
          },
          { doomLoop: this.doomLoop },
          available,
        )
        return {
          output: result.output,
          title: result.title,
          metadata: {
            ...result.metadata,
            durationMs: result.durationMs,
            ...(result.error ? { errorName: result.error.name } : {}),
            // Images go back to the model with the result (see transcript.ts).
            ...(result.attachments?.length ? { attachments: result.attachments } : {}),
          },
          isError: result.error !== undefined,
          ...(result.changedPaths ? { changedPaths: result.changedPaths } : {}),
          stopTurn: result.error?.name === 'PermissionRejected' && !result.error.feedback,
          ...(result.error?.name === ErrorNames.ProjectMissing ? { stopError: { name: ErrorNames.ProjectMissing, data: { message: result.output.replace(/^Error: /, '') } } } : {}),
        }
      },
    }
  }

  private webSearcher(providers: ProviderRegistry, model: string, settings: ProviderSettings | undefined): NonNullable<ToolContext['webSearch']> {
    const providerId = providers.model(model, settings).providerId
    return (request) => runWebSearch(providers, providerId, { ...request, model, ...(settings ? { settings } : {}) })
  }

  private fileTimesFor(sessionId: string): FileTimes {
    let times = this.fileTimes.get(sessionId)
    if (!times) {
      times = new FileTimes()
      this.fileTimes.set(sessionId, times)
    }
    return times
  }

  dispose(): Promise<void> {
    return this.background.dispose()
  }
}

/** One tool runtime per open project, created on first use and disposed with the project. */
export class ToolRuntimes {
  constructor(private readonly deps: ToolRuntimeDeps) {}

  /** The project's runtime: a service of its ProjectInstance, so it lives and ends with the project. */
  for(project: ProjectInstance): ProjectToolRuntime {
    return project.service(TOOL_RUNTIME, () => new ProjectToolRuntime(project, this.deps))
  }
}
