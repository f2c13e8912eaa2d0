import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { HooksConfig } from '../../../src/main/core/config/schema'
import { runHooks, type HookPayload } from '../../../src/main/core/extensions/hooks'
import { tempDir } from '../../support/temp'

/** Running and not a zombie (a container's init may not reap orphans at once). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  if (!existsSync(`/proc/${pid}/stat`)) return true
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    // It went away between the two checks.
    return false
  }
}

function setup(): { root: string; payload: HookPayload } {
  const root = tempDir('hotaru-hooks-')
  return { root, payload: { sessionId: 'ses_1', projectRoot: root } }
}

const pre = (matcher: string | undefined, command: string, timeout?: number): HooksConfig => ({
  PreToolUse: [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command, ...(timeout ? { timeout } : {}) }] }],
})

describe('runHooks', () => {
  it('gives the hook the event as JSON on stdin, in the project folder, with the project in the environment', async () => {
    const { root, payload } = setup()
    const hooks = pre('bash', 'cat > stdin.json; printf %s "$HOTARU_HOOK_EVENT:$HOTARU_PROJECT_DIR" > env.txt')
    const result = await runHooks(hooks, 'PreToolUse', { ...payload, tool: 'bash', input: { command: 'ls' } }, { cwd: root })
    expect(result).toEqual({ blocked: false, failures: [], outputs: [] })
    const input = JSON.parse(readFileSync(join(root, 'stdin.json'), 'utf8'))
    expect(input).toMatchObject({
      event: 'PreToolUse',
      sessionId: 'ses_1',
      projectRoot: root,
      tool: 'bash',
      input: { command: 'ls' },
      hook_event_name: 'PreToolUse',
      tool_name: 'bash',
      tool_input: { command: 'ls' },
    })
    expect(readFileSync(join(root, 'env.txt'), 'utf8')).toBe(`PreToolUse:${root}`)
  })

  it('matches the whole tool id against the matcher', async () => {
    const { root, payload } = setup()
    const hooks = pre('edit|write', 'echo ran')
    const run = (tool: string): Promise<string[]> => runHooks(hooks, 'PreToolUse', { ...payload, tool }, { cwd: root }).then((r) => r.outputs)
    expect(await run('edit')).toEqual(['ran'])
    expect(await run('write')).toEqual(['ran'])
    expect(await run('multiedit')).toEqual([])
    expect(await run('bash')).toEqual([])
    expect((await runHooks(pre('mcp__.*', 'echo mcp'), 'PreToolUse', { ...payload, tool: 'mcp__docs__search' }, { cwd: root })).outputs).toEqual(['mcp'])
    expect((await runHooks(pre(undefined, 'echo all'), 'PreToolUse', { ...payload, tool: 'read' }, { cwd: root })).outputs).toEqual(['all'])
    expect((await runHooks(pre('*', 'echo star'), 'PreToolUse', { ...payload, tool: 'read' }, { cwd: root })).outputs).toEqual(['star'])
  })

  it('blocks on exit code 2 with the hook\'s stderr', async () => {
    const { root, payload } = setup()
    const hooks = pre('bash', 'echo "rm is not allowed here" >&2; exit 2')
    const result = await runHooks(hooks, 'PreToolUse', { ...payload, tool: 'bash', input: { command: 'rm -rf /' } }, { cwd: root })
    expect(result).toEqual({ blocked: true, reason: 'rm is not allowed here', failures: [], outputs: [] })
  })

  it('blocks on a JSON decision printed on stdout', async () => {
    const { root, payload } = setup()
    const hooks: HooksConfig = { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `echo '{"decision":"block","reason":"no secrets in prompts"}'` }] }] }
    const result = await runHooks(hooks, 'UserPromptSubmit', { ...payload, prompt: 'my key is sk-123' }, { cwd: root })
    expect(result).toEqual({ blocked: true, reason: 'no secrets in prompts', failures: [], outputs: [] })
  })

  it('passes stdout and JSON additionalContext back as outputs', async () => {
    const { root, payload } = setup()
    const hooks: HooksConfig = {
      SessionStart: [
        { matcher: 'ignored-for-this-event', hooks: [{ type: 'command', command: 'echo "branch: main"' }] },
        { hooks: [{ type: 'command', command: `echo '{"additionalContext":"tests run with npm test"}'` }] },
      ],
    }
    const result = await runHooks(hooks, 'SessionStart', payload, { cwd: root })
    expect(result).toEqual({ blocked: false, failures: [], outputs: ['branch: main', 'tests run with npm test'] })
  })

  it('reports a failing hook without blocking, next to one that blocks', async () => {
    const { root, payload } = setup()
    const hooks: HooksConfig = {
      PostToolUse: [
        { matcher: 'edit', hooks: [{ type: 'command', command: 'echo "lint crashed" >&2; exit 1' }] },
        { matcher: 'edit', hooks: [{ type: 'command', command: 'echo "format failed" >&2; exit 2' }] },
        { matcher: 'edit', hooks: [{ type: 'command', command: 'definitely-not-a-command-hotaru' }] },
      ],
    }
    const result = await runHooks(hooks, 'PostToolUse', { ...payload, tool: 'edit', output: 'ok' }, { cwd: root })
    expect(result.blocked).toBe(true)
    expect(result.reason).toBe('format failed')
    expect(result.failures).toEqual([
      { command: 'echo "lint crashed" >&2; exit 1', error: 'exit code 1: lint crashed' },
      { command: 'definitely-not-a-command-hotaru', error: expect.stringMatching(/^exit code 127: .*not found/) },
    ])
  })

  it('kills a hook and everything it started when it times out', async () => {
    const { root, payload } = setup()
    const hooks = pre('bash', 'sleep 30 & echo $! > child.pid; echo $$ > shell.pid; sleep 30', 0.5)
    const started = Date.now()
    const result = await runHooks(hooks, 'PreToolUse', { ...payload, tool: 'bash' }, { cwd: root })
    expect(Date.now() - started).toBeLessThan(5000)
    expect(result.blocked).toBe(false)
    expect(result.failures).toEqual([{ command: hooks.PreToolUse?.[0]?.hooks[0]?.command, error: 'timed out after 0.5 s and was killed' }])
    for (const file of ['child.pid', 'shell.pid']) {
      const pid = Number(readFileSync(join(root, file), 'utf8'))
      await expect.poll(() => running(pid), { timeout: 3000 }).toBe(false)
    }
  })

  it('stops hooks when the signal aborts', async () => {
    const { root, payload } = setup()
    const controller = new AbortController()
    const pending = runHooks(pre(undefined, 'echo $$ > shell.pid; sleep 30'), 'PreToolUse', { ...payload, tool: 'bash' }, { cwd: root, signal: controller.signal })
    await expect.poll(() => existsSync(join(root, 'shell.pid')) && readFileSync(join(root, 'shell.pid'), 'utf8').endsWith('\n')).toBe(true)
    controller.abort()
    const result = await pending
    expect(result.failures[0]?.error).toBe('stopped: the action was aborted')
    await expect.poll(() => running(Number(readFileSync(join(root, 'shell.pid'), 'utf8'))), { timeout: 3000 }).toBe(false)
  })

  it('reports an invalid matcher and runs nothing for it', async () => {
    const { root, payload } = setup()
    const result = await runHooks(pre('edit(', 'echo ran'), 'PreToolUse', { ...payload, tool: 'edit' }, { cwd: root })
    expect(result.outputs).toEqual([])
    expect(result.failures).toEqual([{ command: 'echo ran', error: expect.stringContaining('invalid matcher "edit("') }])
  })

  it('copes with a hook that never reads a large input', async () => {
    const { root, payload } = setup()
    const big = 'x'.repeat(2 * 1024 * 1024)
    const result = await runHooks(pre(undefined, 'exit 0'), 'PreToolUse', { ...payload, tool: 'write', input: { content: big } }, { cwd: root })
    expect(result).toEqual({ blocked: false, failures: [], outputs: [] })
  })

  it('does nothing when no hook is configured for the event', async () => {
    const { root, payload } = setup()
    expect(await runHooks(undefined, 'Stop', payload, { cwd: root })).toEqual({ blocked: false, failures: [], outputs: [] })
    expect(await runHooks(pre(undefined, 'exit 2'), 'Stop', payload, { cwd: root })).toEqual({ blocked: false, failures: [], outputs: [] })
  })
})
