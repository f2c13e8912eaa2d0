import { z } from 'zod'
import { ProjectId } from '../schema/project'
import { RelativePath } from '../schema/fs'
import { TerminalData, TerminalExit, TerminalId, TerminalInfo, TerminalReplay } from '../schema/terminal'
import type { DomainContract } from './define'

const Cols = z.number().int().min(2).max(2000)
const Rows = z.number().int().min(1).max(1000)
const Ref = { projectId: ProjectId, id: TerminalId }

export const ptyContract = {
  methods: {
    /** Starts the user's login shell in the project (or a folder inside it). */
    create: {
      input: z.object({ projectId: ProjectId, cols: Cols, rows: Rows, cwd: RelativePath.optional() }).strict(),
      output: TerminalInfo,
    },
    /** Keyboard input (or a paste) for the terminal. */
    write: { input: z.object({ ...Ref, data: z.string().max(1024 * 1024) }).strict(), output: z.object({}) },
    resize: { input: z.object({ ...Ref, cols: Cols, rows: Rows }).strict(), output: z.object({}) },
    kill: { input: z.object(Ref).strict(), output: z.object({ killed: z.boolean() }) },
    /** The project's terminals, running or exited-but-not-closed. */
    list: { input: z.object({ projectId: ProjectId }).strict(), output: z.array(TerminalInfo) },
    /**
     * Flow control: the client has drawn `chars` more characters of output. The
     * terminal pauses its process while too much output is unacknowledged.
     */
    ack: {
      input: z.object({ ...Ref, chars: z.number().int().min(0).max(1 << 30) }).strict(),
      output: z.object({}),
    },
    /** Recent output to repaint a terminal (after a reload); also resumes a terminal paused for a viewer. */
    replay: { input: z.object(Ref).strict(), output: TerminalReplay },
  },
  events: {
    /** Output, batched (a few ms) per terminal. */
    data: TerminalData,
    exit: TerminalExit,
  },
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'NotFound', 'NotADirectory', 'ProjectNotOpen', 'OutsideWorkspace',
  ],
} satisfies DomainContract<'pty'>
