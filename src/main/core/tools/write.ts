import { z } from 'zod'
import { ToolError } from './errors'
import { resolveForTool } from './fs/access'
import { fileDiff } from './fs/diff'
import { askEdit, commitWrite, readTextOrNull } from './fs/edit-flow'
import { lockKey } from './fs/file-lock'
import { detectEol, toEol } from './fs/text'
import { defineTool } from './tool'
import description from './write.txt?raw'

const parameters = z.object({
  filePath: z.string().describe('Path relative to the project root, or absolute'),
  content: z.string().describe('The complete new content of the file'),
})

export const writeTool = defineTool({
  id: 'write',
  mutatesFiles: true,
  description,
  parameters,
  argumentAliases: { file_path: 'filePath' },
  lockPaths: (args, ctx) => [lockKey(ctx.root, args.filePath)],
  async execute(args, ctx) {
    const resolved = await resolveForTool(ctx, args.filePath)
    const before = readTextOrNull(resolved)
    if (before !== null) ctx.fileTimes.assertCanEdit(resolved.abs, resolved.rel)
    const after = before !== null && before.includes('\r\n') ? toEol(args.content, detectEol(before)) : args.content
    if (before === after) throw new ToolError(`${resolved.rel} already has exactly this content; nothing was written.`)
    const preview = fileDiff(resolved.rel, before ?? '', after)
    await askEdit(ctx, [resolved.rel], preview.diff, `${before === null ? 'Create' : 'Overwrite'} ${resolved.rel}`)
    await commitWrite(ctx, resolved, before, after)
    const lines = after === '' ? 0 : after.split('\n').length - (after.endsWith('\n') ? 1 : 0)
    return {
      title: resolved.rel,
      output: `${before === null ? 'Created' : 'Wrote'} ${resolved.rel} (${lines} lines).`,
      changedPaths: [resolved.abs],
      metadata: { filePath: resolved.abs, created: before === null, ...preview },
    }
  },
})
