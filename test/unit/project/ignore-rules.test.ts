import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { IgnoreRules } from '../../../src/main/core/project/ignore-rules'
import { IgnoreCache } from '../../../src/main/core/snapshot/ignore-cache'
import { tempDir, writeTree } from '../../support/temp'

// Nested .gitignore files with negations, anchored, folder-only and `**` patterns.
const TREE = {
  '.gitignore': 'build/\n*.log\n!keep.log\n/top.txt\ndocs/**/*.tmp\n',
  'a/.gitignore': 'local.txt\n!important.log\nb/\n',
  'src/.gitignore': '*.js\n!keep.js\n',
  'src/x/.gitignore': '!*.txt\n',
}

/** [path, is a folder]: asked in the order a walk asks, folders before what is below them. */
const PATHS: Array<[string, boolean]> = [
  ['a', true],
  ['a/top.txt', false],
  ['top.txt', false],
  ['build', true],
  ['build/x.js', false],
  ['x.log', false],
  ['keep.log', false],
  ['a/important.log', false],
  ['a/other.log', false],
  ['a/local.txt', false],
  ['a/b', true],
  ['a/b/c.txt', false],
  ['src', true],
  ['src/x.js', false],
  ['src/keep.js', false],
  ['src/x', true],
  ['src/x/y.js', false],
  ['src/x/y.txt', false],
  ['src/x/keep.js', false],
  ['docs', true],
  ['docs/d', true],
  ['docs/d/e', true],
  ['docs/d/e/f.tmp', false],
  ['docs/f.tmp', false],
  ['docs/d/e/f.md', false],
]

/** The rules and every file asked about, so git sees the folders as folders. */
function makeTree(): string {
  return writeTree(tempDir(), { ...TREE, ...Object.fromEntries(PATHS.filter(([, isDir]) => !isDir).map(([path]) => [path, ''])) })
}

/** What git itself says is ignored (`git check-ignore`), the reference for `.gitignore` semantics. */
function ignoredByGit(root: string): Set<string> {
  execFileSync('git', ['init', '-q'], { cwd: root })
  const out = execFileSync('git', ['check-ignore', '--no-index', '--stdin'], { cwd: root, input: PATHS.map(([p]) => p).join('\n'), encoding: 'utf8' })
  return new Set(out.split('\n').filter(Boolean))
}

describe('ignore rules', () => {
  it('answer as git does for nested .gitignore files, asked path by path or by a walk that memoizes folders', () => {
    const root = makeTree()
    const expected = ignoredByGit(root)
    expect(expected.size).toBeGreaterThan(5)
    const rules = new IgnoreRules(root)
    const cache = new IgnoreCache(new IgnoreRules(root))
    for (const [path, isDir] of PATHS) {
      expect({ path, ignored: rules.isIgnored(path, isDir) }).toEqual({ path, ignored: expected.has(path) })
      expect({ path, ignored: cache.isIgnored(path, isDir) }).toEqual({ path, ignored: expected.has(path) })
    }
  })

  it('ignore what is below an ignored folder, also when asked about it before the folder', () => {
    const root = writeTree(tempDir(), TREE)
    const cache = new IgnoreCache(new IgnoreRules(root))
    expect(cache.isIgnored('a/b/deep/keep.log', false)).toBe(true)
    expect(cache.isIgnored('node_modules/pkg/index.js', false)).toBe(true)
    expect(cache.isIgnored('src/x/y.txt', false)).toBe(false)
  })
})
