import { parseArgs } from 'node:util'
import { CliError } from './errors'

export interface OptionSpec {
  type: 'string' | 'boolean'
  short?: string
  /** The option may be given more than once; its value is then a list. */
  multiple?: boolean
}

export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | undefined>
  positionals: string[]
}

/** `util.parseArgs` with errors turned into a one-line message plus usage. */
export function parseCommandArgs(
  argv: string[],
  options: Record<string, OptionSpec>,
  usage: string,
  allowPositionals = false,
): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals, strict: true })
    return { values: values as ParsedArgs['values'], positionals }
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n\n${usage}`)
  }
}

/** Every value of a repeatable string option, in the order given. */
export function stringsOption(values: ParsedArgs['values'], name: string): string[] {
  const value = values[name]
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : []
}

export function stringOption(values: ParsedArgs['values'], name: string): string | undefined {
  const value = values[name]
  return typeof value === 'string' ? value : undefined
}
