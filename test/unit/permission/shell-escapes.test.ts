import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PermissionConfig } from '../../../src/main/core/config/schema'
import { agentDefaultRules } from '../../../src/main/core/permission/defaults'
import type { Rule } from '../../../src/main/core/permission/rule'
import { buildRuleset } from '../../../src/main/core/permission/ruleset'
import { PermissionService } from '../../../src/main/core/permission/service'
import { bashPermissionAsks } from '../../../src/main/core/permission/shell/bash-asks'
import { ALLOWED_SAMPLES, DENY_BY_DEFAULT, SHELL_ESCAPES, commandOf, escapeProject } from '../../support/shell-escapes'

let base = ''
let project = ''

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'hotaru-escapes-')))
  project = escapeProject(base).project
})
afterAll(() => rmSync(base, { recursive: true, force: true }))

const service = new PermissionService()

/** The outcome of a whole line: denied by a rule, asked (nobody can answer here), or allowed. */
async function outcome(command: string, ruleset: Rule[]): Promise<'deny' | 'ask' | 'allow'> {
  let result: 'deny' | 'ask' | 'allow' = 'allow'
  for (const ask of await bashPermissionAsks(command, project, project)) {
    const action = await service.check({ ...ask, sessionId: 's', projectId: 'p', ruleset })
    if (action === 'deny') return 'deny'
    if (action === 'ask') result = 'ask'
  }
  return result
}

const rulesets: Array<[string, () => Rule[]]> = [
  ['deny by default', () => buildRuleset('build', { permission: DENY_BY_DEFAULT as unknown as PermissionConfig })],
  ['the defaults', () => agentDefaultRules('build')],
]

describe('shell escapes', () => {
  it('has at least 60 entries', () => {
    expect(SHELL_ESCAPES.length).toBeGreaterThanOrEqual(60)
  })

  for (const [name, rules] of rulesets) {
    describe(`under ${name}`, () => {
      it.each(SHELL_ESCAPES.map((e, i) => [commandOf(i), e.kind] as const))('%j is never allowed', async (command) => {
        expect(await outcome(command, rules())).not.toBe('allow')
      })
    })
  }

  it('still allows what deny-by-default allows, cd into the project included', async () => {
    const rules = buildRuleset('build', { permission: DENY_BY_DEFAULT as unknown as PermissionConfig })
    for (const command of ALLOWED_SAMPLES) expect(await outcome(command, rules), command).toBe('allow')
  })
})
