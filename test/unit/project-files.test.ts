import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveInside } from '../../src/main/core/project/boundary'
import { listDirectory, readFile } from '../../src/main/core/project/files'
import { IgnoreRules } from '../../src/main/core/project/ignore-rules'
import { tempDir, writeTree } from '../support/temp'

describe('ignore rules', () => {
  it('follows .gitignore semantics including nested files and negation', () => {
    const root = writeTree(tempDir(), {
      '.gitignore': 'dist/\n*.log\n!keep.log\n',
      'pkg/.gitignore': 'generated/\n!important.log\n',
      'pkg/generated/x.ts': '',
    })
    const rules = new IgnoreRules(root)
    expect(rules.isIgnored('dist', true)).toBe(true)
    expect(rules.isIgnored('dist/a.js', false)).toBe(true)
    expect(rules.isIgnored('dist', false)).toBe(false) // a file named dist is not the dist/ folder
    expect(rules.isIgnored('a.log', false)).toBe(true)
    expect(rules.isIgnored('keep.log', false)).toBe(false)
    expect(rules.isIgnored('pkg/generated', true)).toBe(true)
    expect(rules.isIgnored('pkg/generated/x.ts', false)).toBe(true)
    expect(rules.isIgnored('pkg/important.log', false)).toBe(false)
    expect(rules.isIgnored('pkg/other.log', false)).toBe(true)
    expect(rules.isIgnored('node_modules', true)).toBe(true)
    expect(rules.isIgnored('src/index.ts', false)).toBe(false)
  })
})

describe('workspace boundary', () => {
  it('resolves symlinks before deciding', () => {
    const outside = writeTree(tempDir(), { 'secret.txt': 'x' })
    const root = writeTree(tempDir(), { 'a.txt': 'a' })
    symlinkSync(outside, join(root, 'escape'))
    symlinkSync(join(root, 'a.txt'), join(root, 'alias.txt'))
    expect(resolveInside(root, 'a.txt')).toBe(join(root, 'a.txt'))
    expect(resolveInside(root, 'alias.txt')).toBe(join(root, 'a.txt'))
    expect(() => resolveInside(root, 'escape/secret.txt')).toThrow(/outside the project/)
    expect(() => resolveInside(root, 'escape/new-file.txt')).toThrow(/outside the project/)
    expect(() => resolveInside(root, '../x')).toThrow(/outside the project/)
    expect(resolveInside(root, 'new/dir/file.txt')).toBe(join(root, 'new/dir/file.txt'))
    // A dangling link is judged by where it points: writing through it would create that file.
    symlinkSync(join(outside, 'not-yet.txt'), join(root, 'dangling-out'))
    symlinkSync(join(root, 'later.txt'), join(root, 'dangling-in'))
    expect(() => resolveInside(root, 'dangling-out')).toThrow(/outside the project/)
    expect(resolveInside(root, 'dangling-in')).toBe(join(root, 'later.txt'))
  })
})

describe('directory listing', () => {
  it('lists one level, directories first in natural order, flags ignored, hides .git', () => {
    const root = writeTree(tempDir(), {
      '.gitignore': 'build/\n',
      'file10.ts': '',
      'file2.ts': '',
      'src/a.ts': '',
      'build/out.js': '',
      '.git/HEAD': 'ref: x',
    })
    const listing = listDirectory(root, '', new IgnoreRules(root))
    expect(listing.entries.map((e) => e.name)).toEqual(['build', 'src', '.gitignore', 'file2.ts', 'file10.ts'])
    expect(listing.entries.find((e) => e.name === 'build')?.ignored).toBe(true)
    expect(listing.entries.find((e) => e.name === 'src')).toMatchObject({ kind: 'dir', ignored: false, path: 'src' })
  })

  it('shows symlinks with their target kind only when they stay inside', () => {
    const outside = tempDir()
    const root = writeTree(tempDir(), { 'lib/x.ts': '' })
    symlinkSync(join(root, 'lib'), join(root, 'lib-link'))
    symlinkSync(outside, join(root, 'out-link'))
    const entries = listDirectory(root, '', new IgnoreRules(root)).entries
    expect(entries.find((e) => e.name === 'lib-link')).toMatchObject({ kind: 'symlink', targetKind: 'dir' })
    expect(entries.find((e) => e.name === 'out-link')?.targetKind).toBeUndefined()
    expect(() => listDirectory(root, 'out-link', new IgnoreRules(root))).toThrow(/outside the project/)
  })

  it('names missing paths and non-directories', () => {
    const root = writeTree(tempDir(), { 'a.txt': 'a' })
    mkdirSync(join(root, 'empty'))
    expect(listDirectory(root, 'empty', new IgnoreRules(root)).entries).toEqual([])
    expect(() => listDirectory(root, 'nope', new IgnoreRules(root))).toThrow(expect.objectContaining({ name: 'NotFound' }))
    expect(() => listDirectory(root, 'a.txt', new IgnoreRules(root))).toThrow(
      expect.objectContaining({ name: 'NotADirectory' }),
    )
  })
})

describe('file read', () => {
  it('returns text, flags binary and truncates past the cap', async () => {
    const root = writeTree(tempDir(), {
      'a.txt': 'héllo',
      'b.bin': Buffer.from([1, 0, 2]),
      'big.txt': 'x'.repeat(100),
    })
    expect(await readFile(root, 'a.txt')).toMatchObject({ content: 'héllo', binary: false, truncated: false })
    expect(await readFile(root, 'b.bin')).toMatchObject({ content: '', binary: true })
    expect(await readFile(root, 'big.txt', 10)).toMatchObject({ content: 'x'.repeat(10), truncated: true, size: 100 })
  })
})
