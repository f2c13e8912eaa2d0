import { existsSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importToolFile } from '../../../src/main/core/extensions/custom-tool-import'
import { customToolRules, loadCustomTools } from '../../../src/main/core/extensions/custom-tools'
import { agentDefaultRules, evaluate, rulesFromConfig } from '../../../src/main/core/permission'
import { runTool, toolDefinition, type Tool } from '../../../src/main/core/tools'
import { tempDir, writeTree } from '../../support/temp'
import { testContext } from '../../unit/tools/context'

const REPO_ZOD = resolve(import.meta.dirname, '../../../node_modules/zod')

/** A project whose tool files can `import { z } from 'zod'`, as a real project with zod installed can. */
function project(files: Record<string, string>): { root: string; global: string } {
  const root = tempDir('hotaru-ct-project-')
  mkdirSync(join(root, 'node_modules'), { recursive: true })
  symlinkSync(REPO_ZOD, join(root, 'node_modules', 'zod'), 'dir')
  writeTree(root, files)
  return { root, global: tempDir('hotaru-ct-global-') }
}

function byId(tools: Tool[], id: string): Tool {
  const tool = tools.find((t) => t.id === id)
  if (!tool) throw new Error(`no tool ${id} among ${tools.map((t) => t.id).join(', ')}`)
  return tool
}

const MJS_TOOL = `
export default {
  description: 'Greets someone',
  parameters: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
  async execute(args, ctx) {
    return { output: 'hello ' + args.who + ' from ' + ctx.root, title: 'greet', metadata: { who: args.who } }
  },
}
`

const TS_TOOL = `
import { z } from 'zod'

interface Args { a: number; b: number }

export const add = {
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number().describe('second') }),
  execute(args: Args): string {
    return String(args.a + args.b)
  },
}

export const shout = {
  description: 'Upper-cases text',
  args: { text: z.string(), times: z.number().int().optional() },
  execute(args: { text: string; times?: number }): string {
    return args.text.toUpperCase().repeat(args.times ?? 1)
  },
}

export const helper = 42
`

