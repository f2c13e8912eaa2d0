import { existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createEntry, deleteEntry, renameEntry, writeTextFile } from '../../../src/main/core/project/fs-ops'
import { IgnoreRules } from '../../../src/main/core/project/ignore-rules'
import { tempDir, writeTree } from '../../support/temp'

const named = (name: string) => expect.objectContaining({ name })

describe('fs write', () => {
  it('writes text in place, creating folders, and reports the new mtime', async () => {
    const root = writeTree(tempDir(), { 'a.txt': 'old' })
    const result = await writeTextFile(root, 'a.txt', 'new ✓')
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('new ✓')
    expect(result).toMatchObject({ path: 'a.txt', size: Buffer.byteLength('new ✓') })
    expect(result.mtimeMs).toBe(statSync(join(root, 'a.txt')).mtimeMs)
    await writeTextFile(root, 'deep/er/b.txt', 'b')
    expect(readFileSync(join(root, 'deep/er/b.txt'), 'utf8')).toBe('b')
  })

  it('refuses with Conflict when the file changed on disk since it was read', async () => {
    const root = writeTree(tempDir(), { 'a.txt': 'v1' })
    const seen = statSync(join(root, 'a.txt')).mtimeMs
    utimesSync(join(root, 'a.txt'), new Date(), new Date(Date.now() + 5000))
    await expect(writeTextFile(root, 'a.txt', 'mine', seen)).rejects.toMatchObject({ name: 'Conflict' })
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('v1')
    const current = statSync(join(root, 'a.txt')).mtimeMs
    expect((await writeTextFile(root, 'a.txt', 'mine', current)).size).toBe(4)
  })

  it('refuses a save when the file was deleted meanwhile (expected mtime given)', async () => {
    const root = tempDir()
    await expect(writeTextFile(root, 'gone.txt', 'x', 1234)).rejects.toMatchObject({ name: 'Conflict' })
  })

  it('never writes through a symlink that leads outside, nor below one', async () => {
    const outside = writeTree(tempDir(), { 'secret.txt': 'keep' })
    const root = tempDir()
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'))
    symlinkSync(outside, join(root, 'out'))
    await expect(writeTextFile(root, 'link.txt', 'pwned')).rejects.toMatchObject({ name: 'OutsideWorkspace' })
    await expect(writeTextFile(root, 'out/new.txt', 'pwned')).rejects.toMatchObject({ name: 'OutsideWorkspace' })
    await expect(writeTextFile(root, '../escape.txt', 'pwned')).rejects.toMatchObject({ name: 'OutsideWorkspace' })
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('keep')
    expect(existsSync(join(outside, 'new.txt'))).toBe(false)
  })

  it('never creates a file outside through a dangling symlink', async () => {
    const outside = tempDir()
    const root = tempDir()
    symlinkSync(join(outside, 'planted.txt'), join(root, 'dangling.txt'))
    await expect(writeTextFile(root, 'dangling.txt', 'pwned')).rejects.toMatchObject({ name: 'OutsideWorkspace' })
    expect(existsSync(join(outside, 'planted.txt'))).toBe(false)
  })

  it('writes through a symlink that stays inside', async () => {
    const root = writeTree(tempDir(), { 'real.txt': 'a' })
    symlinkSync(join(root, 'real.txt'), join(root, 'alias.txt'))
    await writeTextFile(root, 'alias.txt', 'b')
    expect(readFileSync(join(root, 'real.txt'), 'utf8')).toBe('b')
    expect(lstatSync(join(root, 'alias.txt')).isSymbolicLink()).toBe(true)
  })
})

describe('fs create', () => {
  it('creates files and folders and refuses existing names', () => {
    const root = writeTree(tempDir(), { '.gitignore': 'logs/\n', 'taken.txt': '' })
    const rules = new IgnoreRules(root)
    expect(createEntry(root, 'src/new.ts', 'file', rules)).toMatchObject({ name: 'new.ts', kind: 'file', path: 'src/new.ts' })
    expect(createEntry(root, 'logs', 'dir', rules)).toMatchObject({ kind: 'dir', ignored: true })
    expect(() => createEntry(root, 'taken.txt', 'file', rules)).toThrow(named('AlreadyExists'))
    expect(() => createEntry(root, 'logs', 'file', rules)).toThrow(named('AlreadyExists'))
  })

  it('refuses to create below a link that leads outside', () => {
    const outside = tempDir()
    const root = tempDir()
    symlinkSync(outside, join(root, 'out'))
    const rules = new IgnoreRules(root)
    expect(() => createEntry(root, 'out/x.txt', 'file', rules)).toThrow(named('OutsideWorkspace'))
    expect(() => createEntry(root, 'out/sub', 'dir', rules)).toThrow(named('OutsideWorkspace'))
    expect(existsSync(join(outside, 'x.txt'))).toBe(false)
  })
})

