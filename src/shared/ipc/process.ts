import { z } from 'zod'
import { ProjectId } from '../schema/project'
import type { DomainContract } from './define'

/** A command the agent started in the background (dev server, watcher). */
export const BackgroundProcess = z.object({
  id: z.string(),
  pid: z.number(),
  command: z.string(),
  description: z.string().optional(),
  cwd: z.string(),
  sessionId: z.string(),
  startedAt: z.number(),
  status: z.enum(['running', 'exited', 'killed']),
  /** Runs inside the OS sandbox. */
  sandboxed: z.boolean().optional(),
  exitCode: z.number().nullable(),
  signal: z.string().nullable(),
  endedAt: z.number().optional(),
})

const ref = z.object({ projectId: ProjectId, id: z.string().min(1).max(100) }).strict()

export const processContract = {
  methods: {
    list: { input: z.object({ projectId: ProjectId }).strict(), output: z.array(BackgroundProcess) },
    /** The last part of its output. */
    output: { input: ref, output: z.object({ text: z.string() }) },
    kill: { input: ref, output: BackgroundProcess },
  },
  events: {
    changed: BackgroundProcess,
  },
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'NotFound', 'ProjectNotOpen',
  ],
} satisfies DomainContract<'process'>
