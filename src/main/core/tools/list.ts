import { statSync } from 'node:fs'
import ignore from 'ignore'
import { z } from 'zod'
import { Permission } from '../permission/names'
import { ToolError } from './errors'
import { resolveForTool } from './fs/access'
import description from './list.txt?raw'
import { walkProject } from './search/walk'
import { defineTool } from './tool'

export const LIST_MAX_ENTRIES = 500

const parameters = z.object({
  path: z.string().optional().describe('Directory relative to the project root (default: the root)'),
  ignore: z.array(z.string()).optional().describe('Extra glob patterns to leave out'),
})

interface Node {
  dirs: Map<string, Node>
  files: string[]
}

function render(node: Node, depth: number, out: string[]): void {
  const pad = '  '.repeat(depth)
  for (const name of [...node.dirs.keys()].sort()) {
    out.push(`${pad}${name}/`)
    render(node.dirs.get(name) as Node, depth + 1, out)
  }
  for (const file of [...node.files].sort()) out.push(`${pad}${file}`)
}

export const listTool = defineTool({
  id: 'list',
  mutatesFiles: false,
  description,
  parameters,
  async execute(args, ctx) {
    const target = await resolveForTool(ctx, args.path ?? '.')
    await ctx.ask({ permission: Permission.List, patterns: [target.rel], always: ['*'], title: `List ${target.rel}` })
    let isDir = false
    try {
      isDir = statSync(target.abs).isDirectory()
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    if (!isDir) throw new ToolError(`"${args.path ?? '.'}" is not a directory. Use read for files.`)
    const extra = ignore().add(args.ignore ?? [])
    const tree: Node = { dirs: new Map(), files: [] }
    const root = target.inside ? ctx.root : target.abs
    const startRel = target.inside ? target.rel.replace(/^\.$/, '') : ''
    const prefix = startRel ? `${startRel}/` : ''
    let count = 0
    let more = false
    walkProject(root, startRel, (entry) => {
      const rel = entry.rel.slice(prefix.length)
      if (args.ignore && extra.ignores(entry.isDir ? `${rel}/` : rel)) return 'skip'
      if (count >= LIST_MAX_ENTRIES) {
        more = true
        return 'stop'
      }
      count++
      const parts = rel.split('/')
      let node = tree
      for (const part of parts.slice(0, -1)) {
        let next = node.dirs.get(part)
        if (!next) {
          next = { dirs: new Map(), files: [] }
          node.dirs.set(part, next)
        }
        node = next
      }
      const name = parts[parts.length - 1] as string
      if (entry.isDir) {
        if (!node.dirs.has(name)) node.dirs.set(name, { dirs: new Map(), files: [] })
      } else node.files.push(name)
      return undefined
    }, ctx.signal)
    const out: string[] = [`${target.inside ? (target.rel === '' ? '.' : target.rel) : target.abs}/`]
    render(tree, 1, out)
    if (more) out.push('', `(More than ${LIST_MAX_ENTRIES} entries; list a subdirectory or use glob.)`)
    return { title: target.rel || '.', output: out.join('\n'), metadata: { count, truncated: more } }
  },
})
