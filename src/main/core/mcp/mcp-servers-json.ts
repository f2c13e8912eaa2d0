import { z } from 'zod'
import { type McpServerConfig, McpServerSchema } from '../config/schema'
import { toConfigIssues } from '../config/zod-issues'

/**
 * The `{"mcpServers": {...}}` format shared by `.mcp.json` files and Claude Desktop's
 * config. Entries are read loosely (other tools add their own keys) and converted to
 * our config shape; an entry that cannot be converted is reported and skipped, and
 * never takes the rest of the file down with it.
 */
const LocalEntrySchema = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  disabled: z.boolean().optional(),
  /** Handshake (start-up) timeout in ms, as in our own config. */
  timeoutMs: z.number().int().positive().optional(),
})

const RemoteEntrySchema = z.object({
  type: z.enum(['http', 'sse', 'streamable-http', 'streamableHttp']).optional(),
  url: z.string().min(1),
  headers: z.record(z.string(), z.string()).optional(),
  disabled: z.boolean().optional(),
  timeoutMs: z.number().int().positive().optional(),
})

export interface ConvertedServers {
  servers: Record<string, McpServerConfig>
  /** One line per entry or problem that was skipped, naming where it came from. */
  warnings: string[]
}

/** `document` is the parsed file; `label` names it in warnings (a path, or "Claude Desktop config"). */
export function convertMcpServers(document: unknown, label: string): ConvertedServers {
  const servers: Record<string, McpServerConfig> = {}
  const warnings: string[] = []
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    return { servers, warnings: [`${label}: expected a JSON object with "mcpServers"`] }
  }
  const entries = (document as { mcpServers?: unknown }).mcpServers
  if (entries === undefined) return { servers, warnings }
  if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) {
    return { servers, warnings: [`${label}: "mcpServers" must be an object of servers by name`] }
  }
  for (const [name, entry] of Object.entries(entries as Record<string, unknown>)) {
    const converted = convertEntry(entry)
    if (typeof converted === 'string') {
      warnings.push(`${label}: server "${name}" skipped: ${converted}`)
      continue
    }
    servers[name] = converted
  }
  return { servers, warnings }
}

/** Our config for one entry, or why there is none. */
function convertEntry(entry: unknown): McpServerConfig | string {
  const hasUrl = typeof entry === 'object' && entry !== null && 'url' in entry
  const parsed = hasUrl ? RemoteEntrySchema.safeParse(entry) : LocalEntrySchema.safeParse(entry)
  if (!parsed.success) return describeIssues(parsed.error.issues)
  const data = parsed.data
  const enabled = { ...(data.disabled === true ? { enabled: false } : {}), ...(data.timeoutMs ? { timeoutMs: data.timeoutMs } : {}) }
  const candidate =
    'url' in data
      ? { type: 'remote', url: data.url, ...(data.headers ? { headers: data.headers } : {}), ...enabled }
      : {
          type: 'local',
          command: [data.command, ...(data.args ?? [])],
          ...(data.env ? { env: data.env } : {}),
          ...(data.cwd ? { cwd: data.cwd } : {}),
          ...enabled,
        }
  const checked = McpServerSchema.safeParse(candidate)
  return checked.success ? checked.data : describeIssues(checked.error.issues)
}

function describeIssues(issues: Parameters<typeof toConfigIssues>[0]): string {
  return toConfigIssues(issues)
    .map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message))
    .join('; ')
}
