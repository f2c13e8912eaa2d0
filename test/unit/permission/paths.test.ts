import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { externalPattern, resolveToolPath } from '../../../src/main/core/permission/paths'
import { tempDir } from '../../support/temp'

function setup(): { root: string; outside: string } {
  const base = realpathSync(tempDir('hotaru-paths-'))
  const root = join(base, 'project')
  const outside = join(base, 'outside')
  mkdirSync(join(root, 'src', 'deep'), { recursive: true })
  mkdirSync(outside)
  writeFileSync(join(root, 'src', 'a.ts'), 'a')
  writeFileSync(join(outside, 'secret.txt'), 's')
  symlinkSync(outside, join(root, 'out-link'))
  symlinkSync(join(root, 'src'), join(root, 'src-link'))
  symlinkSync(join(outside, 'missing', 'file.txt'), join(root, 'dangling-out'))
  symlinkSync(join(root, 'src', 'not-yet.ts'), join(root, 'dangling-in'))
  symlinkSync(join(outside, 'x'), join(root, 'src', 'deep', 'escape'))
  symlinkSync('loop-b', join(root, 'loop-a'))
  symlinkSync('loop-a', join(root, 'loop-b'))
  return { root, outside }
}

describe('resolveToolPath', () => {
  const table: Array<[string, boolean, string]> = [
    ['src/a.ts', true, 'src/a.ts'],
    ['./src/a.ts', true, 'src/a.ts'],
    ['src/../src/a.ts', true, 'src/a.ts'],
    ['src/new/file.ts', true, 'src/new/file.ts'],
    ['.', true, ''],
    ['..', false, ''],
    ['../outside/secret.txt', false, ''],
    ['src/../../outside', false, ''],
    ['out-link/secret.txt', false, ''],
    ['out-link/new-file', false, ''],
    ['src-link/a.ts', true, 'src/a.ts'],
    ['dangling-out', false, ''],
    ['dangling-in', true, 'src/not-yet.ts'],
    ['src/deep/escape/file', false, ''],
    // `..` after a symlink goes to the link target's parent, as the kernel does.
    ['out-link/../project/src/a.ts', true, 'src/a.ts'],
    ['src-link/../src/a.ts', true, 'src/a.ts'],
    ['loop-a', true, 'loop-a'],
  ]
  it.each(table)('%j → inside=%s rel=%j', (path, inside, rel) => {
    const { root } = setup()
    const resolved = resolveToolPath(root, path)
    expect(resolved.inside).toBe(inside)
    if (inside) expect(resolved.rel).toBe(rel)
    else expect(resolved.rel).toBe(resolved.abs)
  })

  it('takes absolute paths and resolves them the same way', () => {
    const { root, outside } = setup()
    expect(resolveToolPath(root, join(root, 'src/a.ts')).rel).toBe('src/a.ts')
    expect(resolveToolPath(root, join(root, 'out-link', 'secret.txt'))).toMatchObject({ inside: false, abs: join(outside, 'secret.txt') })
    expect(resolveToolPath(root, '/etc/passwd').inside).toBe(false)
  })

  it('expands ~ to the home directory', () => {
    const { root } = setup()
    expect(resolveToolPath(root, '~/x').abs.startsWith(realpathSync(homedir()))).toBe(true)
  })

  it('resolves relative to another working directory', () => {
    const { root } = setup()
    expect(resolveToolPath(root, 'a.ts', join(root, 'src')).rel).toBe('src/a.ts')
    expect(resolveToolPath(root, '../../outside', join(root, 'src')).inside).toBe(false)
  })

  it('builds external_directory patterns from the directory', () => {
    expect(externalPattern('/tmp/x/file.txt', false)).toBe('/tmp/x/*')
    expect(externalPattern('/tmp/x', true)).toBe('/tmp/x/*')
    expect(externalPattern('/', true)).toBe('/*')
  })
})
