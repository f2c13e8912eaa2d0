import { z } from 'zod'
import description from './question.txt?raw'
import { defineTool } from './tool'

const parameters = z.object({
  questions: z
    .array(
      z.object({
        question: z.string().min(1).describe('The full question'),
        header: z.string().max(30).optional().describe('A short label (≤ 30 characters)'),
        options: z
          .array(z.object({ label: z.string().min(1), description: z.string().optional() }))
          .min(1)
          .max(8)
          .describe('The choices'),
        multiple: z.boolean().optional().describe('Several options may be chosen'),
      }),
    )
    .min(1)
    .max(4),
})

export const questionTool = defineTool({
  id: 'question',
  mutatesFiles: false,
  description,
  parameters,
  async execute(args, ctx) {
    const answers = await ctx.question(args.questions)
    const lines = args.questions.map((q, i) => {
      const answer = answers[i] ?? []
      return `Q: ${q.question}\nA: ${answer.length > 0 ? answer.join(', ') : '(no answer)'}`
    })
    return {
      title: args.questions.length === 1 ? (args.questions[0]?.header ?? 'Question') : `${args.questions.length} questions`,
      output: `The user answered:\n\n${lines.join('\n\n')}`,
      metadata: { answers },
    }
  },
})
