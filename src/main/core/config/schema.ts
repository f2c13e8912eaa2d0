import { EffortSchema } from '@shared/schema/effort'
import { HookEventName } from '@shared/schema/hook-event'
import { z } from 'zod'

/**
 * The shape of `hotaru.json` / `hotaru.jsonc`. Every object is strict so a typo in a
 * key is reported instead of silently ignored; every field is optional because each
 * layer (global, project, managed…) is a partial config merged with the others.
 * Defaults live with the modules that consume a setting, not here, so a layer that
 * leaves a field out never overrides a value set by an earlier layer.
 */

/** `provider/model`; the model part may itself contain slashes (e.g. OpenRouter ids). */
export const ModelRefSchema = z
  .string()
  .regex(/^[^/\s]+\/\S+$/, { error: 'expected "provider/model", e.g. "anthropic/claude-sonnet-4-5"' })

const positiveInt = z.number().int().positive()
const stringMap = z.record(z.string(), z.string())

export const PermissionActionSchema = z.enum(['allow', 'ask', 'deny'])

/**
 * One permission: a single action, or pattern → action rules. Key order is rule
 * order and the last matching rule wins (pattern keys that look like array indexes,
 * e.g. "1", are ordered first by JavaScript; use non-numeric patterns).
 */
export const PermissionRuleSchema = z.union([PermissionActionSchema, z.record(z.string(), PermissionActionSchema)])

/**
 * Permissions per tool id. The built-in permissions are listed for typing; any other
 * key is accepted because tool ids are open-ended (custom tools, `server__tool` from MCP).
 */
export const PermissionConfigSchema = z
  .strictObject({
    bash: PermissionRuleSchema.optional(),
    edit: PermissionRuleSchema.optional(),
    read: PermissionRuleSchema.optional(),
    webfetch: PermissionRuleSchema.optional(),
    websearch: PermissionRuleSchema.optional(),
    external_directory: PermissionRuleSchema.optional(),
    doom_loop: PermissionRuleSchema.optional(),
  })
  .catchall(PermissionRuleSchema)

export const ProviderModelSchema = z.strictObject({
  contextLimit: positiveInt.optional(),
  outputLimit: positiveInt.optional(),
})

export const ProviderConfigSchema = z.strictObject({
  apiKey: z.string().optional(),
  baseURL: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
  headers: stringMap.optional(),
  /** Which OpenAI wire API the provider's models use; unset, the model catalog decides. */
  api: z.enum(['chat', 'responses']).optional(),
  models: z.record(z.string(), ProviderModelSchema).optional(),
})

export const AgentModeSchema = z.enum(['primary', 'subagent'])

export const AgentConfigSchema = z.strictObject({
  model: ModelRefSchema.optional(),
  /** Reasoning effort of this agent's requests (over the config's `effort`; a session's own choice wins). */
  effort: EffortSchema.optional(),
  prompt: z.string().optional(),
  description: z.string().optional(),
  tools: z.record(z.string(), z.boolean()).optional(),
  permission: PermissionConfigSchema.optional(),
  mode: AgentModeSchema.optional(),
  maxTurns: positiveInt.optional(),
})

export const McpLocalSchema = z.strictObject({
  type: z.literal('local'),
  /** Either the full argv (`["npx", "-y", "server"]`) or the executable alone with `args`. */
  command: z.union([z.array(z.string()).min(1), z.string().min(1)]),
  args: z.array(z.string()).optional(),
  env: stringMap.optional(),
  cwd: z.string().optional(),
  enabled: z.boolean().optional(),
  timeoutMs: positiveInt.optional(),
  /** Run this server inside the OS sandbox (see `sandbox`); off unless set. */
  sandbox: z.boolean().optional(),
})

export const McpRemoteSchema = z.strictObject({
  type: z.literal('remote'),
  url: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }),
  headers: stringMap.optional(),
  enabled: z.boolean().optional(),
  timeoutMs: positiveInt.optional(),
})

