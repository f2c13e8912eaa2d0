import { BUILTIN_AGENTS } from '../../../src/main/core/agent/agents'
import { AgentService, type TurnEnvironment } from '../../../src/main/core/agent/service'
import type { ToolHost } from '../../../src/main/core/agent/tool-host'
import { ContextManager } from '../../../src/main/core/context'
import type { PruneOptions } from '../../../src/main/core/context/prune'
import type { ProviderRegistry, ProviderSettings } from '../../../src/main/core/provider'
import type { EventBus } from '../../../src/main/core/bus/bus'
import { SessionStore } from '../../../src/main/core/session/store'
import { type FakeLlm, type FakeTurn, type RecordedRequest, startFakeLlm } from '../../fixtures/fake-llm'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'
import { registryFor, TEST_KEY } from '../provider/helpers'

/** The compaction agent's requests are told apart by its system prompt. */
export function isSummaryRequest(request: RecordedRequest): boolean {
  return JSON.stringify(request.body).includes('You are the compaction agent')
}

export function bodyText(request: RecordedRequest | undefined): string {
  return JSON.stringify(request?.body ?? null)
}

/**
 * Answers each request from a plan: summary requests get `summary`, every other
 * request the next planned turn (a plain answer once the plan is used up).
 */
export class Router {
  readonly plan: FakeTurn[] = []
  summaries = 0
  constructor(private readonly summary: (request: RecordedRequest) => FakeTurn = () => ({ text: '## Goal\nSUMMARY-MARK' })) {}

  attach(fake: FakeLlm, count = 2_000): void {
    const answer = (request: RecordedRequest): FakeTurn => {
      // Session titles are generated in the background after the first turn.
      if (bodyText(request).includes('You write a title')) return { text: 'A title' }
      if (isSummaryRequest(request)) {
        this.summaries++
        return this.summary(request)
      }
      return this.plan.shift() ?? { text: 'Done.' }
    }
    fake.enqueue(...Array.from({ length: count }, () => answer))
  }
}

export interface Harness {
  fake: FakeLlm
  router: Router
  store: SessionStore
  agents: AgentService
  context: ContextManager
  registry: ProviderRegistry
  bus: EventBus
  sessionId: string
  root: string
  /** A new store and service over the same database, as after an app restart. */
  restart(options?: { recover?: boolean }): void
}

export const servers: FakeLlm[] = []

export async function harness(options: {
  model: string
  tools: (root: string) => ToolHost
  files?: Record<string, string>
  models?: Record<string, Record<string, { contextLimit?: number; outputLimit?: number }>>
  router?: Router
  prune?: PruneOptions
}): Promise<Harness> {
  const fake = await startFakeLlm()
  servers.push(fake)
  const router = options.router ?? new Router()
  router.attach(fake)
  const settings: ProviderSettings = {
    providers: {
      anthropic: { apiKey: TEST_KEY, baseURL: fake.anthropicBaseURL, models: options.models?.anthropic },
      openai: { apiKey: TEST_KEY, baseURL: fake.openaiBaseURL, models: options.models?.openai },
    },
  }
  const registry = registryFor(fake, { settings })
  const services = testServices()
  const root = writeTree(tempDir(), { 'a.txt': 'alpha\n', ...options.files })
  const project = services.projects.openFolder(root)
  const env: TurnEnvironment = {
    projectRoot: root,
    agents: new Map(BUILTIN_AGENTS.map((a) => [a.name, a])),
    tools: options.tools(root),
    system: (agent) => [agent.prompt],
  }
  const build = () => {
    const store = new SessionStore(services.storage.sessions, services.bus)
    const agents = new AgentService(store, registry, services.bus, async () => env)
    return { store, agents, context: new ContextManager({ store, providers: registry, log: () => undefined, isBusy: (id) => agents.isBusy(id), prune: options.prune, bus: services.bus }) }
  }
  const first = build()
  const session = first.store.create({ projectId: project.id, agent: 'build', model: options.model })
  const h: Harness = {
    fake,
    router,
    registry,
    bus: services.bus,
    root,
    sessionId: session.id,
    ...first,
    restart(restartOptions = {}) {
      h.store.flush()
      h.context.dispose()
      Object.assign(h, build())
      if (restartOptions.recover !== false) h.store.recoverInterrupted(h.sessionId)
    },
  }
  return h
}
