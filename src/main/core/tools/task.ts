import { z } from 'zod'
import { Permission } from '../permission/names'
import description from './task.txt?raw'
import { defineTool } from './tool'

const parameters = z.object({
  description: z.string().min(1).describe('3-5 word summary of the task'),
  prompt: z.string().min(1).describe('Everything the subagent needs to know and what to return'),
  subagent_type: z.string().min(1).describe('The agent to run, e.g. "explore" or "general"'),
})

/** Delegates to the loop's `runSubagent`; holds no state, so parallel calls are independent. */
export const taskTool = defineTool({
  id: 'task',
  mutatesFiles: false,
  description,
  parameters,
  async execute(args, ctx) {
    await ctx.ask({
      permission: Permission.Task,
      patterns: [args.subagent_type],
      always: [args.subagent_type],
      title: `Run the ${args.subagent_type} agent: ${args.description}`,
    })
    const text = await ctx.runSubagent({ agent: args.subagent_type, prompt: args.prompt, description: args.description })
    return { title: args.description, output: text.trim() === '' ? '(The subagent returned no text.)' : text, metadata: { agent: args.subagent_type } }
  },
})
