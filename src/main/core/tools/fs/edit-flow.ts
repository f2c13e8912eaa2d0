import { statSync } from 'node:fs'
import { HotaruError } from '@shared/errors'
import { NOT_A_REGULAR_FILE, readRegularFileSync } from '../../util/regular-file'
import { Permission } from '../../permission/names'
import { canonicalRoot, type ResolvedPath } from '../../permission/paths'
import { ToolError } from '../errors'
import type { ToolContext } from '../tool'
import { writeFileAtomic } from '../../util/atomic-write'
import { looksBinary } from './text'

/** A text file's current content, or null when it does not exist. Refuses directories and binary files. */
export function readTextOrNull(resolved: ResolvedPath): string | null {
  let buffer: Buffer
  try {
    if (statSync(resolved.abs).isDirectory()) throw new ToolError(`${resolved.rel} is a directory, not a file.`)
    buffer = readRegularFileSync(resolved.abs, resolved.rel)
  } catch (error) {
    if (error instanceof HotaruError && error.name === NOT_A_REGULAR_FILE) throw new ToolError(error.message)
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return null
    if (code === 'ENOTDIR') throw new ToolError(`${resolved.rel}: a parent of this path is a file, not a directory.`)
    throw error
  }
  if (looksBinary(buffer)) throw new ToolError(`${resolved.rel} is a binary file; it cannot be edited as text.`)
  return buffer.toString('utf8')
}

/** Asks for the `edit` permission with the diff for the UI. "Always" approves edits in general. */
export async function askEdit(ctx: ToolContext, paths: string[], diff: string, title: string): Promise<void> {
  await ctx.ask({ permission: Permission.Edit, patterns: paths, always: ['*'], title, metadata: { files: paths, diff } })
}

/**
 * The last step of every edit: the file must still be as the model last read it
 * (the permission prompt may have waited while the user changed it), then the new
 * content is written atomically and becomes the session's view of the file.
 */
export async function commitWrite(ctx: ToolContext, resolved: ResolvedPath, before: string | null, after: string): Promise<void> {
  if (before !== null) ctx.fileTimes.assertUnchanged(resolved.abs, resolved.rel)
  const current = readTextOrNull(resolved)
  if (current !== before) {
    throw new ToolError(`${resolved.rel} changed on disk while this call was waiting. Re-read it and make the change again.`)
  }
  await writeFileAtomic(resolved.abs, after, { root: canonicalRoot(ctx.root) })
  ctx.fileTimes.recordRead(resolved.abs)
}
