import { describe, expect, it } from 'vitest'
import type { HooksConfig } from '../../../src/main/core/config/schema'
import type { HookProcessResult } from '../../../src/main/core/extensions/hook-process'
import { hookInput, plannedHooks, verdictOf } from '../../../src/main/core/extensions/hooks'

const done = (over: Partial<HookProcessResult>): HookProcessResult => ({
  code: 0, signal: null, stdout: '', stderr: '', timedOut: false, aborted: false, ...over,
})

describe('plannedHooks', () => {
  const hooks: HooksConfig = {
    PreToolUse: [
      { matcher: 'edit|write', hooks: [{ type: 'command', command: 'fmt', timeout: 5 }] },
      { matcher: 'bash', hooks: [{ type: 'command', command: 'guard' }, { type: 'command', command: 'log' }] },
      { hooks: [{ type: 'command', command: 'all' }] },
    ],
    Stop: [{ matcher: 'edit', hooks: [{ type: 'command', command: 'bye' }] }],
  }

  it('selects by whole tool id, with timeouts in milliseconds', () => {
    expect(plannedHooks(hooks, 'PreToolUse', 'write').planned).toEqual([
      { command: 'fmt', timeoutMs: 5000 },
      { command: 'all', timeoutMs: 60_000 },
    ])
    expect(plannedHooks(hooks, 'PreToolUse', 'bash').planned.map((p) => p.command)).toEqual(['guard', 'log', 'all'])
    expect(plannedHooks(hooks, 'PreToolUse', 'bash_output').planned.map((p) => p.command)).toEqual(['all'])
  })

  it('ignores the matcher for events without a tool', () => {
    expect(plannedHooks(hooks, 'Stop').planned.map((p) => p.command)).toEqual(['bye'])
    expect(plannedHooks(hooks, 'SessionStart')).toEqual({ planned: [], failures: [] })
  })
})

describe('verdictOf', () => {
  it.each([
    [done({ code: 2, stderr: ' no \n' }), { kind: 'block', reason: 'no' }],
    [done({ code: 2 }), { kind: 'block', reason: 'blocked by hook `cmd` (exit code 2, no message on stderr)' }],
    [done({ stdout: '{"decision":"block"}' }), { kind: 'block', reason: 'blocked by hook `cmd`' }],
    [done({ stdout: '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"policy"}}' }), { kind: 'block', reason: 'policy' }],
    [done({ stdout: '{"decision":"approve"}' }), { kind: 'ok' }],
    [done({ stdout: '{not json' }), { kind: 'ok', output: '{not json' }],
    [done({ stdout: '  \n' }), { kind: 'ok' }],
    [done({ code: 1, stderr: 'boom' }), { kind: 'failure', error: 'exit code 1: boom' }],
    [done({ code: null, signal: 'SIGSEGV' }), { kind: 'failure', error: 'killed by SIGSEGV' }],
    [done({ code: null, timedOut: true }), { kind: 'failure', error: 'timed out after 1.5 s and was killed' }],
    [done({ code: 2, error: 'could not start: spawn EACCES' }), { kind: 'failure', error: 'could not start: spawn EACCES' }],
  ])('%#', (result, verdict) => {
    expect(verdictOf('cmd', result, 1500)).toEqual(verdict)
  })
})

describe('hookInput', () => {
  it('carries our fields and the snake_case ones of the common format', () => {
    const input = JSON.parse(hookInput('PostToolUse', { sessionId: 's', projectRoot: '/p', tool: 'edit', input: { a: 1 }, output: 'done' }))
    expect(input).toEqual({
      event: 'PostToolUse', sessionId: 's', projectRoot: '/p', tool: 'edit', input: { a: 1 }, output: 'done',
      hook_event_name: 'PostToolUse', session_id: 's', cwd: '/p', tool_name: 'edit', tool_input: { a: 1 }, tool_response: 'done',
    })
    expect(JSON.parse(hookInput('UserPromptSubmit', { sessionId: 's', projectRoot: '/p', prompt: 'hi' }))).toEqual({
      event: 'UserPromptSubmit', sessionId: 's', projectRoot: '/p', prompt: 'hi', hook_event_name: 'UserPromptSubmit', session_id: 's', cwd: '/p',
    })
  })
})
