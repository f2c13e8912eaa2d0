import { readFile } from 'node:fs/promises'
import { isAbsolute, join, resolve } from 'node:path'
import { type ConfigFileRef, configInvalid, formatJsonPath } from './config-error'
import { setOwn } from './merge'

export interface PlaceholderContext {
  file: ConfigFileRef
  /** Directory that `{file:relative}` paths start from: the config file's own folder. */
  baseDir: string
  env: Readonly<Record<string, string | undefined>>
  homeDir: string
}

const PLACEHOLDER = /\{(env|file):([^}]*)\}/g

/**
 * Replaces `{env:VAR}` and `{file:path}` in every string value (not in keys). This runs
 * on the parsed document rather than the raw text, so a substituted value can never
 * break the JSON around it and a placeholder inside a comment is never read.
 * A missing variable becomes "" with a warning, since configs are shared between
 * machines that do not all set every variable; a missing file is an error, since a
 * path written into a config is a deliberate reference.
 */
export async function resolvePlaceholders(value: unknown, ctx: PlaceholderContext, warnings: string[]): Promise<unknown> {
  return walk(value, [], ctx, warnings)
}

async function walk(value: unknown, path: PropertyKey[], ctx: PlaceholderContext, warnings: string[]): Promise<unknown> {
  if (typeof value === 'string') return substitute(value, path, ctx, warnings)
  if (Array.isArray(value)) {
    const out: unknown[] = []
    for (const [i, item] of value.entries()) out.push(await walk(item, [...path, i], ctx, warnings))
    return out
  }
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) setOwn(out, key, await walk(item, [...path, key], ctx, warnings))
    return out
  }
  return value
}

async function substitute(text: string, path: PropertyKey[], ctx: PlaceholderContext, warnings: string[]): Promise<string> {
  if (!text.includes('{')) return text
  const parts: string[] = []
  let last = 0
  for (const match of text.matchAll(PLACEHOLDER)) {
    const [whole, kind, arg = ''] = match
    parts.push(text.slice(last, match.index))
    last = match.index + whole.length
    parts.push(kind === 'env' ? envValue(arg.trim(), path, ctx, warnings) : await fileValue(arg.trim(), path, ctx))
  }
  parts.push(text.slice(last))
  return parts.join('')
}

function envValue(name: string, path: PropertyKey[], ctx: PlaceholderContext, warnings: string[]): string {
  const value = ctx.env[name]
  if (value !== undefined) return value
  warnings.push(`${ctx.file.display}: ${formatJsonPath(path)}: environment variable ${name} is not set; using an empty string`)
  return ''
}

async function fileValue(ref: string, path: PropertyKey[], ctx: PlaceholderContext): Promise<string> {
  const target = expandPath(ref, ctx)
  try {
    return (await readFile(target, 'utf8')).trim()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error)
    throw configInvalid(ctx.file, [{ path: formatJsonPath(path), message: `cannot read {file:${ref}} (${target}): ${code}` }])
  }
}

function expandPath(ref: string, ctx: PlaceholderContext): string {
  if (ref === '~') return ctx.homeDir
  if (ref.startsWith('~/')) return join(ctx.homeDir, ref.slice(2))
  return isAbsolute(ref) ? ref : resolve(ctx.baseDir, ref)
}
