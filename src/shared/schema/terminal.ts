import { z } from 'zod'

export const TerminalId = z.string().regex(/^t[0-9]{1,9}$/, 'terminal id')

export const TerminalInfo = z.object({
  id: TerminalId,
  pid: z.number().int(),
  /** The shell executable the terminal runs. */
  shell: z.string(),
  /** Project-relative working directory it started in. */
  cwd: z.string(),
  cols: z.number().int(),
  rows: z.number().int(),
  /** Set once the process has ended. */
  exit: z.object({ exitCode: z.number().int(), signal: z.number().int().nullable() }).nullable(),
})
export type TerminalInfo = z.infer<typeof TerminalInfo>

export const TerminalData = z.object({
  id: TerminalId,
  data: z.string(),
  /** Characters the terminal had produced before this chunk: lets a client that replayed skip what it has. */
  offset: z.number().int(),
})
export type TerminalData = z.infer<typeof TerminalData>

/**
 * Output as a client receives it: text over the desktop IPC, or over `serve` the UTF-8 bytes
 * of a binary frame with their length in characters (`chars`, the unit offsets count in).
 */
export interface TerminalOutput {
  id: string
  data: string | Uint8Array
  offset: number
  chars?: number
}

export const TerminalExit = z.object({
  id: TerminalId,
  exitCode: z.number().int(),
  signal: z.number().int().nullable(),
})
export type TerminalExit = z.infer<typeof TerminalExit>

export const TerminalReplay = z.object({
  /** The most recent output (bounded), to repaint a terminal after a reload. */
  data: z.string(),
  /** Offset just past `data`: events with a smaller offset are already contained in it. */
  end: z.number().int(),
  /**
   * The grid size `data` was written at, from character `at` on (the first entry at 0).
   * A client replays each stretch at its size and only then fits the terminal to its view.
   */
  sizes: z.array(z.object({ at: z.number().int().min(0), cols: z.number().int().min(1), rows: z.number().int().min(1) })).min(1),
})
export type TerminalReplay = z.infer<typeof TerminalReplay>
