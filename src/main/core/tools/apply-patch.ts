import { unlinkSync } from 'node:fs'
import { z } from 'zod'
import { canonicalRoot, type ResolvedPath } from '../permission/paths'
import description from './apply-patch.txt?raw'
import { parseEnvelope } from './apply-patch/envelope'
import type { PatchOp } from './apply-patch/types'
import { parseUnified } from './apply-patch/unified'
import { ToolError } from './errors'
import { resolveForTool } from './fs/access'
import { writeFileAtomic } from '../util/atomic-write'
import { fileDiff } from './fs/diff'
import { askEdit, readTextOrNull } from './fs/edit-flow'
import { lockKey } from './fs/file-lock'
import { defineTool, type ToolContext } from './tool'

const parameters = z.object({
  patchText: z.string().describe('The patch: a "*** Begin Patch" envelope or a unified diff'),
})

interface PlannedChange {
  type: 'add' | 'update' | 'delete' | 'move'
  from: ResolvedPath
  to: ResolvedPath
  before: string | null
  after: string | null
}

export function parsePatchText(text: string): PatchOp[] {
  if (text.includes('*** Begin Patch')) return parseEnvelope(text)
  if (/^(---|\+\+\+|@@) /m.test(text)) return parseUnified(text)
  throw new ToolError('The patch is neither a "*** Begin Patch" envelope nor a unified diff. See the tool description for both formats.')
}

async function plan(ops: PatchOp[], ctx: ToolContext): Promise<PlannedChange[]> {
  const changes: PlannedChange[] = []
  const touched = new Set<string>()
  for (const op of ops) {
    const from = await resolveForTool(ctx, op.path)
    if (touched.has(from.abs)) throw new ToolError(`The patch changes ${from.rel} twice; merge the changes into one operation.`)
    touched.add(from.abs)
    const before = readTextOrNull(from)
    if (op.type === 'add') {
      if (before !== null) throw new ToolError(`Cannot add ${from.rel}: it already exists. Use "*** Update File:" to change it.`)
      changes.push({ type: 'add', from, to: from, before, after: op.content })
      continue
    }
    if (before === null) throw new ToolError(`Cannot ${op.type} ${from.rel}: the file does not exist.`)
    ctx.fileTimes.assertUnchanged(from.abs, from.rel)
    if (op.type === 'delete') {
      changes.push({ type: 'delete', from, to: from, before, after: null })
      continue
    }
    const after = op.apply(before)
    if (!op.moveTo) {
      changes.push({ type: 'update', from, to: from, before, after })
      continue
    }
    const to = await resolveForTool(ctx, op.moveTo)
    if (readTextOrNull(to) !== null && to.abs !== from.abs) throw new ToolError(`Cannot move ${from.rel} to ${to.rel}: the target exists.`)
    touched.add(to.abs)
    changes.push({ type: 'move', from, to, before, after })
  }
  return changes
}

/** Writes every change; on a failure the files already changed are put back as they were. */
async function commit(changes: PlannedChange[], ctx: ToolContext): Promise<void> {
  const undo: Array<() => void | Promise<void>> = []
  try {
    for (const change of changes) {
      const current = readTextOrNull(change.from)
      if (current !== change.before) throw new ToolError(`${change.from.rel} changed on disk while this call was waiting. Re-read it and make the patch again.`)
      if (change.type === 'delete') {
        unlinkSync(change.from.abs)
        undo.push(() => writeFileAtomic(change.from.abs, change.before ?? ''))
        ctx.fileTimes.forget(change.from.abs)
        continue
      }
      await writeFileAtomic(change.to.abs, change.after ?? '', { root: canonicalRoot(ctx.root) })
      if (change.type === 'add' || change.type === 'move') undo.push(() => unlinkSync(change.to.abs))
      else undo.push(() => writeFileAtomic(change.to.abs, change.before ?? ''))
      ctx.fileTimes.recordRead(change.to.abs)
      if (change.type === 'move') {
        unlinkSync(change.from.abs)
        undo.push(() => writeFileAtomic(change.from.abs, change.before ?? ''))
        ctx.fileTimes.forget(change.from.abs)
      }
    }
  } catch (error) {
    const failures: unknown[] = []
    for (const step of undo.reverse()) {
      try {
        await step()
      } catch (undoError) {
        failures.push(undoError)
      }
    }
    if (failures.length > 0) throw new AggregateError([error, ...failures], 'The patch failed and could not be fully undone', { cause: error })
    throw error
  }
}

export const applyPatchTool = defineTool({
  id: 'apply_patch',
  mutatesFiles: true,
  description,
  parameters,
  argumentAliases: { patch: 'patchText', input: 'patchText' },
  lockPaths(args, ctx) {
    try {
      return parsePatchText(args.patchText).flatMap((op) => [op.path, ...(op.type === 'update' && op.moveTo ? [op.moveTo] : [])]).map((p) => lockKey(ctx.root, p))
    } catch (error) {
      // A patch that does not parse changes nothing; execute reports why.
      if (error instanceof ToolError) return []
      throw error
    }
  },
  async execute(args, ctx) {
    const changes = await plan(parsePatchText(args.patchText), ctx)
    const files = changes.map((c) => ({
      type: c.type,
      path: c.to.rel,
      ...(c.type === 'move' ? { from: c.from.rel } : {}),
      ...fileDiff(c.to.rel, c.before ?? '', c.after ?? ''),
    }))
    const diff = files.map((f) => f.diff).join('\n')
    const paths = [...new Set(changes.flatMap((c) => [c.from.rel, c.to.rel]))]
    await askEdit(ctx, paths, diff, `Apply patch to ${paths.length} file${paths.length === 1 ? '' : 's'}`)
    await commit(changes, ctx)
    const summary = files.map((f) => `${f.type === 'add' ? 'A' : f.type === 'delete' ? 'D' : f.type === 'move' ? 'R' : 'M'} ${f.path}`)
    return {
      title: paths.length === 1 ? (paths[0] as string) : `${paths.length} files`,
      output: `Patch applied:\n${summary.join('\n')}`,
      changedPaths: paths,
      metadata: { files, diff, additions: files.reduce((n, f) => n + f.additions, 0), deletions: files.reduce((n, f) => n + f.deletions, 0) },
    }
  },
})
