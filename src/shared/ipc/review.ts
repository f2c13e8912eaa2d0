import { z } from 'zod'
import { RejectedChange, Review, ReviewConflict } from '../schema/review'
import { SessionId } from '../schema/session'
import { RelativePath } from '../schema/fs'
import type { DomainContract } from './define'

const CheckpointId = z.string().regex(/^cp_[A-Za-z0-9]{6,40}$/, 'checkpoint id')
const Range = { sessionId: SessionId, fromId: CheckpointId, toId: CheckpointId }

export const reviewContract = {
  methods: {
    /** The turn's changes between two checkpoints as structured hunks, with the decisions made so far. */
    get: { input: z.object(Range).strict(), output: Review },
    /**
     * Accept or reject one hunk (`path` + `hunk`), one file (`path`) or everything.
     * Rejecting reverts on disk (an added file is deleted) after a `review` checkpoint
     * that undoes it; parts the user changed since are left alone and listed as conflicts.
     */
    decide: {
      input: z
        .object({ ...Range, action: z.enum(['accept', 'reject']), path: RelativePath.optional(), hunk: z.number().int().min(0).optional() })
        .strict(),
      output: z.object({ review: Review, conflicts: z.array(ReviewConflict), undoCheckpointId: z.string().nullable() }),
    },
    /** The rejections the model has not heard of yet (sent ahead of the session's next message). */
    pending: { input: z.object({ sessionId: SessionId }).strict(), output: z.array(RejectedChange) },
  },
  events: {},
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'NotFound', 'OutsideWorkspace', 'GitFailed', 'ProjectNotOpen',
  ],
} satisfies DomainContract<'review'>
