import { z } from 'zod'
import { ProjectId } from '../schema/project'
import type { DomainContract } from './define'

export const McpServerStatus = z.object({
  name: z.string(),
  type: z.enum(['local', 'remote']),
  /** Where its definition came from. */
  source: z.enum(['config', 'mcp.json']),
  state: z.enum(['starting', 'connected', 'failed', 'disabled']),
  /** Why it failed: exit code, stderr tail, timeout, HTTP error… (state `failed` only). */
  error: z.string().optional(),
  /** The failure is a missing or rejected OAuth authorization: `authenticate` fixes it. */
  needsAuth: z.boolean().optional(),
  /** The transport in use, once connected (remote servers may have fallen back to SSE). */
  transport: z.enum(['stdio', 'streamable-http', 'sse']).optional(),
  /** The server's process id (stdio servers while running). */
  pid: z.number().optional(),
  /** Tools offered while connected. */
  toolCount: z.number(),
  /** Automatic restarts after crashes since the last manual start. */
  restarts: z.number(),
  /** A restart after a crash is scheduled. */
  restartPending: z.boolean(),
  /** The server's own name and version from the handshake. */
  serverInfo: z.object({ name: z.string(), version: z.string() }).optional(),
  /** The last lines the server wrote to stderr (stdio servers). */
  stderr: z.array(z.string()).optional(),
})
export type McpServerStatus = z.infer<typeof McpServerStatus>

const serverRef = z.object({ projectId: ProjectId, name: z.string().min(1).max(200) }).strict()

export const mcpContract = {
  methods: {
    /** Re-reads the config and `.mcp.json` and restarts the project's servers (Refresh). */
    reload: { input: z.object({ projectId: ProjectId }).strict(), output: z.array(McpServerStatus) },
    /** Adds or replaces a local (stdio) server in the project's `.mcp.json` (formatting kept), then reloads. */
    saveServer: {
      input: z
        .object({
          projectId: ProjectId,
          name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'server name: letters, digits, - and _'),
          command: z.string().min(1).max(4096),
          args: z.array(z.string().max(4096)).max(100),
          env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string().max(10_000)).optional(),
        })
        .strict(),
      output: z.array(McpServerStatus),
    },
    /** Health of each server of the project (starting / connected / failed with reason / disabled). */
    list: { input: z.object({ projectId: ProjectId }).strict(), output: z.array(McpServerStatus) },
    restart: { input: serverRef, output: McpServerStatus },
    enable: { input: serverRef, output: McpServerStatus },
    disable: { input: serverRef, output: McpServerStatus },
    /** Runs the OAuth sign-in of a remote server in the system browser. */
    authenticate: { input: serverRef, output: McpServerStatus },
    /** Resources of every connected server (for `@server:resource` mentions); failures per server. */
    resources: {
      input: z.object({ projectId: ProjectId }).strict(),
      output: z.object({
        items: z.array(z.object({ server: z.string(), uri: z.string(), name: z.string(), description: z.string().optional(), mimeType: z.string().optional() })),
        errors: z.array(z.object({ server: z.string(), message: z.string() })),
      }),
    },
    /** A resource's text, to insert into a message. */
    readResource: {
      input: z.object({ projectId: ProjectId, server: z.string().min(1), uri: z.string().min(1).max(4096) }).strict(),
      output: z.array(z.object({ uri: z.string(), mimeType: z.string().optional(), text: z.string().optional(), blob: z.string().optional() })),
    },
    prompts: {
      input: z.object({ projectId: ProjectId }).strict(),
      output: z.object({
        items: z.array(
          z.object({
            server: z.string(),
            name: z.string(),
            description: z.string().optional(),
            arguments: z.array(z.object({ name: z.string(), description: z.string().optional(), required: z.boolean().optional() })),
          }),
        ),
        errors: z.array(z.object({ server: z.string(), message: z.string() })),
      }),
    },
    /** A prompt's messages, rendered as text to insert into the chat. */
    getPrompt: {
      input: z.object({ projectId: ProjectId, server: z.string().min(1), name: z.string().min(1), args: z.record(z.string(), z.string()).optional() }).strict(),
      output: z.object({ text: z.string() }),
    },
  },
  events: {
    status: McpServerStatus,
    tools: z.object({ tools: z.array(z.string()) }),
    warning: z.object({ message: z.string() }),
  },
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'NotFound', 'ConfigInvalid', 'ProjectNotOpen',
  ],
} satisfies DomainContract<'mcp'>
