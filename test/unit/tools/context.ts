import { realpathSync } from 'node:fs'
import { afterEach } from 'vitest'
import type { PermissionAsk } from '../../../src/main/core/permission/service'
import { BackgroundProcesses } from '../../../src/main/core/tools/bash/background'
import { FileTimes } from '../../../src/main/core/tools/file-times'
import { MemoryTodoStore } from '../../../src/main/core/tools/todos'
import type { Question, QuestionAnswer, SubagentRequest, ToolContext, ToolProgress } from '../../../src/main/core/tools/tool'
import { tempDir } from '../../support/temp'

export interface TestContext extends ToolContext {
  asks: PermissionAsk[]
  progress: ToolProgress[]
  questions: Question[][]
  subagents: SubagentRequest[]
  switched: string[]
  controller: AbortController
}

const registries: BackgroundProcesses[] = []

afterEach(async () => {
  for (const registry of registries.splice(0)) await registry.dispose()
})

/** A tool context over a real temp project; asks are recorded and allowed unless `ask` is given. */
export function testContext(root: string = realpathSync(tempDir('hotaru-tools-')), overrides: Partial<ToolContext> = {}): TestContext {
  const asks: PermissionAsk[] = []
  const progress: ToolProgress[] = []
  const questions: Question[][] = []
  const subagents: SubagentRequest[] = []
  const switched: string[] = []
  const controller = new AbortController()
  const background = new BackgroundProcesses()
  registries.push(background)
  const ctx: TestContext = {
    root: realpathSync(root),
    projectId: 'p1',
    sessionId: 's1',
    messageId: 'm1',
    callId: `call_${Math.random().toString(36).slice(2)}`,
    agent: 'build',
    signal: controller.signal,
    async ask(request) {
      asks.push(request)
    },
    metadata(update) {
      progress.push(update)
    },
    fileTimes: new FileTimes(),
    todos: new MemoryTodoStore(),
    async question(qs): Promise<QuestionAnswer[]> {
      questions.push(qs)
      return qs.map((q) => [q.options[0]?.label ?? ''])
    },
    async runSubagent(request) {
      subagents.push(request)
      return `result of ${request.agent}: ${request.description}`
    },
    switchAgent(agent) {
      switched.push(agent)
    },
    background,
    outputDir: tempDir('hotaru-out-'),
    asks,
    progress,
    questions,
    subagents,
    switched,
    controller,
    ...overrides,
  }
  return ctx
}
