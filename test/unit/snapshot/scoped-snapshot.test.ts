import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { exists, image, read, sandbox, write, type Sandbox } from './helpers'

let box: Sandbox

beforeEach(() => {
  box = sandbox()
})

afterEach(async () => {
  await box.cleanup()
})

describe('a snapshot of only some paths', () => {
  it('holds the given contents, leaves out absent and ignored paths, and restores exactly its paths', () => {
    write(box.root, '.gitignore', 'build/\n')
    write(box.root, 'a.txt', 'a now\n')
    write(box.root, 'b.txt', 'b untouched\n')
    write(box.root, 'new.txt', 'created later\n')
    const engine = box.engine()
    const { id, paths } = engine.scopedSnapshot([
      image('a.txt', 'a before\n'),
      { path: join(box.root, 'new.txt'), content: null },
      image('build/out.js', 'x'),
    ])
    expect(paths).toEqual(['a.txt', 'new.txt'])
    expect([...engine.manifest(id).keys()]).toEqual(['a.txt'])

    const result = engine.restore(id, { paths })
    expect(result.written).toBe(1)
    expect(result.deleted).toBe(1)
    expect(read(box.root, 'a.txt')).toBe('a before\n')
    expect(exists(box.root, 'new.txt')).toBe(false)
    expect(read(box.root, 'b.txt')).toBe('b untouched\n')
  })
})
