import { z } from 'zod'

export const ReviewDecision = z.enum(['accepted', 'rejected'])
export type ReviewDecision = z.infer<typeof ReviewDecision>

/** One line of a hunk: unchanged context, added by the agent, or removed by it. */
export const ReviewLine = z.object({ kind: z.enum(['context', 'add', 'del']), text: z.string() })
export type ReviewLine = z.infer<typeof ReviewLine>

/** A hunk of a turn's change to one file, with 1-based line ranges on both sides (as in a unified diff). */
export const ReviewHunk = z.object({
  index: z.number(),
  oldStart: z.number(),
  oldLines: z.number(),
  newStart: z.number(),
  newLines: z.number(),
  lines: z.array(ReviewLine),
  /** Absent: not decided yet. */
  decision: ReviewDecision.optional(),
})
export type ReviewHunk = z.infer<typeof ReviewHunk>

export const ReviewFile = z.object({
  path: z.string(),
  status: z.enum(['added', 'modified', 'deleted']),
  /** Binary or too large: decided as a whole, no hunks. */
  wholeFile: z.boolean(),
  hunks: z.array(ReviewHunk),
  /** Every hunk (or the whole file) decided; kept across reloads. */
  reviewed: z.boolean(),
})
export type ReviewFile = z.infer<typeof ReviewFile>

/** One turn's changes as the user reviews them: a checkpoint range of a session. */
export const Review = z.object({
  sessionId: z.string(),
  fromId: z.string(),
  toId: z.string(),
  files: z.array(ReviewFile),
})
export type Review = z.infer<typeof Review>

/** A change the user reverted; the model hears of it with the next message of the session. */
export const RejectedChange = z.object({
  path: z.string(),
  /** The reverted change as a unified diff (what the agent had done). */
  diff: z.string(),
})
export type RejectedChange = z.infer<typeof RejectedChange>

/** What `decide` could not do: the file changed since the turn, so that part was left alone. */
export const ReviewConflict = z.object({ path: z.string(), hunk: z.number().optional(), reason: z.string() })
export type ReviewConflict = z.infer<typeof ReviewConflict>

/** Closes the review note ahead of a user message; the chat shows what follows it as the user's own text. */
export const REVIEW_NOTE_END = '[End of review note]'
