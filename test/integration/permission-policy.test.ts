import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { IpcResult } from '@shared/errors'
import type { RuleInEffect } from '@shared/schema/permission-rules'
import { turnEnvironment } from '../../src/main/core/agent/environment'
import { evaluate, type Rule } from '../../src/main/core/permission'
import { Connection, createAppRouter } from '../../src/main/ipc'
import { fixtureServer } from './mcp/helpers'
import { testServices } from '../support/services'
import { tempDir, writeTree } from '../support/temp'

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`

/**
 * A project with rules in every config layer (the user's, a parent folder's, the project's, `.hotaru`, the
 * environment's and the managed one), agent rules in config and in agent files (the user's and the project's),
 * a custom tool and an MCP server.
 */
function everyLayer() {
  const home = tempDir()
  const managed = tempDir()
  const configDir = join(home, '.config', 'hotaru')
  writeTree(configDir, {
    'hotaru.jsonc': json({
      permission: { bash: { '*': 'ask', 'rm *': 'deny' }, webfetch: 'ask' },
      agent: { plan: { permission: { edit: 'deny' } }, reviewer: { description: 'Reviews changes', mode: 'subagent' } },
      mcp: { fx: fixtureServer('ok') },
    }),
    'agents/reviewer.md': '---\ndescription: Reviews changes\npermission:\n  bash:\n    "git diff*": allow\n---\nReview the change.\n',
    'tools/greet.js': "export default { description: 'Greets', execute: async () => 'hello' }\n",
  })
  writeTree(managed, { 'hotaru.json': json({ permission: { webfetch: { 'http://intranet*': 'deny' } } }) })
  const parent = tempDir()
  const root = join(parent, 'app')
  mkdirSync(root)
  writeTree(parent, { 'hotaru.json': json({ permission: { read: { '*.secret': 'ask' } } }) })
  writeTree(root, {
    'hotaru.json': json({ permission: { bash: { '*': 'allow', 'git *': 'allow' } }, agent: { build: { permission: { bash: { 'npm *': 'deny' } } } } }),
    '.hotaru/hotaru.json': json({ permission: { edit: { 'src/*': 'allow', 'dist/*': 'deny' } } }),
    '.hotaru/agents/reviewer.md': '---\npermission:\n  bash:\n    "make *": allow\n    "curl *": deny\n---\nReview the change.\n',
    'src/a.ts': 'export {}\n',
  })
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    HOTARU_MANAGED_CONFIG_DIR: managed,
    HOTARU_CONFIG_CONTENT: json({ permission: { read: { '*.env': 'deny' } } }),
  }
  return { root, env }
}

/** The questions a user cares about, asked of the runtime's rules and of what Settings shows. */
const PROBES: [string, string][] = [
  ['bash', 'ls'],
  ['bash', 'rm -rf build'],
  ['bash', 'git diff HEAD'],
  ['bash', 'make test'],
  ['bash', 'curl example.com'],
  ['bash', 'npm install'],
  ['edit', 'src/a.ts'],
  ['edit', 'dist/a.js'],
  ['read', 'x.env'],
  ['read', 'a.secret'],
  ['webfetch', 'http://intranet/wiki'],
  ['greet', '*'],
]

/** What a call would meet: denied by a floor, else the last matching rule (ask when none matches). */
function decision(permission: string, pattern: string, ruleset: Rule[], floors: Rule[][]): string {
  if (floors.some((floor) => evaluate(permission, pattern, floor) === 'deny')) return 'deny'
  return evaluate(permission, pattern, ruleset)
}

const strip = ({ permission, pattern, action }: Rule): Rule => ({ permission, pattern, action })

describe('one permission policy for the runtime and Settings → Permissions', () => {
  for (const trusted of [false, true]) {
    it(`Settings shows what the runtime enforces, for every config layer and agent (${trusted ? 'trusted' : 'restricted'} folder)`, async () => {
      const { root, env } = everyLayer()
      const services = testServices({ env })
      const project = services.projects.openFolder(root)
      if (trusted) services.trust.trust(root)
      // The user's MCP server connects (its tools ask like custom tools).
      await services.mcp.ensure(project, await services.configs.of(project).load())
      await expect.poll(() => services.mcp.toolsOf(project.id).length, { timeout: 30_000 }).toBeGreaterThan(0)
      const mcpTool = services.mcp.toolsOf(project.id)[0]?.id ?? ''

      const session = services.sessions.create({ projectId: project.id, agent: 'build', model: 'anthropic/claude-sonnet-4-6' })
      const runtime = await turnEnvironment({ projects: services.projects, configs: services.configs, tools: services.tools, mcp: services.mcp, bus: services.bus, env, dataDir: tempDir() })(session, {
        turnId: () => undefined,
        hooks: { runSubagent: () => Promise.resolve(''), switchAgent: () => undefined },
      })
      const router = createAppRouter(services)
      const connection = new Connection('ui', () => undefined)
      const settings = async (agent: string): Promise<RuleInEffect[]> => {
        const result = (await router.handle(connection, 'permission.rules', { projectId: project.id, agent })) as IpcResult<{ rules: RuleInEffect[] }>
        if (!result.ok) throw new Error(result.error.data.message)
        return result.value.rules
      }

      const agents = [...runtime.agents.keys()]
      expect(agents).toEqual(expect.arrayContaining(['build', 'plan', 'explore', 'general', 'reviewer']))
      for (const agent of agents) {
        const shown = await settings(agent)
        const enforced = runtime.tools.permissionRules?.(agent)
        if (!enforced) throw new Error('the tool host names no permission rules')
        // The same rules, in the same order, less those a restricted folder asked for and did not get.
        expect(shown.filter((rule) => !rule.untrusted).map(strip), agent).toEqual(enforced.ruleset)
        // Every deny Settings marks as holding is a deny of a floor the runtime checks, and the other way round
        // (the user's `agent.plan` deny stays a floor when a later user-scope layer, the environment's, has no agent rules).
        const floorDenies = (rules: Rule[]): string[] => [...new Set(rules.filter((r) => r.action === 'deny').map((r) => `${r.permission} ${r.pattern}`))].sort()
        expect(floorDenies(shown.filter((rule) => rule.floor === true)), agent).toEqual(floorDenies(enforced.floors.flat()))
        const shownRuleset = shown.filter((rule) => !rule.untrusted).map(strip)
        const shownFloors = [shown.filter((rule) => rule.floor === true).map(strip)]
        for (const [permission, pattern] of [...PROBES, [mcpTool, '*'] as [string, string]]) {
          expect(decision(permission, pattern, shownRuleset, shownFloors), `${agent}: ${permission} ${pattern}`).toBe(decision(permission, pattern, enforced.ruleset, enforced.floors))
        }
      }

      // What the page shows for the agent the rules were written for, with their layers.
      const reviewer = await settings('reviewer')
      const layers = new Set(reviewer.map((rule) => rule.layer))
      for (const layer of ['agent', 'tool', 'user', 'project', 'env', 'managed', 'agent-file'] as const) expect(layers, layer).toContain(layer)
      expect(reviewer).toContainEqual(expect.objectContaining({ permission: mcpTool, action: 'ask', layer: 'tool' }))
      expect(reviewer).toContainEqual(expect.objectContaining({ permission: 'greet', action: 'ask', layer: 'tool' }))
      expect(reviewer).toContainEqual(expect.objectContaining({ permission: 'bash', pattern: 'rm *', action: 'deny', layer: 'user', floor: true }))
      const reviewerRules = runtime.tools.permissionRules?.('reviewer')
      if (!reviewerRules) throw new Error('no rules')
      // The user's own agent file widens; the project's own agent file only once the folder is trusted.
      expect(decision('bash', 'git diff HEAD', reviewerRules.ruleset, reviewerRules.floors)).toBe('allow')
      expect(decision('bash', 'make test', reviewerRules.ruleset, reviewerRules.floors)).toBe(trusted ? 'allow' : 'ask')
      expect(decision('bash', 'curl example.com', reviewerRules.ruleset, reviewerRules.floors)).toBe('deny')
      // A user deny holds over the project's `bash: allow` and its agent rules.
      expect(decision('bash', 'rm -rf build', reviewerRules.ruleset, reviewerRules.floors)).toBe('deny')
      const build = await settings('build')
      expect(build).toContainEqual(expect.objectContaining({ permission: 'bash', pattern: 'npm *', action: 'deny', layer: 'project', agent: 'build' }))
      const projectAllows = build.filter((rule) => rule.layer === 'project' && rule.action === 'allow')
      expect(projectAllows.length).toBeGreaterThan(0)
      expect(projectAllows.every((rule) => rule.untrusted === (trusted ? undefined : true))).toBe(true)
    })
  }
})
