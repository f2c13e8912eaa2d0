import { writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { DoomLoopTracker } from '../../../src/main/core/permission/doom-loop'
import { builtinTools } from '../../../src/main/core/tools/builtin'
import { planEnterTool, planExitTool, planFilePath } from '../../../src/main/core/tools/plan'
import { questionTool } from '../../../src/main/core/tools/question'
import { ToolRegistry } from '../../../src/main/core/tools/registry'
import { runTool } from '../../../src/main/core/tools/run-tool'
import { taskTool } from '../../../src/main/core/tools/task'
import { todowriteTool } from '../../../src/main/core/tools/todo'
import { defineTool } from '../../../src/main/core/tools/tool'
import { testContext } from './context'

const ALL = ['read', 'write', 'edit', 'multiedit', 'apply_patch', 'list', 'glob', 'grep', 'bash', 'bash_output', 'bash_kill',
  'todowrite', 'question', 'task', 'webfetch', 'websearch', 'plan_enter', 'plan_exit']

describe('ToolRegistry', () => {
  const registry = new ToolRegistry(builtinTools())

  it('holds every built-in tool with a description from its text file', () => {
    expect(registry.all().map((t) => t.id)).toEqual(ALL)
    for (const tool of registry.all()) expect(tool.description.length).toBeGreaterThan(40)
  })

  it('produces provider definitions with JSON schemas', () => {
    const [read] = registry.definitions([registry.get('read') as never])
    expect(read).toMatchObject({ name: 'read', inputSchema: { type: 'object', required: ['filePath'] } })
    expect(read?.inputSchema).not.toHaveProperty('$schema')
    for (const def of registry.definitions()) expect(def.inputSchema.type).toBe('object')
  })

  it('lists tools per agent and applies the agent tools map (last match wins)', () => {
    const ids = (agent: string, map?: Record<string, boolean>): string[] => registry.forAgent(agent, map).map((t) => t.id)
    expect(ids('build')).not.toContain('plan_exit')
    expect(ids('build')).toContain('plan_enter')
    expect(ids('plan')).toContain('plan_exit')
    expect(ids('explore')).not.toContain('edit')
    expect(ids('explore')).not.toContain('task')
    expect(ids('general')).not.toContain('task')
    expect(ids('build', { bash: false, 'bash_*': false })).not.toContain('bash_output')
    expect(ids('build', { '*': false, read: true })).toEqual(['read'])
    expect(ids('my-agent')).not.toContain('plan_enter')
  })

  it('answers unknown tools with the list of available ones', async () => {
    const result = await registry.run('nope', {}, testContext())
    expect(result.error?.name).toBe('UnknownTool')
    expect(result.output).toMatch(/no tool named "nope".*read, write/s)
  })

  it('refuses duplicate and malformed ids', () => {
    expect(() => registry.register(registry.get('read') as never)).toThrow(/twice/)
    expect(() => new ToolRegistry([defineTool({ id: 'bad id', description: 'x', parameters: z.object({}), execute: async () => ({ title: '', output: '', metadata: {} }) })])).toThrow(/invalid tool id/)
  })
})

describe('runTool', () => {
  const echo = defineTool({
    id: 'echo',
    description: 'echo',
    parameters: z.object({ text: z.string() }),
    async execute(args) {
      return { title: 'echo', output: args.text, metadata: {} }
    },
  })

  it('times calls and turns thrown errors into messages', async () => {
    const boom = defineTool({ id: 'boom', description: 'b', parameters: z.object({}), execute: async () => { throw new Error('disk on fire') } })
    const result = await runTool(boom, {}, testContext())
    expect(result).toMatchObject({ output: 'Error: disk on fire', error: { name: 'Internal' } })
    expect(typeof result.durationMs).toBe('number')
  })

  it('raises a doom_loop ask on the third identical call in a row', async () => {
    const ctx = testContext()
    const doomLoop = new DoomLoopTracker()
    for (let i = 0; i < 3; i++) await runTool(echo, { text: 'same' }, ctx, { doomLoop })
    expect(ctx.asks).toEqual([expect.objectContaining({ permission: 'doom_loop', patterns: ['echo'] })])
  })

  it('reports an aborted call as aborted', async () => {
    const ctx = testContext()
    ctx.controller.abort()
    expect((await runTool(echo, { text: 'x' }, ctx)).error?.name).toBe('ToolAborted')
  })

  it('treats missing input as an empty object', async () => {
    const result = await runTool(echo, undefined, testContext())
    expect(result.output).toMatch(/- text: /)
  })
})

describe('session tools', () => {
  it('todowrite replaces the list and answers with it (no separate read tool)', async () => {
    const ctx = testContext()
    const written = await runTool(todowriteTool, { todos: [{ content: 'Write tests', status: 'in_progress', priority: 'high' }, { content: 'Ship', status: 'pending' }] }, ctx)
    expect(written.output).toBe('[~] Write tests (high)\n[ ] Ship')
    expect(ctx.todos.get().map((t) => t.id)).toEqual(['1', '2'])
  })

  it('question returns the answers', async () => {
    const ctx = testContext()
    const result = await runTool(questionTool, { questions: [{ question: 'Which DB?', options: [{ label: 'SQLite' }, { label: 'Postgres' }] }] }, ctx)
    expect(result.output).toContain('Q: Which DB?\nA: SQLite')
    expect(result.metadata.answers).toEqual([['SQLite']])
  })

  it('task runs subagents, in parallel when called so', async () => {
    const ctx = testContext()
    const calls = ['a', 'b', 'c'].map((d) => runTool(taskTool, { description: d, prompt: `do ${d}`, subagent_type: 'explore' }, ctx))
    const results = await Promise.all(calls)
    expect(results.map((r) => r.output)).toEqual(['result of explore: a', 'result of explore: b', 'result of explore: c'])
    expect(ctx.asks.map((a) => a.permission)).toEqual(['task', 'task', 'task'])
  })

  it('plan_enter switches to plan when accepted; plan_exit needs the plan file', async () => {
    const ctx = testContext()
    await runTool(planEnterTool, {}, ctx)
    expect(ctx.switched).toEqual(['plan'])
    const missing = await runTool(planExitTool, {}, ctx)
    expect(missing.output).toMatch(/No plan found/)
    mkdirSync(join(ctx.root, '.hotaru/plans'), { recursive: true })
    writeFileSync(join(ctx.root, planFilePath('s1')), '# Plan\n1. do it\n')
    const approved = await runTool(planExitTool, {}, ctx)
    expect(approved.output).toContain('# Plan')
    expect(ctx.switched).toEqual(['plan', 'build'])
  })
})
