import { isInside } from '../../project/boundary'
import { Permission } from '../../permission/names'
import { externalPattern, realPathOf, resolveToolPath, type ResolvedPath } from '../../permission/paths'
import { ToolError } from '../errors'
import type { ToolContext } from '../tool'
import { isDirectory } from '../../util/is-directory'
import { assertRootExists } from '../../util/project-anchor'

/**
 * Resolves a path a tool was given (absolute or project-relative) through symlinks.
 * A path outside the project costs an `external_directory` ask (the saved tool
 * outputs under `ctx.outputDir` are readable without one).
 */
export async function resolveForTool(ctx: ToolContext, path: string, options: { readOutputs?: boolean } = {}): Promise<ResolvedPath> {
  if (path.trim() === '') throw new ToolError('The path is empty. Give a path relative to the project root, or an absolute path.')
  if (path.includes('\0')) throw new ToolError('The path contains a NUL byte.')
  // A project folder deleted or renamed during the turn: the turn stops here (`ProjectMissing`), before any write could recreate it.
  assertRootExists(ctx.root)
  const resolved = resolveToolPath(ctx.root, path)
  if (resolved.inside) return resolved
  if (options.readOutputs && isInside(realPathOf(ctx.outputDir), resolved.abs)) return resolved
  const pattern = externalPattern(resolved.abs, isDirectory(resolved.abs))
  await ctx.ask({
    permission: Permission.ExternalDirectory,
    patterns: [pattern],
    always: [pattern],
    title: `Access ${resolved.abs} (outside the project)`,
    metadata: { path: resolved.abs },
  })
  return resolved
}

/** How a path is shown to the model: project-relative inside, absolute outside. */
export function shownPath(resolved: ResolvedPath): string {
  return resolved.rel
}
