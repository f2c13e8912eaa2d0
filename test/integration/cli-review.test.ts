import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { PartOf } from '@shared/schema/session'
import { runHotaru } from '../support/cli'
import { testServices } from '../support/services'
import { tempDir, writeTree } from '../support/temp'

describe('hotaru review', () => {
  it('shows the last turn that changed files and rejects a new file (deleted, undoable)', async () => {
    const dataDir = tempDir()
    const services = testServices({ dataDir })
    const root = writeTree(tempDir(), { 'a.txt': 'one\n' })
    const project = services.projects.openFolder(root)
    const session = services.sessions.create({ projectId: project.id, agent: 'build', model: 'anthropic/claude-sonnet-4-6' })
    const message = () => {
      const m = services.sessions.addMessage({ sessionId: session.id, role: 'user', agent: 'build', model: session.model, completedAt: Date.now() })
      services.sessions.addPart<PartOf<'text'>>({ sessionId: session.id, messageId: m.id, type: 'text', text: 'go' })
      return m
    }
    await services.checkpoints.beforeMessage(session, message().id)
    writeFileSync(join(root, 'new.txt'), 'fresh\n')
    await services.checkpoints.afterStep(session, message().id, { paths: [], unlisted: true })
    await services.dispose()

    const env = { ...process.env, HOTARU_DATA_DIR: dataDir }
    const shown = await runHotaru(['review', 'show', '--dir', root], env)
    expect(shown.code).toBe(0)
    expect(shown.stdout).toMatch(/added\s+new\.txt\s+\(0\/1 decided\)/)
    const rejected = await runHotaru(['review', 'reject', '--dir', root, '--path', 'new.txt'], env)
    expect(rejected.code).toBe(0)
    expect(existsSync(join(root, 'new.txt'))).toBe(false)
    expect(rejected.stdout).toMatch(/undo with: hotaru checkpoints restore cp_/)
    const again = await runHotaru(['review', 'show', '--dir', root, '--json'], env)
    const parsed = JSON.parse(again.stdout) as { review: { files: { path: string; reviewed: boolean }[] } }
    expect(parsed.review.files).toEqual([expect.objectContaining({ path: 'new.txt', reviewed: true })])
    const bad = await runHotaru(['review', 'reject', '--dir', root, '--hunk', '1'], env)
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain('--hunk needs --path')
  })
})
