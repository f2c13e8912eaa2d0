import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm'
import { fakeProviderEnv, runHotaru, type CliResult } from '../../support/cli'
import {
  NARROW_ALLOW_LIST,
  PEER_ENV_SECRET,
  PEER_ESCAPES,
  PEER_OUTSIDE_SECRET,
  peerCommand,
  peerMarker,
  peerProject,
  peerWritten,
  treeOf,
} from '../../support/peer-escapes'

/**
 * The peer table (other projects' suites and bypass reports) through the real loop:
 * `hotaru run` (the built CLI) against the fake LLM server, which asks for every line
 * as one bash call, with no TTY and no --yes. Escapes must be refused and leave the
 * disk as it was; the read-only controls must run unasked and change nothing.
 */
interface ToolResult {
  tool_use_id: string
  content: unknown
}

interface LoopRun {
  project: string
  outside: string
  outsideBefore: string[]
  result: CliResult
  results: Map<string, string>
}

const CALL_ID = (i: number): string => `toolu_peer${String(i).padStart(3, '0')}`

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
  const { project, outside } = peerProject(base)
  const outsideBefore = treeOf(outside)
  const toolCalls = PEER_ESCAPES.map((_, i) => ({ id: CALL_ID(i), name: 'bash', args: { command: peerCommand(i), description: `peer ${i}` } }))
  const server = await startFakeLlm({ turns: [{ toolCalls }, { text: 'Done.' }] })
  try {
    const env = fakeProviderEnv(server, join(base, 'data'), permission ? { HOTARU_CONFIG_CONTENT: JSON.stringify({ permission }) } : {})
    const result = await runHotaru(['run', '--dir', project, '--model', 'anthropic/claude-sonnet-4-6', 'try', 'them'], env)
    return { project, outside, outsideBefore, result, results: resultsOf(server) }
  } finally {
    await server.close()
  }
}

const modes: Array<[string, unknown]> = [
  ['the default rules', undefined],
  ['a narrow allow-list', NARROW_ALLOW_LIST],
]

for (const [name, permission] of modes) {
  describe(`the peer escape table through the real loop under ${name}`, () => {
    let base = ''
    let loop: LoopRun

    beforeAll(async () => {
      base = realpathSync(mkdtempSync(join(tmpdir(), 'hotaru-peer-loop-')))
      loop = await runLoop(base, permission)
    }, 240_000)
    afterAll(() => rmSync(base, { recursive: true, force: true }))

    it('completes the turn and answers every call', () => {
      expect(loop.result.code, loop.result.stderr).toBe(0)
      expect(loop.results.size).toBe(PEER_ESCAPES.length)
    })

    it.each(PEER_ESCAPES.map((e, i) => [i, peerCommand(i), e.kind, e.source] as const))('#%i %j (%s, %s)', (i, _command, kind) => {
      const text = loop.results.get(CALL_ID(i)) ?? ''
      expect(text).not.toContain(PEER_OUTSIDE_SECRET)
      expect(text).not.toContain(PEER_ENV_SECRET)
      if (kind === 'control') {
        expect(text).toMatch(/Exit code: 0/)
        return
      }
      expect(text).toMatch(/denied|No one can answer permission requests|rejected/i)
      expect(text).not.toMatch(/Exit code:/)
      expect(existsSync(join(loop.project, peerMarker(i)))).toBe(true)
      expect(existsSync(join(loop.project, peerWritten(i)))).toBe(false)
    })

    it('leaves the outside folder and the project as they were', () => {
      expect(treeOf(loop.outside)).toEqual(loop.outsideBefore)
      for (const file of ['pre-ran', 'notes.txt.mgc', '00Tree.html', join('src', '00Tree.html')]) {
        expect(existsSync(join(loop.project, file)), file).toBe(false)
      }
      expect(existsSync(join(loop.project, 'dash', 't'))).toBe(true)
    })
  })
}
