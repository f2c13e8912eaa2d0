import { statSync } from 'node:fs'
import { z } from 'zod'
import { Permission } from '../permission/names'
import { resolveForTool } from './fs/access'
import description from './grep.txt?raw'
import { grepWithJs, grepWithRipgrep, type GrepResult } from './search/grep-engine'
import { QUOTED_NAMES_NOTE } from './search/path-display'
import { unreadableNote } from './search/unreadable-note'
import { bundledRipgrep } from './search/ripgrep'
import { defineTool, type Tool } from './tool'
import { ToolError } from './errors'

export const GREP_MAX_MATCHES = 100

const parameters = z.object({
  pattern: z.string().min(1).describe('Regular expression to search for'),
  path: z.string().optional().describe('Directory or file to search, relative to the project root (default: whole project)'),
  include: z.string().optional().describe('Glob of files to search, e.g. "*.ts" or "*.{ts,tsx}"'),
})

function format(result: GrepResult, root: string): string {
  const { matches, total } = result
  const unreadable = unreadableNote(result.unreadable, result.unreadableCount, root, '', 'matches')
  if (total === 0) return ['No matches found.', ...unreadable].join('\n')
  const sorted = [...matches].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line)).slice(0, GREP_MAX_MATCHES)
  const out: string[] = [`Found ${total} match${total === 1 ? '' : 'es'}${total > sorted.length ? ` (showing ${sorted.length})` : ''}`]
  let current: string | undefined
  let quoted = false
  let long = false
  for (const m of sorted) {
    if (m.path !== current) {
      out.push('', `${m.shown}:`)
      current = m.path
      quoted ||= m.shown !== m.path
    }
    const cut = m.lineBytes !== undefined ? ` [line is ${m.lineBytes} bytes; only its start is shown]` : m.long ? ' [line is too long to show; only its start is shown]' : ''
    long ||= cut !== ''
    out.push(`  Line ${m.line}: ${m.text}${cut}`)
  }
  if (total > sorted.length) out.push('', `(${total - sorted.length} more matches in these or other files; narrow the pattern, path or include.)`)
  if (long) out.push('', '(Some matching lines are too long to show whole; read them with read and an offset, or grep a narrower pattern.)')
  if (quoted) out.push('', QUOTED_NAMES_NOTE)
  out.push(...unreadable)
  return out.join('\n')
}

/** grep, searching with `rg` when given (the bundled one by default) and in JavaScript when `rg` is null. */
export function createGrepTool(options: { rg?: string | null } = {}): Tool {
  const rg = options.rg === undefined ? bundledRipgrep() : options.rg
  return defineTool({
    id: 'grep',
    mutatesFiles: false,
    description,
    parameters,
    async execute(args, ctx) {
      const target = await resolveForTool(ctx, args.path ?? '.')
      await ctx.ask({ permission: Permission.Grep, patterns: [args.pattern], always: ['*'], title: `Search for ${args.pattern}` })
      try {
        statSync(target.abs)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ToolError(`path "${args.path}" does not exist.`)
        throw error
      }
      // Outside the project ripgrep runs on the absolute path; relative output keeps the model's view short.
      const root = target.inside ? ctx.root : target.abs
      const searchRel = target.inside ? target.rel : ''
      const query = { root, searchRel, pattern: args.pattern, keep: GREP_MAX_MATCHES * 20, signal: ctx.signal, ...(args.include ? { include: args.include } : {}) }
      const result = rg ? await grepWithRipgrep(rg, query) : grepWithJs(query)
      return {
        title: args.pattern,
        output: format(result, root),
        metadata: {
          matches: result.total,
          engine: rg ? 'ripgrep' : 'javascript',
          truncated: result.total > GREP_MAX_MATCHES,
          unreadable: result.unreadableCount,
        },
      }
    },
  })
}

export const grepTool = createGrepTool()
