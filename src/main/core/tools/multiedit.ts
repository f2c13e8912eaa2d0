import { z } from 'zod'
import { applyEdit } from './edit/apply-edit'
import { ToolError } from './errors'
import { resolveForTool } from './fs/access'
import { fileDiff } from './fs/diff'
import { askEdit, commitWrite, readTextOrNull } from './fs/edit-flow'
import { lockKey } from './fs/file-lock'
import description from './multiedit.txt?raw'
import { defineTool } from './tool'

const parameters = z.object({
  filePath: z.string().describe('Path relative to the project root, or absolute'),
  edits: z
    .array(
      z.object({
        oldString: z.string().describe('The exact text to replace'),
        newString: z.string().describe('The text to put in its place'),
        replaceAll: z.boolean().optional().describe('Replace every occurrence (default false)'),
      }),
    )
    .min(1)
    .describe('Edits applied in order; all or none'),
})

export const multieditTool = defineTool({
  id: 'multiedit',
  mutatesFiles: true,
  description,
  parameters,
  argumentAliases: { file_path: 'filePath' },
  lockPaths: (args, ctx) => [lockKey(ctx.root, args.filePath)],
  async execute(args, ctx) {
    const resolved = await resolveForTool(ctx, args.filePath)
    const before = readTextOrNull(resolved)
    if (before === null) throw new ToolError(`File not found: ${resolved.rel}. To create a new file, use the write tool.`)
    ctx.fileTimes.assertCanEdit(resolved.abs, resolved.rel)
    let content = before
    const matchers: string[] = []
    for (const [index, edit] of args.edits.entries()) {
      try {
        const result = applyEdit(content, edit.oldString, edit.newString, edit.replaceAll ?? false, resolved.rel)
        content = result.content
        matchers.push(result.matcher)
      } catch (error) {
        if (!(error instanceof ToolError)) throw error
        throw new ToolError(`Edit ${index + 1} of ${args.edits.length} failed, so no edit was applied: ${error.message}`, { edit: index + 1 })
      }
    }
    const preview = fileDiff(resolved.rel, before, content)
    await askEdit(ctx, [resolved.rel], preview.diff, `Edit ${resolved.rel} (${args.edits.length} changes)`)
    await commitWrite(ctx, resolved, before, content)
    return {
      title: resolved.rel,
      output: `Applied ${args.edits.length} edits to ${resolved.rel}.`,
      changedPaths: [resolved.abs],
      metadata: { filePath: resolved.abs, matchers, ...preview },
    }
  },
})
