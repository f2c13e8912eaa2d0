import { z } from 'zod'
import type { DocumentSymbol, Location, LocationLink, SymbolInformation, WorkspaceSymbol } from 'vscode-languageserver-protocol/node'
import { pathToFileURL } from 'node:url'
import { Permission } from '../permission/names'
import { ToolError } from '../tools/errors'
import { resolveForTool } from '../tools/fs/access'
import { defineTool, type Tool } from '../tools/tool'
import description from './lsp-tool.txt?raw'
import type { ProjectLsp } from './project-lsp'
import { uriToPath } from './server'

const parameters = z.object({
  operation: z.enum(['goToDefinition', 'findReferences', 'hover', 'documentSymbol', 'workspaceSymbol']),
  filePath: z.string().describe('Path relative to the project root, or absolute'),
  line: z.number().int().min(1).optional().describe('1-based line (goToDefinition, findReferences, hover)'),
  character: z.number().int().min(1).optional().describe('1-based column (goToDefinition, findReferences, hover)'),
  query: z.string().optional().describe('Symbol name or part of it (workspaceSymbol)'),
})

const MAX_RESULTS = 100
/** How long the tool waits for a server that is still starting. */
const START_WAIT_MS = 60_000

const SYMBOL_KINDS = [
  '', 'file', 'module', 'namespace', 'package', 'class', 'method', 'property', 'field', 'constructor', 'enum', 'interface',
  'function', 'variable', 'constant', 'string', 'number', 'boolean', 'array', 'object', 'key', 'null', 'enum member',
  'struct', 'event', 'operator', 'type parameter',
]

/** The `lsp` tool: read-only questions to the project's language servers. */
export function createLspTool(lspOf: (projectId: string) => ProjectLsp | undefined): Tool {
  return defineTool({
    id: 'lsp',
    description,
    parameters,
    async execute(args, ctx) {
      const lsp = lspOf(ctx.projectId)
      if (!lsp) throw new ToolError('Language servers are not available in this project.')
      const resolved = await resolveForTool(ctx, args.filePath)
      await ctx.ask({ permission: Permission.Lsp, patterns: [resolved.rel], always: ['*'], title: `${args.operation} in ${resolved.rel}` })
      const handle = lsp.handleFor(resolved.abs)
      if (!handle) throw new ToolError(`No language server covers ${resolved.rel}.`)
      await handle.ensure()
      const client = handle.running() ?? (await handle.whenSettled(Date.now() + START_WAIT_MS))
      if (!client) {
        const status = handle.status()
        throw new ToolError(`The ${handle.server.spec.name} language server is ${status.state}${status.reason ? `: ${status.reason}` : ''}.`)
      }
      const uri = (await handle.ensureOpen(resolved.abs)) ?? pathToFileURL(resolved.abs).href
      const show = (location: { uri: string; line: number; character: number }): string =>
        `${lsp.relPath(uriToPath(location.uri) ?? location.uri)}:${location.line + 1}:${location.character + 1}`
      const position = (): [number, number] => {
        if (args.line === undefined || args.character === undefined) throw new ToolError(`${args.operation} needs line and character.`)
        return [args.line - 1, args.character - 1]
      }
      const title = `${args.operation} ${resolved.rel}${args.line ? `:${args.line}` : ''}`
      switch (args.operation) {
        case 'goToDefinition': {
          const result = await client.definition(uri, ...position())
          const locations = toLocations(result).map(show)
          return { title, output: locations.length ? locations.join('\n') : 'No definition found.', metadata: { count: locations.length } }
        }
        case 'findReferences': {
          const locations = (await client.references(uri, ...position())) ?? []
          const lines = locations.slice(0, MAX_RESULTS).map((l) => show({ uri: l.uri, ...l.range.start }))
          if (locations.length > MAX_RESULTS) lines.push(`(${locations.length - MAX_RESULTS} more not shown)`)
          return { title, output: lines.length ? lines.join('\n') : 'No references found.', metadata: { count: locations.length } }
        }
        case 'hover': {
          const hover = await client.hover(uri, ...position())
          return { title, output: hover ? hoverText(hover.contents) : 'Nothing to show at this position.', metadata: {} }
        }
        case 'documentSymbol': {
          const symbols = (await client.documentSymbols(uri)) ?? []
          const lines = outline(symbols, 0).slice(0, MAX_RESULTS * 2)
          return { title, output: lines.length ? lines.join('\n') : 'No symbols found.', metadata: { count: lines.length } }
        }
        case 'workspaceSymbol': {
          if (!args.query) throw new ToolError('workspaceSymbol needs a query.')
          const symbols = (await client.workspaceSymbols(args.query)) ?? []
          const lines = symbols.slice(0, MAX_RESULTS).map((s) => {
            const where = 'range' in s.location ? show({ uri: s.location.uri, ...s.location.range.start }) : lsp.relPath(uriToPath(s.location.uri) ?? s.location.uri)
            return `${SYMBOL_KINDS[s.kind] ?? 'symbol'} ${s.name}${s.containerName ? ` (in ${s.containerName})` : ''} — ${where}`
          })
          return { title: `workspaceSymbol ${args.query}`, output: lines.length ? lines.join('\n') : 'No symbols found.', metadata: { count: symbols.length } }
        }
      }
    },
  })
}

function toLocations(result: Location | Location[] | LocationLink[] | null): Array<{ uri: string; line: number; character: number }> {
  if (!result) return []
  const list = Array.isArray(result) ? result : [result]
  return list.map((item) =>
    'targetUri' in item
      ? { uri: item.targetUri, ...item.targetSelectionRange.start }
      : { uri: item.uri, ...item.range.start },
  )
}

function hoverText(contents: unknown): string {
  if (typeof contents === 'string') return contents
  if (Array.isArray(contents)) return contents.map(hoverText).join('\n\n')
  if (contents && typeof contents === 'object' && 'value' in contents) {
    const value = String((contents as { value: unknown }).value)
    const language = 'language' in contents ? String((contents as { language: unknown }).language) : ''
    return language ? `\`\`\`${language}\n${value}\n\`\`\`` : value
  }
  return ''
}

function outline(symbols: Array<DocumentSymbol | SymbolInformation | WorkspaceSymbol>, depth: number): string[] {
  const lines: string[] = []
  for (const symbol of symbols) {
    const line = 'range' in symbol ? symbol.range.start.line + 1 : 'range' in symbol.location ? symbol.location.range.start.line + 1 : 0
    lines.push(`${'  '.repeat(depth)}${SYMBOL_KINDS[symbol.kind] ?? 'symbol'} ${symbol.name} — line ${line}`)
    if ('children' in symbol && symbol.children) lines.push(...outline(symbol.children, depth + 1))
  }
  return lines
}