describe('custom tools', () => {
  it('loads a .mjs tool (JSON schema) and runs it through runTool after asking', async () => {
    const { root, global } = project({ '.hotaru/tools/greet.mjs': MJS_TOOL })
    const { tools, sources, errors } = await loadCustomTools({ projectRoot: root, globalConfigDir: global })
    expect(errors).toEqual([])
    expect(sources).toEqual([{ id: 'greet', file: join(root, '.hotaru/tools/greet.mjs'), exportName: 'default', scope: 'project' }])
    const greet = byId(tools, 'greet')
    expect(toolDefinition(greet).inputSchema).toEqual({ type: 'object', properties: { who: { type: 'string' } }, required: ['who'] })
    const ctx = testContext(root)
    const result = await runTool(greet, { who: 'Ada' }, ctx)
    expect(result.error).toBeUndefined()
    expect(result.output).toBe(`hello Ada from ${ctx.root}`)
    expect(result.title).toBe('greet')
    expect(result.metadata).toMatchObject({ who: 'Ada' })
    expect(ctx.asks).toEqual([
      expect.objectContaining({ permission: 'greet', patterns: ['*'], always: ['*'], title: 'Run custom tool greet' }),
    ])
    const missing = await runTool(greet, {}, ctx)
    expect(missing.error?.name).toBe('InvalidToolArguments')
    expect(missing.output).toContain('- who: required')
  })

  it('loads a .ts tool with zod schemas; named exports are <file>_<export>', async () => {
    const { root, global } = project({ '.hotaru/tools/math.ts': TS_TOOL })
    const { tools, errors } = await loadCustomTools({ projectRoot: root, globalConfigDir: global })
    expect(errors).toEqual([])
    expect(tools.map((t) => t.id).sort()).toEqual(['math_add', 'math_shout'])
    const add = byId(tools, 'math_add')
    expect(toolDefinition(add).inputSchema).toMatchObject({ type: 'object', required: ['a', 'b'] })
    const ctx = testContext(root)
    expect((await runTool(add, { a: 2, b: 3 }, ctx)).output).toBe('5')
    const bad = await runTool(add, { a: 2, b: 'x' }, ctx)
    expect(bad.error?.name).toBe('InvalidToolArguments')
    expect(bad.output).toMatch(/- b: .*number/)
    const shout = byId(tools, 'math_shout')
    expect(toolDefinition(shout).inputSchema).toMatchObject({ required: ['text'] })
    expect((await runTool(shout, { text: 'hi', times: 2 }, ctx)).output).toBe('HIHI')
    expect((await runTool(shout, { text: 7 }, ctx)).output).toMatch(/- text: /)
    expect(ctx.asks.map((a) => a.permission)).toEqual(['math_add', 'math_shout'])
  })

  it('reports a broken file, a bad export and a built-in clash, and keeps the good tools', async () => {
    const { root, global } = project({
      '.hotaru/tools/broken.mjs': 'export default { description: "x", execute( {',
      '.hotaru/tools/read.mjs': 'export default { description: "shadow", execute: () => "no" }',
      '.hotaru/tools/half.mjs': 'export const ok = { description: "fine", execute: () => "ok" }\nexport const bad = { execute: () => "x" }',
      '.hotaru/tools/empty.js': 'export const notATool = 1',
      '.hotaru/tools/types.d.ts': 'export type X = string',
      '.hotaru/tools/lib/helper.mjs': 'throw new Error("never loaded")',
    })
    const { tools, errors } = await loadCustomTools({ projectRoot: root, globalConfigDir: global })
    expect(tools.map((t) => t.id)).toEqual(['half_ok'])
    const dir = join(root, '.hotaru/tools')
    expect(errors).toEqual([
      { file: join(dir, 'broken.mjs'), error: expect.stringMatching(/^cannot load: .*SyntaxError|^cannot load: /) },
      { file: join(dir, 'empty.js'), error: expect.stringContaining('exports no tool') },
      { file: join(dir, 'half.mjs'), error: 'export "bad" (tool "half_bad"): `description` must be a non-empty string' },
      { file: join(dir, 'read.mjs'), error: expect.stringContaining('"read" has the id of a built-in tool') },
    ])
  })

  it('loads default and named exports of .ts files run as CommonJS or as ES modules', async () => {
    const body = 'const n: number = 1\nexport const extra = { description: "extra", execute: (): string => "extra" }\n' +
      'export default { description: "main", execute: (): string => "main" + n }\n'
    const { root, global } = project({ '.hotaru/tools/cjsish.ts': body })
    writeTree(global, { 'tools/package.json': '{"type":"module"}', 'tools/esm.ts': body })
    const { tools, errors } = await loadCustomTools({ projectRoot: root, globalConfigDir: global })
    expect(errors).toEqual([])
    expect(tools.map((t) => t.id).sort()).toEqual(['cjsish', 'cjsish_extra', 'esm', 'esm_extra'])
    const ctx = testContext(root)
    expect((await runTool(byId(tools, 'cjsish'), {}, ctx)).output).toBe('main1')
    expect((await runTool(byId(tools, 'esm_extra'), {}, ctx)).output).toBe('extra')
  })

  it('imports an unchanged .ts file once', async () => {
    const { root } = project({ '.hotaru/tools/once.ts': 'export default { description: "o", execute: (): string => "o" }' })
    const file = join(root, '.hotaru/tools/once.ts')
    expect(await importToolFile(file)).toBe(await importToolFile(file))
  })

  it('reports a broken .ts file with its error', async () => {
    const { root, global } = project({ '.hotaru/tools/oops.ts': 'import { nothing } from "./missing-module"\nexport default { description: "x", execute: () => nothing }' })
    const { tools, errors } = await loadCustomTools({ projectRoot: root, globalConfigDir: global })
    expect(tools).toEqual([])
    expect(errors).toHaveLength(1)
    expect(errors[0]?.error).toMatch(/^cannot load: .*missing-module/)
  })

  it('lets a project tool replace a user tool of the same id and sanitizes ids', async () => {
    const { root, global } = project({ '.hotaru/tools/deploy.mjs': 'export default { description: "project deploy", execute: () => "project" }' })
    writeTree(global, {
      'tools/deploy.mjs': 'export default { description: "user deploy", execute: () => "user" }',
      'tools/my.tool.mjs': 'export default { description: "dotted", execute: () => "dotted" }',
    })
    const { tools, sources, errors } = await loadCustomTools({ projectRoot: root, globalConfigDir: global })
    expect(errors).toEqual([])
    expect(tools.map((t) => t.id).sort()).toEqual(['deploy', 'my_tool'])
    expect(byId(tools, 'deploy').description).toBe('project deploy')
    expect(sources.find((s) => s.id === 'my_tool')?.scope).toBe('global')
  })

  it('turns a wrong return value or a throw into an error for the model', async () => {
    const { root, global } = project({
      '.hotaru/tools/odd.mjs': 'export default { description: "returns a number", execute: () => 42 }',
      '.hotaru/tools/fails.mjs': 'export default { description: "throws", execute: () => { throw new Error("disk on fire") } }',
    })
    const { tools } = await loadCustomTools({ projectRoot: root, globalConfigDir: global })
    const ctx = testContext(root)
    const odd = await runTool(byId(tools, 'odd'), {}, ctx)
    expect(odd.error?.name).toBe('ToolError')
    expect(odd.output).toContain('returned number')
    const fails = await runTool(byId(tools, 'fails'), {}, ctx)
    expect(fails.error).toBeDefined()
    expect(fails.output).toContain('disk on fire')
  })

  it('does not run the tool when permission is refused', async () => {
    const { root, global } = project({
      '.hotaru/tools/mark.mjs': `import { writeFileSync } from 'node:fs'\nexport default { description: "writes", execute: (_a, ctx) => { writeFileSync(ctx.root + '/ran', 'x'); return 'ran' } }`,
    })
    const { tools } = await loadCustomTools({ projectRoot: root, globalConfigDir: global })
    const ctx = testContext(root, {
      async ask() {
        throw Object.assign(new Error('rejected'), { name: 'PermissionRejected' })
      },
    })
    const result = await runTool(byId(tools, 'mark'), {}, ctx)
    expect(result.error).toBeDefined()
    expect(existsSync(join(root, 'ran'))).toBe(false)
  })

  it('picks up an edited .mjs file on reload', async () => {
    const { root, global } = project({ '.hotaru/tools/ver.mjs': 'export default { description: "v", execute: () => "one" }' })
    const first = await loadCustomTools({ projectRoot: root, globalConfigDir: global })
    const file = join(root, '.hotaru/tools/ver.mjs')
    writeFileSync(file, 'export default { description: "v", execute: () => "two" }')
    utimesSync(file, new Date(), new Date(Date.now() + 5000))
    const second = await loadCustomTools({ projectRoot: root, globalConfigDir: global })
    const ctx = testContext(root)
    expect((await runTool(byId(first.tools, 'ver'), {}, ctx)).output).toBe('one')
    expect((await runTool(byId(second.tools, 'ver'), {}, ctx)).output).toBe('two')
  })

  it('customToolRules make custom tools ask, and config can still allow them', () => {
    const rules = customToolRules([{ id: 'greet' }])
    const defaults = agentDefaultRules('build')
    expect(evaluate('greet', '*', defaults)).toBe('allow')
    expect(evaluate('greet', '*', [...defaults, ...rules])).toBe('ask')
    expect(evaluate('greet', '*', [...defaults, ...rules, ...rulesFromConfig({ greet: 'allow' })])).toBe('allow')
  })
})