export const McpServerSchema = z.discriminatedUnion('type', [McpLocalSchema, McpRemoteSchema])

/**
 * In one layer, an MCP entry may only switch a server defined by another layer on or
 * off (`"mcp": { "docs": { "enabled": false } }` in a project), without repeating its
 * command. An entry without `type` is such a toggle and may hold nothing else. After
 * merging, every entry must be a full server again.
 */
export const McpToggleSchema = z.strictObject({ enabled: z.boolean() })

export const HookCommandSchema = z.strictObject({
  type: z.literal('command'),
  command: z.string().min(1),
  /** Seconds, as in the widely used hooks format. */
  timeout: z.number().positive().optional(),
})

export const HookMatcherSchema = z.strictObject({
  /** Tool-name regex such as `edit|write`; absent matches every tool. */
  matcher: z.string().optional(),
  hooks: z.array(HookCommandSchema),
})

/** The events are part of the wire format too (a failed hook is a `hook` part naming its event). */
export const HookEventSchema = HookEventName

export const HooksConfigSchema = z.partialRecord(HookEventSchema, z.array(HookMatcherSchema))

export const SnapshotConfigSchema = z.strictObject({
  enabled: z.boolean().optional(),
  maxFileBytes: positiveInt.optional(),
  exclude: z.array(z.string()).optional(),
  quotaBytes: positiveInt.optional(),
})

/** Sessions in worktrees: where new ones branch from, where they are placed, and whether MCP servers start in them. */
export const WorktreeConfigSchema = z.strictObject({
  /** `head` (default): the main tree's current commit; `default`: the default branch (origin/HEAD, main, master). */
  base: z.enum(['head', 'default']).optional(),
  /** Folder that holds the worktrees (`~` and paths relative to the project allowed); default: under the data dir. */
  dir: z.string().min(1).optional(),
  /** Start the project's MCP servers for a worktree's sessions too (default: off). */
  mcp: z.boolean().optional(),
})

export const CompactionConfigSchema = z.strictObject({
  auto: z.boolean().optional(),
  prune: z.boolean().optional(),
})

export const MemoryConfigSchema = z.strictObject({
  /** Project-relative memory file; `.hotaru/memory.md` when absent (e.g. `AGENTS.md`). */
  file: z.string().min(1).optional(),
})

export const SandboxNetworkSchema = z.union([
  z.literal('none'),
  z.strictObject({ allowedDomains: z.array(z.string().min(1)) }),
])

/**
 * The OS sandbox for commands (bash, hooks, opt-in MCP servers). Set in the user or
 * managed config; a project layer may only tighten it (see `sandbox-layers.ts`).
 */
export const SandboxConfigSchema = z.strictObject({
  enabled: z.boolean().optional(),
  /** Sandboxed bash commands run without a bash ask; denies still apply. */
  autoAllow: z.boolean().optional(),
  /** Extra writable paths (the project and a private temp dir always are). */
  allowWrite: z.array(z.string().min(1)).optional(),
  /** Paths commands may not read, on top of the built-in list. */
  denyRead: z.array(z.string().min(1)).optional(),
  network: SandboxNetworkSchema.optional(),
  /** The model may ask to re-run one command outside the sandbox (always an ask). */
  allowUnsandboxedRetry: z.boolean().optional(),
  /**
   * Commands may open unix sockets (Linux: off by default through a seccomp filter). `false` set
   * explicitly also refuses to run commands where the filter cannot be built (an unknown CPU).
   */
  allowUnixSockets: z.boolean().optional(),
})

/**
 * One language server in `lsp`: a built-in one switched off or pinned (`command`, `version`), or a new one
 * (`command` + `extensions`). A project-configured `command` runs a program, so it is subject to workspace trust.
 */
