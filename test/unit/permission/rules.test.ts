import { realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { describe, expect, it } from 'vitest'
import { rulesFromConfig } from '../../../src/main/core/permission/config-rules'
import { agentDefaultRules } from '../../../src/main/core/permission/defaults'
import { decide } from '../../../src/main/core/permission/service'
import { evaluate, wildcardMatch, type Rule } from '../../../src/main/core/permission/rule'
import { buildRuleset } from '../../../src/main/core/permission/ruleset'
import { analyzeShell } from '../../../src/main/core/permission/shell/analyze'
import { alwaysPattern } from '../../../src/main/core/permission/shell/arity'

describe('wildcardMatch', () => {
  const table: Array<[string, string, boolean]> = [
    ['git status', 'git status', true],
    ['git status', 'git status *', true],
    ['git status -s', 'git status *', true],
    ['git statusx', 'git status *', false],
    ['git stash', 'git status *', false],
    ['npm run test -- --watch', 'npm run test *', true],
    ['npm run testing', 'npm run test *', false],
    ['rm -rf /', 'rm *', true],
    ['rm', 'rm *', true],
    ['src/.env', '*.env', true],
    ['.env', '*.env', true],
    ['.env.example', '*.env', false],
    ['.env.example', '*.env.*', true],
    ['a/b/c.ts', 'a/*', true],
    ['a/b/c.ts', 'a/?/c.ts', true],
    ['a/bb/c.ts', 'a/?/c.ts', false],
    ['anything\nwith newline', '*', true],
    ['echo a\nrm -rf /', 'echo *', true],
    ['x.ts', '*.[tj]s', false],
    ['(a)', '(a)', true],
    ['a+b', 'a+b', true],
    ['aab', 'a+b', false],
    ['/tmp/x', '/tmp/*', true],
    ['/tmpx', '/tmp/*', false],
    ['', '*', true],
    ['', '?', false],
  ]
  it.each(table)('%j ~ %j → %s', (value, pattern, expected) => {
    expect(wildcardMatch(value, pattern)).toBe(expected)
  })
})

describe('rule evaluation', () => {
  const rules: Rule[] = [
    { permission: 'bash', pattern: '*', action: 'ask' },
    { permission: 'bash', pattern: 'git status *', action: 'allow' },
    { permission: 'bash', pattern: 'rm *', action: 'deny' },
    { permission: 'read', pattern: '*', action: 'allow' },
    { permission: 'read', pattern: '*.env', action: 'ask' },
    { permission: 'read', pattern: '*.env.example', action: 'allow' },
    { permission: 'mcp_*', pattern: '*', action: 'deny' },
  ]
  const table: Array<[string, string, string]> = [
    ['bash', 'git status', 'allow'],
    ['bash', 'git push', 'ask'],
    ['bash', 'rm -rf x', 'deny'],
    ['read', 'src/a.ts', 'allow'],
    ['read', 'config/.env', 'ask'],
    ['read', '.env.example', 'allow'],
    ['mcp_github', 'anything', 'deny'],
    ['webfetch', 'https://x', 'ask'],
  ]
  it.each(table)('%s %j → %s (last match wins, no match asks)', (permission, pattern, action) => {
    expect(evaluate(permission, pattern, rules)).toBe(action)
  })

  it('takes later rulesets over earlier ones', () => {
    expect(evaluate('bash', 'rm x', rules, [{ permission: 'bash', pattern: 'rm x', action: 'allow' }])).toBe('allow')
  })

  it('turns the config shape into rules in key order', () => {
    expect(rulesFromConfig({ bash: { '*': 'ask', 'git status': 'allow', 'rm *': 'deny' }, webfetch: 'allow' })).toEqual([
      { permission: 'bash', pattern: '*', action: 'ask' },
      { permission: 'bash', pattern: 'git status', action: 'allow' },
      { permission: 'bash', pattern: 'rm *', action: 'deny' },
      { permission: 'webfetch', pattern: '*', action: 'allow' },
    ])
  })

  it('layers agent defaults, config and the agent config', () => {
    const ruleset = buildRuleset('build', {
      permission: { bash: { 'npm test *': 'allow' } },
      agent: { build: { permission: { bash: { 'npm test --update*': 'deny' } } } },
    })
    expect(evaluate('bash', 'npm test', ruleset)).toBe('allow')
    expect(evaluate('bash', 'npm test --updateSnapshot', ruleset)).toBe('deny')
    expect(evaluate('bash', 'ls', ruleset)).toBe('ask')
  })
})

describe('agent defaults', () => {
  const table: Array<[string, string, string, string]> = [
    ['build', 'bash', 'ls', 'ask'],
    ['build', 'edit', 'src/a.ts', 'ask'],
    ['build', 'external_directory', '/tmp/*', 'ask'],
    ['build', 'read', 'src/a.ts', 'allow'],
    ['build', 'read', '.env', 'ask'],
    ['build', 'read', 'apps/web/.env.local', 'ask'],
    ['build', 'read', '.env.example', 'allow'],
    ['build', 'glob', '*.ts', 'allow'],
    ['build', 'doom_loop', 'read', 'ask'],
    ['general', 'edit', 'src/a.ts', 'ask'],
    ['plan', 'edit', 'src/a.ts', 'deny'],
    ['plan', 'edit', '.hotaru/plans/s1.md', 'allow'],
    ['plan', 'bash', 'ls', 'ask'],
    ['explore', 'edit', 'src/a.ts', 'deny'],
    ['explore', 'edit', '.hotaru/plans/s1.md', 'deny'],
    ['explore', 'bash', 'git status', 'ask'],
    ['explore', 'bash', 'rm -rf src', 'deny'],
    ['explore', 'bash', 'git commit -m x', 'deny'],
    ['explore', 'bash', 'sed -i s/a/b/ f', 'deny'],
    ['explore', 'bash', 'find . -name x -delete', 'deny'],
    ['explore', 'bash', 'npm install left-pad', 'deny'],
    ['explore', 'bash', 'curl https://x', 'ask'],
  ]
  it.each(table)('%s: %s %j → %s', (agent, permission, pattern, action) => {
    expect(evaluate(permission, pattern, agentDefaultRules(agent))).toBe(action)
  })

  it.each(['build', 'plan', 'explore', 'general'])('%s: a command the read-only table vouches for runs unasked', (agent) => {
    expect(decide('bash', 'ls -la src', agentDefaultRules(agent), [], [], true)).toBe('allow')
    expect(decide('bash', 'ls -la src', agentDefaultRules(agent), [], [], false)).toBe('ask')
  })

  it('a user rule after the defaults still decides a read-only command, and "@read-only" can be configured', () => {
    const rules = [...agentDefaultRules('build'), { permission: 'bash', pattern: '*', action: 'deny' as const }]
    expect(decide('bash', 'ls', rules, [], [], true)).toBe('deny')
    const again = [...rules, { permission: 'bash', pattern: '@read-only', action: 'allow' as const }]
    expect(decide('bash', 'ls', again, [], [], true)).toBe('allow')
    expect(decide('bash', 'rm x', again, [], [], false)).toBe('deny')
    // A user's deny floor holds over the built-in read-only allow.
    expect(decide('bash', 'cat x', agentDefaultRules('build'), [], [[{ permission: 'bash', pattern: 'cat *', action: 'deny' }]], true)).toBe('deny')
  })
})

describe('home directory in configured patterns', () => {
  const home = realpathSync(homedir())
  const table: Array<[string, string, string]> = [
    ['external_directory', '~/projects/*', `${home}/projects/*`],
    ['external_directory', '~', home],
    ['read', '$HOME/.ssh/*', `${home}/.ssh/*`],
    ['edit', '${HOME}/notes/*', `${home}/notes/*`],
    ['external_directory', '~user/x', '~user/x'],
    ['read', 'src/~/x', 'src/~/x'],
    ['bash', '~/bin/tool *', '~/bin/tool *'],
  ]
  it.each(table)('%s %j → %j', (permission, pattern, expected) => {
    expect(rulesFromConfig({ [permission]: { [pattern]: 'allow' } })[0]?.pattern).toBe(expected)
  })

  it('an external_directory rule with ~ matches the folder under home', () => {
    const rules = rulesFromConfig({ external_directory: { '~/projects/*': 'allow' } })
    expect(evaluate('external_directory', `${home}/projects/other/*`, rules)).toBe('allow')
    expect(evaluate('external_directory', `${home}/secrets/*`, rules)).toBe('ask')
  })
})

describe('prototype-safe tables', () => {
  const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']
  it.each(names)('%s is an ordinary command', async (name) => {
    const analysis = await analyzeShell(`${name} rm x`, '/p')
    if (!analysis.ok) throw new Error(analysis.reason)
    expect(analysis.commands.map((c) => c.text)).toEqual([`${name} rm x`])
    expect(alwaysPattern([name, 'rm', 'x'])).toBe(`${name} *`)
  })
})
