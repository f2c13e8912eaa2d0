import { afterEach, describe, expect, it } from 'vitest'
import type { PartOf } from '@shared/schema/session'
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm'
import { fakeProviderEnv } from '../../support/cli'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'
import { TS_FIXTURE } from './helpers'

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

describe('the lsp tool', () => {
  it('answers definition, references, hover and symbol questions from the real server, without asking', async () => {
    const fake = await startFakeLlm()
    servers.push(fake)
    const root = writeTree(tempDir(), TS_FIXTURE)
    const services = testServices({ env: fakeProviderEnv(fake, tempDir()) })
    const project = services.projects.openFolder(root)
    const session = services.sessions.create({ projectId: project.id, agent: 'explore', model: 'anthropic/claude-sonnet-4-5' })
    // `add` in `export const total: number = add(1, 2)` starts at line 2, column 30.
    const at = { filePath: 'src/main.ts', line: 2, character: 30 }
    fake.enqueue(
      {
        toolCalls: [
          { name: 'lsp', args: { operation: 'goToDefinition', ...at } },
          { name: 'lsp', args: { operation: 'findReferences', ...at } },
          { name: 'lsp', args: { operation: 'hover', ...at } },
          { name: 'lsp', args: { operation: 'documentSymbol', filePath: 'src/math.ts' } },
          { name: 'lsp', args: { operation: 'hover', filePath: 'src/main.ts' } },
        ],
      },
      { text: 'Found it.' },
    )
    expect((await services.agents.prompt({ sessionId: session.id, text: 'where is add?' })).status).toBe('completed')
    const tools = services.sessions
      .messages(session.id)
      .flatMap((m) => m.parts)
      .filter((p): p is PartOf<'tool'> => p.type === 'tool')
    const [definition, references, hover, symbols, missing] = tools.map((t) => t.state)
    expect(definition).toMatchObject({ status: 'completed', output: 'src/math.ts:1:17' })
    expect(references?.output?.split('\n').sort()).toEqual(['src/main.ts:1:10', 'src/main.ts:2:30', 'src/math.ts:1:17'])
    expect(hover?.output).toContain('add(a: number, b: number): number')
    expect(symbols?.output).toMatch(/function add — line 1/)
    expect(missing).toMatchObject({ status: 'error' })
    expect(missing?.error).toContain('hover needs line and character')
  }, 300_000)
})
