import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SnapshotErrorNames } from '../../../src/main/core/snapshot'
import { exists, link, read, readTree, sandbox, write, type Sandbox } from './helpers'

let box: Sandbox

beforeEach(() => {
  box = sandbox()
})

afterEach(async () => {
  await box.cleanup()
})

describe('restore', () => {
  it('writes only files that differ, removes emptied dirs, restores links and exec bits', () => {
    write(box.root, 'keep.txt', 'keep\n')
    write(box.root, 'edit.txt', 'v1\n')
    write(box.root, 'tool.sh', 'echo\n', true)
    link(box.root, 'lnk', 'keep.txt')
    const engine = box.engine()
    const checkpoint = engine.snapshot().id
    const tree = readTree(box.root)
    const keepIno = lstatSync(join(box.root, 'keep.txt')).ino
    const editIno = lstatSync(join(box.root, 'edit.txt')).ino

    write(box.root, 'edit.txt', 'v2\n')
    write(box.root, 'tool.sh', 'echo\n', false)
    unlinkSync(join(box.root, 'lnk'))
    link(box.root, 'lnk', 'elsewhere')
    write(box.root, 'new/deep/file.txt', 'agent output')

    const preview = engine.preview(checkpoint)
    expect(preview.writes.map((w) => [w.path, w.action])).toEqual([
      ['edit.txt', 'update'],
      ['lnk', 'update'],
      ['tool.sh', 'update'],
    ])
    expect(preview.deletes).toEqual(['new/deep/file.txt'])
    expect(preview.unchanged).toBe(1)

    const result = engine.restore(checkpoint)

    expect(result).toMatchObject({ written: 3, deleted: 1, preRestoreId: preview.currentId })
    expect(readTree(box.root)).toEqual(tree)
    expect(existsSync(join(box.root, 'new'))).toBe(false)
    expect(lstatSync(join(box.root, 'keep.txt')).ino).toBe(keepIno) // untouched, not rewritten
    expect(lstatSync(join(box.root, 'edit.txt')).ino).toBe(editIno) // rewritten in place: same file for editors
    expect(readlinkSync(join(box.root, 'lnk'))).toBe('keep.txt')
  })

  it('can be undone by restoring the pre-restore checkpoint', () => {
    write(box.root, 'a.txt', 'old')
    const engine = box.engine()
    const old = engine.snapshot().id
    write(box.root, 'a.txt', 'new')
    write(box.root, 'b.txt', 'added')
    const later = readTree(box.root)

    const { preRestoreId } = engine.restore(old)
    expect(read(box.root, 'a.txt')).toBe('old')
    engine.restore(preRestoreId)

    expect(readTree(box.root)).toEqual(later)
  })

  it('restores a subset of paths only', () => {
    write(box.root, 'src/a.ts', 'a1')
    write(box.root, 'src/b.ts', 'b1')
    write(box.root, 'docs/x.md', 'x1')
    const engine = box.engine()
    const checkpoint = engine.snapshot().id
    write(box.root, 'src/a.ts', 'a2')
    write(box.root, 'src/b.ts', 'b2')
    write(box.root, 'docs/x.md', 'x2')

    engine.restore(checkpoint, { paths: ['src/a.ts', 'docs/'] })

    expect(read(box.root, 'src/a.ts')).toBe('a1')
    expect(read(box.root, 'src/b.ts')).toBe('b2')
    expect(read(box.root, 'docs/x.md')).toBe('x1')
  })

  it('turns files into directories and back', () => {
    write(box.root, 'thing/inner.txt', 'inner')
    const engine = box.engine()
    const asDir = engine.snapshot().id
    rmSync(join(box.root, 'thing'), { recursive: true })
    write(box.root, 'thing', 'now a file')
    const asFile = engine.snapshot().id

    engine.restore(asDir)
    expect(read(box.root, 'thing/inner.txt')).toBe('inner')
    engine.restore(asFile)
    expect(read(box.root, 'thing')).toBe('now a file')
  })

  it('never touches a nested repository .git but restores its files', () => {
    write(box.root, 'vendor/lib/src.c', 'int v1;')
    write(box.root, 'vendor/lib/.git/HEAD', 'ref: refs/heads/main\n')
    write(box.root, 'vendor/lib/.git/objects/ab/cdef', 'object')
    write(box.root, 'vendor/sub/.git', 'gitdir: ../../.git/modules/sub\n') // submodule-style .git file
    write(box.root, 'vendor/sub/mod.c', 'mod')
    const engine = box.engine()
    const checkpoint = engine.snapshot().id
    const manifest = engine.manifest(checkpoint)
    expect([...manifest.keys()].sort()).toEqual(['vendor/lib/src.c', 'vendor/sub/mod.c'])

    write(box.root, 'vendor/lib/src.c', 'int v2;')
    write(box.root, 'vendor/lib/.git/HEAD', 'ref: refs/heads/feature\n')
    write(box.root, 'vendor/lib/.git/new-object', 'new')
    rmSync(join(box.root, 'vendor/sub/mod.c'))
    const gitBefore = readTree(join(box.root, 'vendor/lib/.git'))

    engine.restore(checkpoint)

    expect(read(box.root, 'vendor/lib/src.c')).toBe('int v1;')
    expect(read(box.root, 'vendor/sub/mod.c')).toBe('mod')
    expect(readTree(join(box.root, 'vendor/lib/.git'))).toEqual(gitBefore)
    expect(read(box.root, 'vendor/sub/.git')).toBe('gitdir: ../../.git/modules/sub\n')
  })

  it('never touches ignored files, even where the checkpoint had a file', () => {
    write(box.root, '.gitignore', '*.log\nbuild/\n')
    write(box.root, 'app.ts', 'v1')
    write(box.root, 'notes.txt', 'tracked then ignored')
    write(box.root, 'app.log', 'log v1')
    write(box.root, 'build/out.js', 'out v1')
    const engine = box.engine()
    const checkpoint = engine.snapshot().id

    write(box.root, 'app.ts', 'v2')
    write(box.root, 'app.log', 'log v2')
    write(box.root, 'build/out.js', 'out v2')
    write(box.root, 'build/extra.js', 'extra')
    // notes.txt becomes ignored; the user's current copy must survive the restore.
    write(box.root, '.gitignore', '*.log\nbuild/\nnotes.txt\n')
    write(box.root, 'notes.txt', 'user copy, now ignored')

    const preview = engine.preview(checkpoint)
    expect(preview.skipped).toContainEqual({ path: 'notes.txt', reason: 'ignored' })
    engine.restore(checkpoint)

    expect(read(box.root, 'app.ts')).toBe('v1')
    expect(read(box.root, 'app.log')).toBe('log v2')
    expect(read(box.root, 'build/out.js')).toBe('out v2')
    expect(read(box.root, 'build/extra.js')).toBe('extra')
    expect(read(box.root, 'notes.txt')).toBe('user copy, now ignored')
    expect(read(box.root, '.gitignore')).toBe('*.log\nbuild/\n')
  })

  it('keeps large untracked files unless the user opts in, and cannot restore content it never stored', () => {
    write(box.root, 'big.bin', Buffer.alloc(3000, 7))
    write(box.root, 'a.txt', 'a')
    const engine = box.engine({ maxFileBytes: 1000 })
    const withBig = engine.snapshot().id
    rmSync(join(box.root, 'big.bin'))
    const without = engine.snapshot().id
    write(box.root, 'big.bin', Buffer.alloc(4000, 9))

    const toWithout = engine.preview(without)
    expect(toWithout.conflicts).toEqual([{ path: 'big.bin', reason: 'not-in-store', resolution: 'keep' }])
    expect(toWithout.deletes).toEqual([])

    rmSync(join(box.root, 'big.bin'))
    const toWith = engine.preview(withBig)
    expect(toWith.skipped).toEqual([{ path: 'big.bin', reason: 'not-in-store' }])
    engine.restore(withBig)
    expect(exists(box.root, 'big.bin')).toBe(false)
  })

  it('refuses to apply a preview the working tree no longer matches', () => {
    write(box.root, 'a.txt', 'a1')
    const engine = box.engine()
    const checkpoint = engine.snapshot().id
    write(box.root, 'a.txt', 'a2')
    const preview = engine.preview(checkpoint)
    write(box.root, 'a.txt', 'a3, edited after the preview')

    expect(() => engine.restore(checkpoint, { expectCurrentId: preview.currentId })).toThrowError(
      expect.objectContaining({ name: SnapshotErrorNames.Stale }),
    )
    expect(read(box.root, 'a.txt')).toBe('a3, edited after the preview')
  })

  it('does not write through a symlinked directory', () => {
    const outside = join(box.store, '..', 'outside')
    mkdirSync(outside)
    write(box.root, 'lib/x.ts', 'x')
    const engine = box.engine()
    const checkpoint = engine.snapshot().id
    rmSync(join(box.root, 'lib'), { recursive: true })
    link(box.root, 'lib', outside)

    engine.restore(checkpoint)

    expect(lstatSync(join(box.root, 'lib')).isDirectory()).toBe(true)
    expect(read(box.root, 'lib/x.ts')).toBe('x')
    expect(readdirSync(outside)).toEqual([])
  })
})