describe('fs rename', () => {
  it('renames and moves inside the project', () => {
    const root = writeTree(tempDir(), { 'a.txt': 'a', 'dir/b.txt': 'b' })
    const rules = new IgnoreRules(root)
    expect(renameEntry(root, 'a.txt', 'c.txt', rules)).toMatchObject({ path: 'c.txt', kind: 'file' })
    expect(renameEntry(root, 'dir', 'moved/dir2', rules)).toMatchObject({ path: 'moved/dir2', kind: 'dir' })
    expect(readFileSync(join(root, 'moved/dir2/b.txt'), 'utf8')).toBe('b')
  })

  it('refuses clashes, moving a folder into itself, and targets outside', () => {
    const outside = tempDir()
    const root = writeTree(tempDir(), { 'a.txt': 'a', 'b.txt': 'b', 'dir/x': '' })
    symlinkSync(outside, join(root, 'out'))
    const rules = new IgnoreRules(root)
    expect(() => renameEntry(root, 'a.txt', 'b.txt', rules)).toThrow(named('AlreadyExists'))
    expect(() => renameEntry(root, 'dir', 'dir/inner', rules)).toThrow(named('InvalidPayload'))
    expect(() => renameEntry(root, 'a.txt', 'out/a.txt', rules)).toThrow(named('OutsideWorkspace'))
    expect(() => renameEntry(root, 'nope', 'x', rules)).toThrow(named('NotFound'))
    expect(existsSync(join(outside, 'a.txt'))).toBe(false)
  })

  it('renames a symlink itself, not its target (even one pointing outside)', () => {
    const outside = writeTree(tempDir(), { 'f.txt': 'f' })
    const root = tempDir()
    symlinkSync(outside, join(root, 'out'))
    renameEntry(root, 'out', 'out2', new IgnoreRules(root))
    expect(lstatSync(join(root, 'out2')).isSymbolicLink()).toBe(true)
    expect(existsSync(join(outside, 'f.txt'))).toBe(true)
  })
})

describe('fs delete', () => {
  it('deletes files and folders recursively, reports missing ones', () => {
    const root = writeTree(tempDir(), { 'a.txt': 'a', 'dir/b/c.txt': 'c' })
    expect(deleteEntry(root, 'a.txt')).toBe(true)
    expect(deleteEntry(root, 'dir')).toBe(true)
    expect(existsSync(join(root, 'dir'))).toBe(false)
    expect(deleteEntry(root, 'a.txt')).toBe(false)
  })

  it('deletes a link, never what it points at, and nothing outside', () => {
    const outside = writeTree(tempDir(), { 'keep/f.txt': 'f' })
    const root = tempDir()
    symlinkSync(join(outside, 'keep'), join(root, 'link'))
    expect(() => deleteEntry(root, 'link/f.txt')).toThrow(named('OutsideWorkspace'))
    expect(deleteEntry(root, 'link')).toBe(true)
    expect(existsSync(join(root, 'link'))).toBe(false)
    expect(readFileSync(join(outside, 'keep/f.txt'), 'utf8')).toBe('f')
    expect(() => deleteEntry(root, '')).toThrow(named('OutsideWorkspace'))
    expect(() => deleteEntry(root, '../x')).toThrow(named('OutsideWorkspace'))
  })

  it('deletes a folder that contains a link to the outside without following it', () => {
    const outside = writeTree(tempDir(), { 'precious.txt': 'p' })
    const root = tempDir()
    mkdirSync(join(root, 'dir'))
    symlinkSync(outside, join(root, 'dir/out'))
    expect(deleteEntry(root, 'dir')).toBe(true)
    expect(readFileSync(join(outside, 'precious.txt'), 'utf8')).toBe('p')
  })
})
