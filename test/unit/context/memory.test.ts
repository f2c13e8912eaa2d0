import { existsSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_MEMORY_FILE,
  MAX_MEMORY_BYTES,
  memoryBlock,
  readMemory,
  updateMemory,
} from '../../../src/main/core/context/memory'
import { memoryToolParameters, runMemoryTool } from '../../../src/main/core/context/memory-tool'
import { ConfigSchema } from '../../../src/main/core/config'
import { tempDir, writeTree } from '../../support/temp'

describe('project memory', () => {
  it('lives in .hotaru/memory.md by default and is empty until written', async () => {
    const root = tempDir()
    expect(DEFAULT_MEMORY_FILE).toBe('.hotaru/memory.md')
    expect(await readMemory(root, {})).toMatchObject({ path: '.hotaru/memory.md', content: '', exists: false })
    expect(memoryBlock(root, {})).toBeUndefined()
    await updateMemory(root, {}, { content: '# Notes\n- run tests with `npm test`\n' })
    expect(readFileSync(join(root, '.hotaru/memory.md'), 'utf8')).toBe('# Notes\n- run tests with `npm test`\n')
    await updateMemory(root, {}, { append: '- use pnpm' })
    expect((await readMemory(root, {})).content).toBe('# Notes\n- run tests with `npm test`\n- use pnpm\n')
    expect(existsSync(join(root, '.hotaru'))).toBe(true)
  })

  it('goes into the system prompt as a block, cut when a hand-edited file is long', async () => {
    const root = tempDir()
    await updateMemory(root, {}, { content: 'Build with make.' })
    const block = memoryBlock(root, {})
    expect(block).toMatch(/^<project-memory file="\.hotaru\/memory\.md">/)
    expect(block).toContain('Build with make.')
    writeTree(root, { '.hotaru/memory.md': 'y'.repeat(40_000) })
    const long = memoryBlock(root, {})!
    expect(long.length).toBeLessThan(17_000)
    expect(long).toContain('read the whole file with the memory tool')
  })

  it('can be AGENTS.md, which the instruction loader already puts into the prompt', async () => {
    const root = writeTree(tempDir(), { 'AGENTS.md': '# Agents\n' })
    const config = ConfigSchema.parse({ memory: { file: 'AGENTS.md' } })
    await updateMemory(root, config, { append: '- prefer small files' })
    expect(readFileSync(join(root, 'AGENTS.md'), 'utf8')).toBe('# Agents\n- prefer small files\n')
    const block = memoryBlock(root, config)
    expect(block).toContain('AGENTS.md')
    expect(block).not.toContain('prefer small files')
  })

  it('refuses files outside the project and memories over the size limit', async () => {
    const root = tempDir()
    await expect(readMemory(root, { memory: { file: '../elsewhere.md' } })).rejects.toMatchObject({ name: 'OutsideWorkspace' })
    await expect(readMemory(root, { memory: { file: '/etc/passwd' } })).rejects.toMatchObject({ name: 'OutsideWorkspace' })
    const outside = tempDir()
    symlinkSync(outside, join(root, 'link'))
    await expect(updateMemory(root, { memory: { file: 'link/memory.md' } }, { content: 'x' })).rejects.toMatchObject({ name: 'OutsideWorkspace' })
    await expect(updateMemory(root, {}, { content: 'z'.repeat(MAX_MEMORY_BYTES + 1) })).rejects.toMatchObject({ name: 'InvalidPayload' })
    expect(existsSync(join(root, '.hotaru/memory.md'))).toBe(false)
  })

  it('is one strict config key', () => {
    expect(() => ConfigSchema.parse({ memory: { file: '' } })).toThrow()
    expect(() => ConfigSchema.parse({ memory: { path: 'x' } })).toThrow()
  })
})

describe('memory tool', () => {
  it('reads, appends and rewrites', async () => {
    const root = tempDir()
    expect((await runMemoryTool(root, {}, { action: 'read' })).output).toMatch(/is empty/)
    const added = await runMemoryTool(root, {}, { action: 'append', content: '- tests: npm test' })
    expect(added).toMatchObject({ title: '.hotaru/memory.md', metadata: { action: 'append', exists: true } })
    expect((await runMemoryTool(root, {}, { action: 'read' })).output).toBe('- tests: npm test\n')
    await runMemoryTool(root, {}, { action: 'write', content: 'fresh' })
    expect((await runMemoryTool(root, {}, { action: 'read' })).output).toBe('fresh')
    await expect(runMemoryTool(root, {}, { action: 'write' })).rejects.toMatchObject({ name: 'InvalidPayload' })
  })

  it('has flat parameters (an object with an action enum)', () => {
    expect(memoryToolParameters.safeParse({ action: 'append', content: 'x' }).success).toBe(true)
    expect(memoryToolParameters.safeParse({ action: 'delete' }).success).toBe(false)
  })
})