describe('user files and conflicts (baseline rules)', () => {
  /** before: checkpoint before the agent's turn; agent: after its last step (the baseline). */
  function agentTurn() {
    write(box.root, 'shared.txt', 'original\n')
    write(box.root, 'edited-by-agent.txt', 'v1\n')
    write(box.root, 'deleted-by-user.txt', 'keep me\n')
    const engine = box.engine()
    const before = engine.snapshot().id
    write(box.root, 'edited-by-agent.txt', 'agent v2\n')
    write(box.root, 'created-by-agent.txt', 'agent file\n')
    write(box.root, 'shared.txt', 'agent edit\n')
    const agent = engine.snapshot().id
    // Then the user works in the editor.
    write(box.root, 'shared.txt', 'user edit on top\n')
    write(box.root, 'user-notes.md', 'my notes\n')
    rmSync(join(box.root, 'deleted-by-user.txt'))
    return { engine, before, agent }
  }

  it('lists user-created files and conflicts and keeps them by default', () => {
    const { engine, before, agent } = agentTurn()

    const preview = engine.preview(before, { baselineId: agent })

    expect(preview.userCreated).toEqual([{ path: 'user-notes.md', resolution: 'keep' }])
    expect(preview.conflicts).toEqual([
      { path: 'deleted-by-user.txt', reason: 'user-deleted', resolution: 'keep' },
      { path: 'shared.txt', reason: 'user-modified', resolution: 'keep' },
    ])
    expect(preview.writes.map((w) => w.path)).toEqual(['edited-by-agent.txt'])
    expect(preview.deletes).toEqual(['created-by-agent.txt'])

    engine.restore(before, { baselineId: agent })

    expect(read(box.root, 'edited-by-agent.txt')).toBe('v1\n')
    expect(exists(box.root, 'created-by-agent.txt')).toBe(false)
    expect(read(box.root, 'user-notes.md')).toBe('my notes\n')
    expect(read(box.root, 'shared.txt')).toBe('user edit on top\n')
    expect(exists(box.root, 'deleted-by-user.txt')).toBe(false)
  })

  it('overwrites conflicts and deletes user files only when asked', () => {
    const { engine, before, agent } = agentTurn()
    const tree = () => readTree(box.root)

    const preview = engine.preview(before, { baselineId: agent, includeUserCreated: true, overwriteConflicts: true })
    expect(preview.userCreated).toEqual([{ path: 'user-notes.md', resolution: 'delete' }])
    expect(preview.conflicts.every((c) => c.resolution === 'overwrite')).toBe(true)
    engine.restore(before, { baselineId: agent, includeUserCreated: true, overwriteConflicts: true })

    expect([...tree().keys()].sort()).toEqual(['deleted-by-user.txt', 'edited-by-agent.txt', 'shared.txt'])
    expect(read(box.root, 'shared.txt')).toBe('original\n')
  })

  it('blocks a write that would replace a kept user directory', () => {
    write(box.root, 'a.txt', 'a')
    write(box.root, 'out', 'agent wrote a file named out')
    const engine = box.engine()
    const before = engine.snapshot().id
    rmSync(join(box.root, 'out'))
    const agent = engine.snapshot().id
    write(box.root, 'out/user.txt', 'user made a directory there')

    const preview = engine.preview(before, { baselineId: agent })

    expect(preview.userCreated).toEqual([{ path: 'out/user.txt', resolution: 'keep' }])
    expect(preview.skipped).toEqual([{ path: 'out', reason: 'blocked' }])
    engine.restore(before, { baselineId: agent })
    expect(read(box.root, 'out/user.txt')).toBe('user made a directory there')
  })
})

