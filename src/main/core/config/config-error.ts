import { HotaruError } from '@shared/errors'

/** Error name for any config that cannot be read, parsed or validated. */
export const ConfigInvalid = 'ConfigInvalid'

/** One problem in a config, with its location as a JSON path such as `agent.build.maxTurns`. */
export interface ConfigIssue {
  path: string
  message: string
}

/** A config source: its real location and the form shown to the user (`~/…`). */
export interface ConfigFileRef {
  path: string
  display: string
}

export interface ConfigInvalidData {
  message: string
  /** Absolute path of the offending file, or `HOTARU_CONFIG_CONTENT`. */
  file: string
  /** JSON path of the first issue (`""` for the document itself, e.g. a syntax error). */
  path: string
  /** 1-based position, present for syntax errors. */
  line?: number
  column?: number
  issues: ConfigIssue[]
}

/** `a.b["git status*"][0]` — dots for identifier keys, brackets for everything else. */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out ? `.${key}` : key
    else out += `[${JSON.stringify(String(key))}]`
  }
  return out
}

/**
 * Builds the error for one file. The message leads with the file as the user knows it
 * (home shortened to `~`) and the first issue, because that is the line a CLI prints
 * and a dialog shows; the data keeps every issue for a fuller view.
 */
export function configInvalid(file: ConfigFileRef, issues: ConfigIssue[]): HotaruError {
  const first = issues[0] ?? { path: '', message: 'invalid config' }
  const message = first.path ? `${file.display}: ${first.path}: ${first.message}` : `${file.display}: ${first.message}`
  const data: ConfigInvalidData = { message, file: file.path, path: first.path, issues }
  return new HotaruError(ConfigInvalid, { ...data })
}

/** A syntax error: `file:line:column: syntax error: …`, the form editors and terminals link. */
export function configSyntaxError(
  file: ConfigFileRef,
  position: { line: number; column: number },
  what: string,
  issues: ConfigIssue[],
): HotaruError {
  const message = `${file.display}:${position.line}:${position.column}: syntax error: ${what}`
  const data: ConfigInvalidData = { message, file: file.path, path: '', ...position, issues }
  return new HotaruError(ConfigInvalid, { ...data })
}
