import { z } from 'zod'
import { TodoSchema, type Todo } from './todos'
import { defineTool } from './tool'
import todowriteDescription from './todowrite.txt?raw'

function render(todos: Todo[]): string {
  if (todos.length === 0) return 'The todo list is empty.'
  const mark: Record<Todo['status'], string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]', cancelled: '[-]' }
  return todos.map((t) => `${mark[t.status]} ${t.content}${t.priority ? ` (${t.priority})` : ''}`).join('\n')
}

function remaining(todos: Todo[]): number {
  return todos.filter((t) => t.status === 'pending' || t.status === 'in_progress').length
}

export const todowriteTool = defineTool({
  id: 'todowrite',
  mutatesFiles: false,
  description: todowriteDescription,
  parameters: z.object({ todos: z.array(TodoSchema).describe('The complete, updated todo list') }),
  async execute(args, ctx) {
    const todos = args.todos.map((t, i) => ({ ...t, id: t.id ?? String(i + 1) }))
    ctx.todos.set(todos)
    return { title: `${remaining(todos)} todos left`, output: render(todos), metadata: { todos } }
  },
})
