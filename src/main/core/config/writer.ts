import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser'
import { HotaruError } from '@shared/errors'
import { globalConfigDir } from './locations'

/** The names a config folder may hold, in the order the loader reads them. */
const CONFIG_FILE_NAMES = ['hotaru.json', 'hotaru.jsonc']

/** The file to write in a config folder: the existing one (jsonc preferred when both), else a new `hotaru.jsonc`. */
export function configFileIn(dir: string): string {
  const existing = CONFIG_FILE_NAMES.map((name) => join(dir, name)).filter((file) => existsSync(file))
  return existing.at(-1) ?? join(dir, 'hotaru.jsonc')
}

/**
 * Sets (or with `undefined`, removes) one value in a JSON/JSONC config file,
 * keeping everything else — comments, order, formatting — as it was
 * (jsonc-parser's `modify` + `applyEdits`). The file is created when missing and
 * replaced atomically; a file that does not parse is refused, never rewritten.
 */
export function writeConfigValue(file: string, path: (string | number)[], value: unknown): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '{}\n'
  const errors: ParseError[] = []
  parse(text, errors, { allowTrailingComma: true, disallowComments: false })
  if (errors.length > 0) {
    const first = errors[0] as ParseError
    throw new HotaruError('ConfigInvalid', {
      message: `${file} does not parse (${printParseErrorCode(first.error)} at offset ${first.offset}); fix it before changing settings here`,
      file,
    })
  }
  const edits = modify(text, path, value, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } })
  const next = applyEdits(text, edits)
  mkdirSync(dirname(file), { recursive: true })
  const temp = `${file}.${process.pid}.tmp`
  writeFileSync(temp, next.endsWith('\n') ? next : `${next}\n`)
  renameSync(temp, file)
}

/** The user's own config file (the global layer), where settings changed in the app are written. */
export function userConfigFile(env: NodeJS.ProcessEnv = process.env): string {
  return configFileIn(globalConfigDir({ env, homeDir: env.HOME ?? env.USERPROFILE ?? homedir(), platform: process.platform }))
}

/** One top-level value of a config file as written there (no layering), or undefined. */
export function readConfigValue(file: string, key: string): unknown {
  if (!existsSync(file)) return undefined
  const value = parse(readFileSync(file, 'utf8'), [], { allowTrailingComma: true }) as Record<string, unknown> | undefined
  return value?.[key]
}
