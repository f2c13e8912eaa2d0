import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm'
import { BIN, fakeProviderEnv, runHotaru, type CliResult } from '../../support/cli'
import {
  ALLOWED_SAMPLES,
  DENY_BY_DEFAULT,
  ENV_SECRET,
  OUTSIDE_SECRET,
  SHELL_ESCAPES,
  commandOf,
  escapeProject,
  listing,
  markerOf,
} from '../../support/shell-escapes'

/**
 * The escape table through the real loop: `hotaru run` (the built CLI) against the
 * fake LLM server, which answers the first request with every escape as one bash
 * call (plus a few allowed commands, to prove that calls do run), with no TTY and
 * no --yes. Afterwards each escape is checked on its own, on disk and in what the
 * model was told.
 */
interface ToolResult {
  tool_use_id: string
  content: unknown
  is_error?: boolean
}

interface LoopRun {
  project: string
  outside: string
  outsideBefore: string[]
  result: CliResult
  results: Map<string, string>
}

const ESCAPE_ID = (i: number): string => `toolu_escape${String(i).padStart(3, '0')}`
const ALLOWED_ID = (i: number): string => `toolu_allowed${i}`

function resultsOf(server: FakeLlm): Map<string, string> {
  const second = server.requests.filter((r) => r.api === 'anthropic')[1]
  const messages = (second?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined)?.messages ?? []
  const out = new Map<string, string>()
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue
    for (const block of message.content as ToolResult[]) {
      if ((block as { type?: string }).type !== 'tool_result') continue
      out.set(block.tool_use_id, JSON.stringify(block.content))
    }
  }
  return out
}

async function runLoop(base: string, permission: unknown): Promise<LoopRun> {
  const { project, outside } = escapeProject(base)
  const outsideBefore = listing(outside)
  const toolCalls = [
    ...SHELL_ESCAPES.map((_, i) => ({ id: ESCAPE_ID(i), name: 'bash', args: { command: commandOf(i), description: `escape ${i}` } })),
    ...ALLOWED_SAMPLES.map((command, i) => ({ id: ALLOWED_ID(i), name: 'bash', args: { command, description: `allowed ${i}` } })),
  ]
  const server = await startFakeLlm({ turns: [{ toolCalls }, { text: 'Done.' }] })
  try {
    const dataDir = join(base, 'data')
    const env = fakeProviderEnv(server, dataDir, permission ? { HOTARU_CONFIG_CONTENT: JSON.stringify({ permission }) } : {})
    const result = await runHotaru(['run', '--dir', project, '--model', 'anthropic/claude-sonnet-4-6', 'try', 'them'], env)
    return { project, outside, outsideBefore, result, results: resultsOf(server) }
  } finally {
    await server.close()
  }
}

const modes: Array<[string, unknown, boolean]> = [
  ['deny-by-default rules', DENY_BY_DEFAULT, true],
  ['the default rules', undefined, false],
]

for (const [name, permission, allowedRun] of modes) {
  describe(`shell escapes through the real loop under ${name}`, () => {
    let base = ''
    let loop: LoopRun

    beforeAll(async () => {
      base = realpathSync(mkdtempSync(join(tmpdir(), 'hotaru-escape-loop-')))
      loop = await runLoop(base, permission)
    }, 180_000)
    afterAll(() => rmSync(base, { recursive: true, force: true }))

    it('completes the turn and answers every call', () => {
      expect(loop.result.code, loop.result.stderr).toBe(0)
      expect(loop.results.size).toBe(SHELL_ESCAPES.length + ALLOWED_SAMPLES.length)
    })

    it.each(SHELL_ESCAPES.map((e, i) => [i, commandOf(i), e.kind] as const))('#%i %j (%s) does not get through', (i, _command, kind) => {
      const text = loop.results.get(ESCAPE_ID(i)) ?? ''
      // Denied by a rule or rejected for want of someone to ask: never run.
      expect(text).toMatch(/denied|No one can answer permission requests|rejected/i)
      expect(text).not.toMatch(/Exit code:/)
      if (kind === 'run') expect(existsSync(join(loop.project, markerOf(i)))).toBe(true)
      expect(text).not.toContain(OUTSIDE_SECRET)
      expect(text).not.toContain(ENV_SECRET)
    })

    it('leaves the outside folder untouched and never shows a secret', () => {
      expect(listing(loop.outside)).toEqual(loop.outsideBefore)
      const all = [...loop.results.values()].join('\n')
      expect(all).not.toContain(OUTSIDE_SECRET)
      expect(all).not.toContain(ENV_SECRET)
      expect(existsSync(join(loop.project, 'pwned'))).toBe(false)
      for (let i = 0; i < SHELL_ESCAPES.length; i++) expect(existsSync(join(loop.project, markerOf(i))), markerOf(i)).toBe(true)
    })

    it(allowedRun ? 'runs what the rules allow' : 'runs only the read-only line, since every other command asks', () => {
      const ran = ALLOWED_SAMPLES.map((_, i) => /Exit code: 0/.test(loop.results.get(ALLOWED_ID(i)) ?? ''))
      // `echo hi > /dev/null && ls` is read-only: the default rules run it unasked.
      expect(ran).toEqual(ALLOWED_SAMPLES.map((command) => allowedRun || command === 'echo hi > /dev/null && ls'))
      expect(existsSync(join(loop.project, 'allowed-1.txt'))).toBe(allowedRun)
      expect(existsSync(join(loop.project, 'src', 'allowed-2.txt'))).toBe(allowedRun)
    })
  })
}

describe('a forced ask at the terminal', () => {
  it('says why the line cannot be checked, offers no "always", and runs after "once"', async () => {
    const { spawn: spawnPty } = await import('@lydell/node-pty')
    const server = await startFakeLlm({
      turns: [{ toolCalls: [{ name: 'bash', args: { command: 'touch made.txt; cat <(true)', description: 'forced' } }] }, { text: 'Ran.' }],
    })
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'hotaru-forced-')))
    try {
      const project = join(base, 'p')
      mkdirSync(project)
      const pty = spawnPty(process.execPath, [BIN, 'run', '--dir', project, 'run it'], {
        cols: 160,
        rows: 40,
        env: fakeProviderEnv(server, join(base, 'data')) as Record<string, string>,
      })
      let screen = ''
      const exited = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)))
      pty.onData((data) => {
        const before = screen
        screen += data
        if (!before.includes('allow?') && screen.includes('allow?')) pty.write('o\r')
      })
      expect(await exited).toBe(0)
      expect(screen).toContain('not fully checkable: process substitution')
      expect(screen).toContain('[o]nce, [r]eject')
      expect(screen).not.toContain('[a]lways')
      expect(existsSync(join(project, 'made.txt'))).toBe(true)
    } finally {
      await server.close()
      rmSync(base, { recursive: true, force: true })
    }
  }, 60_000)
})
