import { z } from 'zod'

export const TodoSchema = z.object({
  id: z.string().optional().describe('Stable id; kept from the previous list when given'),
  content: z.string().min(1).describe('What to do, as a short imperative sentence'),
  status: z.enum(['pending', 'in_progress', 'completed', 'cancelled']),
  priority: z.enum(['high', 'medium', 'low']).optional(),
})

export type Todo = z.infer<typeof TodoSchema>

/** A session's todo list. The agent loop may back it with storage; the tools only need get/set. */
export interface TodoStore {
  get(): Todo[]
  set(todos: Todo[]): void
}

export class MemoryTodoStore implements TodoStore {
  private todos: Todo[] = []

  get(): Todo[] {
    return this.todos.map((t) => ({ ...t }))
  }

  set(todos: Todo[]): void {
    this.todos = todos.map((t) => ({ ...t }))
  }
}
