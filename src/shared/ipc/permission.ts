import { z } from 'zod'
import { ProjectId } from '../schema/project'
import { SessionId } from '../schema/session'
import { PermissionActionName, RememberedApproval, RuleInEffect } from '../schema/permission-rules'
import type { DomainContract } from './define'

export const PendingPermission = z.object({
  id: z.string(),
  sessionId: z.string(),
  projectId: z.string(),
  permission: z.string(),
  /** The exact values being decided (commands, paths). */
  patterns: z.array(z.string()),
  /** What "always" would remember; empty when "always" is not offered. */
  always: z.array(z.string()),
  title: z.string(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  /** No rule can allow it (a shell line that cannot be fully analyzed): only the user answers. */
  forceAsk: z.boolean().optional(),
  turnId: z.string().optional(),
  messageId: z.string().optional(),
  callId: z.string().optional(),
  agent: z.string().optional(),
  createdAt: z.number(),
})
export type PendingPermission = z.infer<typeof PendingPermission>

export const ApprovalScope = z.enum(['turn', 'session', 'project', 'persisted'])

export const permissionContract = {
  methods: {
    pending: {
      input: z.object({ projectId: ProjectId.optional(), sessionId: SessionId.optional() }).strict(),
      output: z.array(PendingPermission),
    },
    reply: {
      input: z
        .object({
          id: z.string().min(1).max(100),
          reply: z.enum(['once', 'always', 'reject']),
          feedback: z.string().max(10_000).optional(),
          scope: ApprovalScope.optional(),
        })
        .strict(),
      output: z.object({ replied: z.boolean() }),
    },
    /** Rules in force for an agent (default: the project's default agent), as the runtime enforces them, lowest precedence first, with their layer; and the files user/project rules go to. */
    rules: {
      input: z.object({ projectId: ProjectId, agent: z.string().min(1).max(100).optional() }).strict(),
      output: z.object({
        rules: z.array(RuleInEffect),
        files: z.object({ user: z.string(), project: z.string() }),
        /** Whether the folder is trusted: until it is, its own config may only ask or deny (`setRule` refuses an `allow` there). */
        trusted: z.boolean(),
      }),
    },
    /**
     * Adds, changes or (action null) removes a user or project rule in its config file, comments kept. An `allow`
     * for the project layer of a folder that is not trusted is refused (`InvalidPayload`): it would never apply.
     */
    setRule: {
      input: z
        .object({
          projectId: ProjectId,
          layer: z.enum(['user', 'project']),
          permission: z.string().min(1).max(200),
          pattern: z.string().min(1).max(2000),
          action: PermissionActionName.nullable(),
        })
        .strict(),
      output: z.object({ file: z.string() }),
    },
    /** "Always" approvals remembered for the project (and a session). */
    approvals: {
      input: z.object({ projectId: ProjectId, sessionId: SessionId.optional() }).strict(),
      output: z.array(RememberedApproval),
    },
    revoke: {
      input: z
        .object({ projectId: ProjectId, permission: z.string().min(1), pattern: z.string().min(1), scope: ApprovalScope, sessionId: SessionId.optional() })
        .strict(),
      output: z.object({ revoked: z.boolean() }),
    },
  },
  events: {
    asked: z.object({ type: z.literal('asked'), request: PendingPermission }),
    replied: z.object({
      type: z.literal('replied'),
      id: z.string(),
      sessionId: z.string(),
      projectId: z.string(),
      reply: z.enum(['once', 'always', 'reject']),
      scope: ApprovalScope.optional(),
      feedback: z.string().optional(),
      /** Answered by another reply (an "always" that covers it, a rejection, an abort), not by the user directly. */
      auto: z.boolean().optional(),
    }),
  },
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'NotFound', 'ConfigInvalid',
  ],
} satisfies DomainContract<'permission'>