describe('crash safety', () => {
  function interruptedRestore() {
    for (let i = 0; i < 10; i++) write(box.root, `f${i}.txt`, `old ${i}\n`)
    const engine = box.engine()
    const target = engine.snapshot().id
    const targetTree = readTree(box.root)
    for (let i = 0; i < 10; i++) write(box.root, `f${i}.txt`, `new ${i}\n`)
    write(box.root, 'extra/added.txt', 'added')
    const tx = engine.beginRestore(target)
    const preRestoreTree = readTree(box.root)
    expect(tx.total).toBe(11)
    // Apply half of the journal, then "crash": the transaction is abandoned mid-way.
    for (let i = 0; i < 6; i++) tx.step()
    expect(readTree(box.root)).not.toEqual(targetTree)
    return { target, targetTree, preRestoreTree, preRestoreId: tx.preview.currentId }
  }

  it('completes an interrupted restore at next start', () => {
    const { target, targetTree, preRestoreId } = interruptedRestore()
    const restarted = box.engine()
    expect(() => restarted.snapshot()).toThrowError(expect.objectContaining({ name: SnapshotErrorNames.RestorePending }))

    const result = restarted.recover()

    expect(result).toMatchObject({ action: 'completed', targetId: target, preRestoreId })
    expect(readTree(box.root)).toEqual(targetTree)
    expect(restarted.snapshot().id).toBe(target)
    expect(restarted.recover().action).toBe('none')
  })

  it('can roll an interrupted restore back instead', () => {
    const { preRestoreTree, preRestoreId } = interruptedRestore()
    const restarted = box.engine()

    const result = restarted.recover({ prefer: 'rollback' })

    expect(result.action).toBe('rolled-back')
    expect(readTree(box.root)).toEqual(preRestoreTree)
    expect(restarted.snapshot().id).toBe(preRestoreId)
  })

  it('keeps a file the user created after the crash at a path the restore had not reached', () => {
    write(box.root, 'g.txt', 'from the checkpoint')
    write(box.root, 'h.txt', 'old h')
    const engine = box.engine()
    const target = engine.snapshot().id
    rmSync(join(box.root, 'g.txt'))
    write(box.root, 'h.txt', 'new h')
    const tx = engine.beginRestore(target)
    expect(tx.total).toBe(2)
    // Killed before any step; meanwhile the user creates g.txt themselves.
    write(box.root, 'g.txt', 'the user wrote this')

    const completed = box.engine().recover()

    expect(completed).toMatchObject({ action: 'completed', kept: ['g.txt'] })
    expect(read(box.root, 'g.txt')).toBe('the user wrote this')
    expect(read(box.root, 'h.txt')).toBe('old h')
  })

  it('a rollback keeps a file the user created after the crash too', () => {
    write(box.root, 'h.txt', 'old h')
    const engine = box.engine()
    const target = engine.snapshot().id
    rmSync(join(box.root, 'h.txt'))
    const tx = engine.beginRestore(target)
    tx.step()
    // The restore wrote h.txt back; the user then replaced it with their own before recovery.
    write(box.root, 'h.txt', 'the user wrote this')

    const rolled = box.engine().recover({ prefer: 'rollback' })

    expect(rolled).toMatchObject({ action: 'rolled-back', kept: ['h.txt'] })
    expect(read(box.root, 'h.txt')).toBe('the user wrote this')
  })

  it('rolls back from the journal alone when the store lost its trees (a power cut before they reached the disk)', () => {
    const { preRestoreTree } = interruptedRestore()
    // Only the blobs of what each path held before are synced ahead of the journal; trees are not.
    rmSync(join(box.store, 'trees'), { recursive: true, force: true })

    const result = box.engine().recover({ prefer: 'rollback' })

    expect(result.action).toBe('rolled-back')
    expect(readTree(box.root)).toEqual(preRestoreTree)
  })

  it('completes from the journal alone when the store lost its trees', () => {
    const { targetTree } = interruptedRestore()
    rmSync(join(box.store, 'trees'), { recursive: true, force: true })

    const result = box.engine().recover()

    expect(result.action).toBe('completed')
    expect(readTree(box.root)).toEqual(targetTree)
  })

  it('rolls back small files from the content the journal carries, with the store’s trees and blobs both lost', () => {
    const { preRestoreTree } = interruptedRestore()
    const journal = JSON.parse(readFileSync(join(box.store, 'restore-journal.json'), 'utf8')) as { saved?: Record<string, string> }
    expect(Object.keys(journal.saved ?? {}).length).toBeGreaterThan(0)
    rmSync(join(box.store, 'trees'), { recursive: true, force: true })
    rmSync(join(box.store, 'blobs'), { recursive: true, force: true })

    // Completing needs the target's blobs, which are gone: the recovery rolls back instead.
    const result = box.engine().recover()

    expect(result.action).toBe('rolled-back')
    expect(readTree(box.root)).toEqual(preRestoreTree)
  })

  it('recovers a journal of the earlier format, which names no pre-restore entries', () => {
    const { preRestoreTree } = interruptedRestore()
    const path = join(box.store, 'restore-journal.json')
    const journal = JSON.parse(readFileSync(path, 'utf8')) as { v: number; ops: { before?: unknown }[] }
    journal.v = 1
    for (const op of journal.ops) delete op.before
    writeFileSync(path, JSON.stringify(journal))

    const result = box.engine().recover({ prefer: 'rollback' })

    expect(result.action).toBe('rolled-back')
    expect(readTree(box.root)).toEqual(preRestoreTree)
  })

  it('removes temp files a crash left next to the restored files', () => {
    interruptedRestore()
    const journal = JSON.parse(readFileSync(join(box.store, 'restore-journal.json'), 'utf8')) as { nonce: string }
    writeFileSync(join(box.root, `.hotaru-restore-${journal.nonce}-9`), 'half written')

    box.engine().recover()

    expect(readdirSync(box.root).filter((name) => name.startsWith('.hotaru-restore-'))).toEqual([])
  })

  it('can cancel a restore midway, putting back what it changed', () => {
    write(box.root, 'a.txt', 'a1')
    write(box.root, 'b.txt', 'b1')
    const engine = box.engine()
    const target = engine.snapshot().id
    write(box.root, 'a.txt', 'a2')
    write(box.root, 'b.txt', 'b2')
    const before = readTree(box.root)
    const tx = engine.beginRestore(target)
    tx.step()

    tx.cancel()

    expect(readTree(box.root)).toEqual(before)
    expect(engine.snapshot().id).toBe(tx.preview.currentId)
  })

  it('rolls back by itself when a step fails', () => {
    write(box.root, 'a.txt', 'a1')
    write(box.root, 'b/c.txt', 'c1')
    const engine = box.engine()
    const target = engine.snapshot().id
    write(box.root, 'a.txt', 'a2')
    rmSync(join(box.root, 'b'), { recursive: true })
    const tx = engine.beginRestore(target)
    const before = readTree(box.root)
    // Something outside the restore puts a file where the restore needs a directory.
    tx.step()
    write(box.root, 'b', 'in the way')

    expect(() => tx.step()).toThrowError(/rolled back/)
    expect(read(box.root, 'a.txt')).toBe('a2')
    expect(read(box.root, 'b')).toBe('in the way')
    expect([...readTree(box.root).keys()].sort()).toEqual([...before.keys(), 'b'].sort())
    expect(existsSync(join(box.store, 'restore-journal.json'))).toBe(false)
  })
})
