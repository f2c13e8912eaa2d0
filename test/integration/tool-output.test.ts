import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { IpcResult } from '@shared/errors'
import type { PartOf } from '@shared/schema/session'
import { Connection, createAppRouter } from '../../src/main/ipc'
import { testServices } from '../support/services'
import { tempDir, writeTree } from '../support/temp'

describe('full tool output over IPC', () => {
  it('returns the saved whole output of a cut result, and never a file outside the app folder', async () => {
    const dataDir = tempDir()
    const services = testServices({ dataDir })
    const project = services.projects.openFolder(writeTree(tempDir(), { 'a.txt': '' }))
    const session = services.sessions.create({ projectId: project.id, agent: 'build', model: 'anthropic/claude-sonnet-4-6' })
    const message = services.sessions.addMessage({ sessionId: session.id, role: 'assistant', agent: 'build', model: session.model, completedAt: Date.now() })
    const saved = join(dataDir, 'tool-output', project.id, 'call_1.txt')
    mkdirSync(join(dataDir, 'tool-output', project.id), { recursive: true })
    writeFileSync(saved, 'the whole output\n'.repeat(3))
    const outside = join(tempDir(), 'secret.txt')
    writeFileSync(outside, 'not yours')
    const tool = (callId: string, outputPath: string) =>
      services.sessions.addPart<PartOf<'tool'>>({
        sessionId: session.id,
        messageId: message.id,
        type: 'tool',
        callId,
        tool: 'bash',
        state: { status: 'completed', input: { command: 'x' }, output: 'cut', metadata: { truncated: true, outputPath } },
      })
    const inside = tool('call_1', saved)
    const sneaky = tool('call_2', outside)
    const router = createAppRouter(services)
    const conn = new Connection('t', () => undefined)
    const call = async <T>(input: unknown) => (await router.handle(conn, 'session.toolOutput', input)) as IpcResult<T>
    expect(await call({ sessionId: session.id, partId: inside.id })).toEqual({ ok: true, value: { text: 'the whole output\n'.repeat(3), truncated: false } })
    expect(await call({ sessionId: session.id, partId: sneaky.id })).toEqual({ ok: true, value: { text: 'cut', truncated: false } })
  })
})
