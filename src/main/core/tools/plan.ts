import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { PLAN_DIR } from '../permission/names'
import { ToolError } from './errors'
import planEnterDescription from './plan-enter.txt?raw'
import planExitDescription from './plan-exit.txt?raw'
import { defineTool } from './tool'

/** The plan file of a session, relative to the project root. */
export function planFilePath(sessionId: string): string {
  return `${PLAN_DIR}/${sessionId.replace(/[^A-Za-z0-9._-]/g, '_')}.md`
}

const YES_PLAN = 'Yes, plan first'
const YES_BUILD = 'Yes, start implementing'

export const planEnterTool = defineTool({
  id: 'plan_enter',
  mutatesFiles: false,
  description: planEnterDescription,
  parameters: z.object({ reason: z.string().optional().describe('Why a plan should come first, in one sentence') }),
  async execute(args, ctx) {
    const [answer = []] = await ctx.question([
      {
        question: `Switch to plan mode?${args.reason ? ` ${args.reason}` : ''}`,
        header: 'Plan mode',
        options: [{ label: YES_PLAN, description: 'Explore and write a plan; change nothing yet' }, { label: 'No, keep going' }],
      },
    ])
    if (answer[0] !== YES_PLAN) {
      const said = answer[0] && answer[0] !== 'No, keep going' ? ` They said: ${answer[0]}` : ''
      return { title: 'Plan mode declined', output: `The user chose not to switch to plan mode.${said}`, metadata: { accepted: false } }
    }
    ctx.switchAgent('plan')
    const file = planFilePath(ctx.sessionId)
    return {
      title: 'Plan mode',
      output: `Switched to plan mode. Explore without changing files, write the plan to ${file}, then call plan_exit.`,
      metadata: { accepted: true, planFile: file },
    }
  },
})

export const planExitTool = defineTool({
  id: 'plan_exit',
  mutatesFiles: false,
  description: planExitDescription,
  parameters: z.object({}),
  async execute(_args, ctx) {
    const file = planFilePath(ctx.sessionId)
    let plan: string
    try {
      plan = readFileSync(join(ctx.root, file), 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      throw new ToolError(`No plan found at ${file}. Write the plan there with the write tool first, then call plan_exit.`)
    }
    const [answer = []] = await ctx.question([
      {
        question: 'Approve this plan and start implementing it?',
        header: 'Plan review',
        options: [{ label: YES_BUILD }, { label: 'No, keep planning' }],
      },
    ])
    if (answer[0] !== YES_BUILD) {
      const said = answer[0] && answer[0] !== 'No, keep planning' ? ` They said: ${answer[0]}` : ''
      return { title: 'Plan not approved', output: `The user did not approve the plan yet.${said} Revise it and call plan_exit again.`, metadata: { approved: false, planFile: file } }
    }
    ctx.switchAgent('build')
    return {
      title: 'Plan approved',
      output: `The user approved the plan. You are now the build agent: implement it.\n\n${plan}`,
      metadata: { approved: true, planFile: file },
    }
  },
})
