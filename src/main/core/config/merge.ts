type PlainObject = Record<string, unknown>

export function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Assigns an own, enumerable property. Plain `obj[key] = value` would treat a
 * `"__proto__"` key from a config file as the object's prototype.
 */
export function setOwn(target: PlainObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

/**
 * Merges a later config layer over an earlier one: objects merge key by key, arrays
 * and scalars replace. Two rules make the result mean what the layers mean:
 * - a key set by the later layer moves to the end, so in pattern → action permission
 *   maps (where the last matching rule wins) the later layer's rules come after the
 *   earlier ones, exactly as if the rule lists were concatenated;
 * - an object whose `type` changes (an MCP server going from local to remote) is
 *   replaced, not merged, because fields of the old variant are invalid in the new one.
 */
export function mergeConfig(base: unknown, override: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(override)) return override
  if ('type' in base && 'type' in override && base.type !== override.type) return override
  const out: PlainObject = {}
  for (const [key, value] of Object.entries(base)) {
    if (!Object.hasOwn(override, key)) setOwn(out, key, value)
  }
  for (const [key, value] of Object.entries(override)) {
    setOwn(out, key, Object.hasOwn(base, key) ? mergeConfig(base[key], value) : value)
  }
  return out
}
