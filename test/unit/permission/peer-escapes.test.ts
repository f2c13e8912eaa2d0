import { spawnSync } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PermissionConfig } from '../../../src/main/core/config/schema'
import type { Rule } from '../../../src/main/core/permission/rule'
import { buildRuleset } from '../../../src/main/core/permission/ruleset'
import { PermissionService } from '../../../src/main/core/permission/service'
import { bashPermissionAsks } from '../../../src/main/core/permission/shell/bash-asks'
import {
  NARROW_ALLOW_LIST,
  PEER_ENV_SECRET,
  PEER_ESCAPES,
  PEER_OUTSIDE_SECRET,
  peerCommand,
  peerProject,
  treeOf,
} from '../../support/peer-escapes'

/**
 * The peer table (other projects' suites and bypass reports) through the real
 * permission engine under the default rules, the explore agent's and a narrow
 * allow-list, and through
 * real bash in a fresh project: an escape must never be allowed, and running it
 * unchecked must really write, delete or leak (so the case proves something); a
 * control must be allowed and, run, change nothing.
 */
let base = ''
let project = ''

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'hotaru-peers-')))
  project = peerProject(base).project
})
afterAll(() => rmSync(base, { recursive: true, force: true }))

const service = new PermissionService()

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
  ['the default rules', () => buildRuleset('build')],
  ['the explore agent', () => buildRuleset('explore')],
  ['a narrow allow-list', () => buildRuleset('build', { permission: NARROW_ALLOW_LIST as unknown as PermissionConfig })],
]

const cases = PEER_ESCAPES.map((entry, i) => [i, peerCommand(i), entry.kind, entry.source] as const)

describe('the peer escape table', () => {
  it('holds at least 100 lines from other projects, each with its source', () => {
    expect(PEER_ESCAPES.length).toBeGreaterThanOrEqual(100)
    for (const entry of PEER_ESCAPES) expect(entry.source).not.toBe('')
  })

  for (const [name, rules] of rulesets) {
    describe(`under ${name}`, () => {
      it.each(cases)('#%i %j (%s, %s)', async (_i, command, kind) => {
        const result = await outcome(command, rules())
        if (kind === 'control') expect(result).toBe('allow')
        else expect(result).not.toBe('allow')
      })
    })
  }
})

function installed(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`]).status === 0
}

const runnable = cases.filter(([i]) => (PEER_ESCAPES[i]?.needs ?? []).every((need) => need !== 'decision-only' && installed(need)))

describe('the peer escape table in real bash, unchecked', () => {
  it.each(runnable)('#%i %j (%s) does what the table says', (i, command, kind) => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), `hotaru-peer-${i}-`)))
    try {
      const { project: proj, outside } = peerProject(dir)
      const before = [...treeOf(proj), ...treeOf(outside).map((p) => `outside/${p}`)]
      const run = spawnSync('bash', ['-c', command], { cwd: proj, encoding: 'utf8', input: '', timeout: 20_000, env: { ...process.env, PAGER: 'cat', GIT_PAGER: 'cat' } })
      const after = [...treeOf(proj), ...treeOf(outside).map((p) => `outside/${p}`)]
      const leaked = `${run.stdout}${run.stderr}`.includes(PEER_ENV_SECRET) || `${run.stdout}${run.stderr}`.includes(PEER_OUTSIDE_SECRET)
      if (kind === 'control') {
        expect(run.status, run.stderr).toBe(0)
        expect(after).toEqual(before)
        expect(leaked).toBe(false)
        return
      }
      const changed = JSON.stringify(after) !== JSON.stringify(before)
      expect(changed || leaked, `${command}\n${run.stderr}`).toBe(true)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
