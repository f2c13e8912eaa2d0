import { z } from 'zod'
import description from './bash-kill.txt?raw'
import { ToolError } from './errors'
import { defineTool } from './tool'

const parameters = z.object({ id: z.string().describe('The background process id returned by bash') })

export const bashKillTool = defineTool({
  id: 'bash_kill',
  mutatesFiles: false,
  description,
  parameters,
  async execute(args, ctx) {
    const before = ctx.background.get(args.id)
    if (!before) throw new ToolError(`No background process "${args.id}".`)
    if (before.status !== 'running') {
      return { title: before.command, output: `${args.id} had already ended (${before.status}).`, metadata: { id: args.id, status: before.status } }
    }
    const info = await ctx.background.kill(args.id)
    return {
      title: before.description ?? before.command,
      output: `Stopped ${args.id} (${before.command}).`,
      metadata: { id: args.id, status: info?.status ?? 'killed', pid: before.pid },
    }
  },
})
