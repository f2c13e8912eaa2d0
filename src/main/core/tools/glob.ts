import { statSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { Permission } from '../permission/names'
import { ToolError } from './errors'
import { resolveForTool } from './fs/access'
import description from './glob.txt?raw'
import { globWithJs, globWithRipgrep } from './search/glob-engine'
import { displayPath, QUOTED_NAMES_NOTE } from './search/path-display'
import { bundledRipgrep } from './search/ripgrep'
import { unreadableNote } from './search/unreadable-note'
import { defineTool, type Tool } from './tool'

export const GLOB_MAX_RESULTS = 100

const parameters = z.object({
  pattern: z.string().min(1).describe('Glob pattern, e.g. "**/*.ts" or "src/**/index.tsx"'),
  path: z.string().optional().describe('Directory to search, relative to the project root (default: whole project)'),
})

/** glob, listing files with `rg --files` when `rg` is available (the bundled one by default), in JavaScript otherwise. */
export function createGlobTool(options: { rg?: string | null } = {}): Tool {
  const rg = options.rg === undefined ? bundledRipgrep() : options.rg
  return defineTool({
    id: 'glob',
    mutatesFiles: false,
    description,
    parameters,
    async execute(args, ctx) {
      const target = await resolveForTool(ctx, args.path ?? '.')
      await ctx.ask({ permission: Permission.Glob, patterns: [args.pattern], always: ['*'], title: `Find files ${args.pattern}` })
      let isDir = false
      try {
        isDir = statSync(target.abs).isDirectory()
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      }
      if (!isDir) throw new ToolError(`path "${args.path}" is not a directory.`)
      const root = target.inside ? ctx.root : target.abs
      const searchRel = target.inside ? target.rel : ''
      const query = { root, searchRel, pattern: args.pattern, signal: ctx.signal }
      const found = rg ? await globWithRipgrep(rg, query) : globWithJs(query)
      const prefix = target.inside && searchRel ? `${searchRel}/` : target.inside ? '' : `${target.abs}/`
      const files = (prefix ? found.files.map((f) => prefix + f) : found.files).sort()
      const shown = files.slice(0, GLOB_MAX_RESULTS).map(displayPath)
      const lines = files.length === 0 ? ['No files found.'] : shown.map((name) => name.text)
      if (files.length > shown.length) lines.push('', `(${files.length} files match; showing the first ${shown.length}. Use a more specific pattern or path.)`)
      if (shown.some((name) => name.quoted)) lines.push('', QUOTED_NAMES_NOTE)
      lines.push(...unreadableNote(found.unreadable, found.unreadableCount, join(root, searchRel), prefix, 'files'))
      return {
        title: args.pattern,
        output: lines.join('\n'),
        metadata: { count: files.length, engine: rg ? 'ripgrep' : 'javascript', truncated: files.length > shown.length, unreadable: found.unreadableCount },
      }
    },
  })
}

export const globTool = createGlobTool()
