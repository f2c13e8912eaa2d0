import { createHash } from 'node:crypto'

/** What every provider accepts as a tool name (Anthropic and OpenAI agree on this). */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/
const MAX_LENGTH = 64

/**
 * `server__tool`, reduced to what providers accept: other characters become `_`, and
 * a name too long is cut and given a short hash of the full name, so two long names
 * that share a prefix stay different.
 */
export function qualifiedToolName(server: string, tool: string): string {
  const raw = `${server}__${tool}`
  const clean = raw.replace(/[^a-zA-Z0-9_-]/g, '_')
  if (clean.length <= MAX_LENGTH) return clean
  const hash = createHash('sha256').update(raw).digest('hex').slice(0, 8)
  return `${clean.slice(0, MAX_LENGTH - hash.length - 1)}_${hash}`
}

/**
 * Names for every tool, unique across all servers: when two raw names reduce to the
 * same string (`a.b` and `a_b`), later ones get `_2`, `_3`… in the given order, so
 * the mapping is stable while the server lists the same tools.
 */
export function assignToolNames(entries: ReadonlyArray<{ server: string; tool: string }>): string[] {
  const used = new Set<string>()
  return entries.map(({ server, tool }) => {
    const base = qualifiedToolName(server, tool)
    let name = base
    for (let n = 2; used.has(name); n += 1) {
      const suffix = `_${n}`
      name = `${base.slice(0, MAX_LENGTH - suffix.length)}${suffix}`
    }
    used.add(name)
    return name
  })
}
