import { applyPatch, parsePatch } from 'diff'
import { ToolError } from '../errors'
import type { PatchOp } from './types'

function stripPrefix(name: string | undefined): string | undefined {
  if (!name || name === '/dev/null') return undefined
  const clean = name.split('\t')[0]?.trim() ?? ''
  return clean.replace(/^[ab]\//, '')
}

/** Parses a unified diff (`--- a/x`, `+++ b/x`, `@@ -1,3 +1,4 @@`), as git and diff -u write them. */
export function parseUnified(text: string): PatchOp[] {
  let patches
  try {
    patches = parsePatch(text)
  } catch (error) {
    throw new ToolError(`The unified diff could not be parsed: ${(error as Error).message}`)
  }
  const ops: PatchOp[] = []
  for (const patch of patches) {
    const from = stripPrefix(patch.oldFileName)
    const to = stripPrefix(patch.newFileName)
    if (!from && !to) continue
    if (!from && to) {
      const content = applyPatch('', patch)
      if (content === false) throw new ToolError(`The new file ${to} in the diff could not be built from its hunk.`)
      ops.push({ type: 'add', path: to, content })
      continue
    }
    if (from && !to) {
      ops.push({ type: 'delete', path: from })
      continue
    }
    const path = from as string
    const target = to as string
    ops.push({
      type: 'update',
      path,
      ...(target !== path ? { moveTo: target } : {}),
      apply(content) {
        if (patch.hunks.length === 0) return content
        const result = applyPatch(content, patch, { fuzzFactor: 0 })
        if (result === false) {
          throw new ToolError(`The diff for ${path} does not apply: its context or removed lines do not match the file. Re-read the file and regenerate the hunk.`)
        }
        return result
      },
    })
  }
  if (ops.length === 0) throw new ToolError('The diff contains no file changes (expected "--- a/path", "+++ b/path" and "@@" hunks).')
  return ops
}
