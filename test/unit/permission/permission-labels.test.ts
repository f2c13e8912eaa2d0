import { describe, expect, it } from 'vitest'
import { ACTION_LABELS, PERMISSION_LABELS, patternLabel, permissionLabel } from '@shared/permission-labels'
import { agentDefaultRules } from '../../../src/main/core/permission/defaults'
import { Permission } from '../../../src/main/core/permission/names'
import { READ_ONLY_PATTERN } from '../../../src/main/core/permission/rule'

describe('permissions in plain words', () => {
  it('names every permission the core asks about, and every built-in rule’s kind, without its internal name', () => {
    const keys = [...Object.values(Permission), ...['build', 'plan', 'explore'].flatMap((agent) => agentDefaultRules(agent).map((r) => r.permission))]
    for (const key of keys) {
      const label = PERMISSION_LABELS[key]
      expect(label, key).toBeDefined()
      expect(`${label?.label} ${label?.description}`).not.toContain('_')
    }
    expect(permissionLabel('doom_loop').label).toBe('Repeating the same tool call')
    expect(permissionLabel('bash_unsandboxed').label).toBe('Commands outside the sandbox')
    expect(permissionLabel('github__create_issue').label).toBe('“create_issue” from github')
    expect(permissionLabel('deploy').label).toBe('Tool “deploy”')
    expect(ACTION_LABELS).toEqual({ allow: 'Allow', ask: 'Ask first', deny: 'Block' })
    expect(patternLabel('*')).toBe('Anything')
    expect(patternLabel(READ_ONLY_PATTERN)).toBe('Commands that only read')
  })
})
