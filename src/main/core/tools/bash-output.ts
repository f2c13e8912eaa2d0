import { z } from 'zod'
import description from './bash-output.txt?raw'
import { ToolError } from './errors'
import { defineTool } from './tool'

const parameters = z.object({
  id: z.string().describe('The background process id returned by bash'),
  filter: z.string().optional().describe('Regular expression; only matching lines are returned'),
})

export const bashOutputTool = defineTool({
  id: 'bash_output',
  mutatesFiles: false,
  description,
  parameters,
  truncate: 'tail',
  async execute(args, ctx) {
    let filter: RegExp | undefined
    if (args.filter !== undefined) {
      try {
        filter = new RegExp(args.filter)
      } catch (error) {
        throw new ToolError(`filter is not a valid regular expression: ${(error as Error).message}`)
      }
    }
    const read = ctx.background.readNew(args.id)
    if (!read) {
      const known = ctx.background.list(ctx.sessionId).map((i) => i.id)
      throw new ToolError(`No background process "${args.id}". ${known.length > 0 ? `Known ids: ${known.join(', ')}.` : 'None is running.'}`)
    }
    let text = read.output
    if (filter) text = text.split('\n').filter((line) => filter.test(line)).join('\n')
    const { info } = read
    const status = info.status === 'running' ? 'running' : `${info.status}${info.exitCode !== null ? ` with exit code ${info.exitCode}` : info.signal ? ` by ${info.signal}` : ''}`
    const missed = read.missed > 0 ? `[${read.missed} characters of output were dropped before they could be read]\n` : ''
    return {
      title: info.description ?? info.command,
      output: `${missed}${text.trim() === '' ? '(no new output)' : text.replace(/\n$/, '')}\n\nStatus: ${status}`,
      metadata: { id: info.id, status: info.status, exitCode: info.exitCode, pid: info.pid },
    }
  },
})
