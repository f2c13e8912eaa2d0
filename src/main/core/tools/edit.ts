import { z } from 'zod'
import { applyEdit } from './edit/apply-edit'
import description from './edit.txt?raw'
import { ToolError } from './errors'
import { resolveForTool } from './fs/access'
import { fileDiff } from './fs/diff'
import { askEdit, commitWrite, readTextOrNull } from './fs/edit-flow'
import { lockKey } from './fs/file-lock'
import { defineTool } from './tool'

const parameters = z.object({
  filePath: z.string().describe('Path relative to the project root, or absolute'),
  oldString: z.string().describe('The exact text to replace'),
  newString: z.string().describe('The text to put in its place (must differ from oldString)'),
  replaceAll: z.boolean().optional().describe('Replace every occurrence of oldString (default false)'),
})

export const editTool = defineTool({
  id: 'edit',
  mutatesFiles: true,
  description,
  parameters,
  argumentAliases: { file_path: 'filePath', old_string: 'oldString', new_string: 'newString', replace_all: 'replaceAll' },
  // Two edits of one file in a step run in turn; the second edits what the first wrote.
  lockPaths: (args, ctx) => [lockKey(ctx.root, args.filePath)],
  async execute(args, ctx) {
    const resolved = await resolveForTool(ctx, args.filePath)
    const before = readTextOrNull(resolved)
    if (before === null) {
      throw new ToolError(`File not found: ${resolved.rel}. To create a new file, use the write tool.`)
    }
    ctx.fileTimes.assertCanEdit(resolved.abs, resolved.rel)
    const edited = applyEdit(before, args.oldString, args.newString, args.replaceAll ?? false, resolved.rel)
    const preview = fileDiff(resolved.rel, before, edited.content)
    await askEdit(ctx, [resolved.rel], preview.diff, `Edit ${resolved.rel}`)
    await commitWrite(ctx, resolved, before, edited.content)
    const fuzzy = edited.matcher === 'exact' ? '' : ` (matched with ${edited.matcher} matching; check the result)`
    return {
      title: resolved.rel,
      output: `Edited ${resolved.rel}: ${edited.replacements} replacement${edited.replacements === 1 ? '' : 's'}${fuzzy}.`,
      changedPaths: [resolved.abs],
      metadata: { filePath: resolved.abs, matcher: edited.matcher, replacements: edited.replacements, ...preview },
    }
  },
})
