import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sha256 } from '../../../src/main/core/snapshot/object-store'
import { comparePaths } from '../../../src/main/core/snapshot/tree-copy'
import type { Manifest, ManifestEntry } from '../../../src/main/core/snapshot/types'
import { tempDir } from '../../support/temp'

const file = (content: string): ManifestEntry => ({ kind: 'file', hash: sha256(content), size: Buffer.byteLength(content), exec: false })

describe('comparePaths: chosen files of a folder against a snapshot', () => {
  it('names the files that were added, changed or deleted, and passes over the unchanged ones', () => {
    const dir = tempDir()
    mkdirSync(join(dir, 'src'))
    writeFileSync(join(dir, 'src/same.ts'), 'same\n')
    writeFileSync(join(dir, 'src/changed.ts'), 'new text\n')
    writeFileSync(join(dir, 'src/grown.ts'), 'longer than before\n')
    writeFileSync(join(dir, 'src/added.ts'), 'added\n')
    symlinkSync('same.ts', join(dir, 'src/link.ts'))
    const manifest: Manifest = new Map([
      ['src/same.ts', file('same\n')],
      ['src/changed.ts', file('old text\n')],
      ['src/grown.ts', file('short\n')],
      ['src/gone.ts', file('gone\n')],
      ['src/link.ts', { kind: 'symlink', target: 'same.ts', size: 7 }],
      ['lib/folder-gone.ts', file('x\n')],
    ])
    const paths = ['src/same.ts', 'src/changed.ts', 'src/grown.ts', 'src/gone.ts', 'src/added.ts', 'src/link.ts', 'lib/folder-gone.ts', 'src/never.ts']
    expect(comparePaths(manifest, dir, paths)).toEqual([
      { path: 'src/changed.ts', status: 'modified' },
      { path: 'src/grown.ts', status: 'modified' },
      { path: 'src/gone.ts', status: 'deleted' },
      { path: 'src/added.ts', status: 'added' },
      { path: 'lib/folder-gone.ts', status: 'deleted' },
    ])
  })

  it('does not read through a folder link that leads out of the folder: such a file counts as changed', () => {
    const dir = tempDir()
    const outside = tempDir()
    writeFileSync(join(outside, 'secret.ts'), 'same\n')
    symlinkSync(outside, join(dir, 'linked'))
    const manifest: Manifest = new Map([['linked/secret.ts', file('same\n')]])
    expect(comparePaths(manifest, dir, ['linked/secret.ts'])).toEqual([{ path: 'linked/secret.ts', status: 'modified' }])
  })

  it('refuses a path that climbs out of the folder', () => {
    expect(() => comparePaths(new Map(), tempDir(), ['../etc/passwd'])).toThrow(/unsafe path/)
  })
})