export const LspServerSchema = z.strictObject({
  disabled: z.boolean().optional(),
  /** Full argv, e.g. `["my-ls", "--stdio"]`; for a built-in server it replaces how the server is found. */
  command: z.array(z.string().min(1)).min(1).optional(),
  /** File extensions with the dot (`.foo`); for a built-in server they replace its own. */
  extensions: z.array(z.string().regex(/^\.[^\s/\\]+$/, { error: 'expected an extension like ".ts"' })).min(1).optional(),
  env: stringMap.optional(),
  initializationOptions: z.record(z.string(), z.unknown()).optional(),
  /** npm version (or range) installed on demand for an npm-distributed server. */
  version: z.string().min(1).optional(),
})

/**
 * `lsp`: `false` turns every language server off; otherwise server id → settings, plus `install`
 * (whether npm-distributed servers missing from the project may be installed into the app's data dir).
 */
export const LspConfigSchema = z.union([
  z.literal(false),
  z.strictObject({ install: z.enum(['ask', 'auto', 'never']).optional() }).catchall(LspServerSchema),
])

export const ConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  model: ModelRefSchema.optional(),
  /** Used for cheap background work such as session titles. */
  smallModel: ModelRefSchema.optional(),
  /**
   * How hard models reason: `off | low | medium | high | max`. Absent: each model's default (reasoning
   * on wherever it is supported). An agent's `effort` and a session's choice go over it.
   */
  effort: EffortSchema.optional(),
  provider: z.record(z.string(), ProviderConfigSchema).optional(),
  agent: z.record(z.string(), AgentConfigSchema).optional(),
  defaultAgent: z.string().optional(),
  permission: PermissionConfigSchema.optional(),
  mcp: z.record(z.string(), McpServerSchema).optional(),
  hooks: HooksConfigSchema.optional(),
  instructions: z.array(z.string()).optional(),
  snapshot: SnapshotConfigSchema.optional(),
  compaction: CompactionConfigSchema.optional(),
  memory: MemoryConfigSchema.optional(),
  shell: z.string().optional(),
  maxTurns: positiveInt.optional(),
  sandbox: SandboxConfigSchema.optional(),
  lsp: LspConfigSchema.optional(),
  worktree: WorktreeConfigSchema.optional(),
  /** The preview of the project's dev server (`.hotaru/launch.json` says how to start it). */
  preview: z
    .object({
      /** The Chromium (or Chrome) the preview tools drive headless in `serve` and the CLI; default `HOTARU_CHROMIUM`, else found on PATH. */
      chromium: z.string().min(1).optional(),
    })
    .strict()
    .optional(),
  /**
   * How long a model response may stay silent (no bytes, before or during the stream) before the attempt is
   * given up and retried, in ms. Default 60 000.
   */
  stallTimeoutMs: z.number().int().min(1_000).max(600_000).optional(),
})

/** What one file (or `HOTARU_CONFIG_CONTENT`) may hold: the config, plus MCP on/off toggles. */
export const ConfigLayerSchema = ConfigSchema.extend({
  mcp: z.record(z.string(), z.union([McpServerSchema, McpToggleSchema])).optional(),
})

/** The effective, merged config. */
export type Config = z.infer<typeof ConfigSchema>
export type ConfigLayer = z.infer<typeof ConfigLayerSchema>
export type PermissionAction = z.infer<typeof PermissionActionSchema>
export type PermissionRule = z.infer<typeof PermissionRuleSchema>
export type PermissionConfig = z.infer<typeof PermissionConfigSchema>
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>
export type AgentConfig = z.infer<typeof AgentConfigSchema>
export type McpServerConfig = z.infer<typeof McpServerSchema>
export type McpLocalConfig = z.infer<typeof McpLocalSchema>
export type McpRemoteConfig = z.infer<typeof McpRemoteSchema>
export type HooksConfig = z.infer<typeof HooksConfigSchema>
export type HookEvent = z.infer<typeof HookEventSchema>
export type SandboxConfig = z.infer<typeof SandboxConfigSchema>
export type SandboxNetworkConfig = z.infer<typeof SandboxNetworkSchema>
export type LspConfig = z.infer<typeof LspConfigSchema>
export type LspServerConfig = z.infer<typeof LspServerSchema>
