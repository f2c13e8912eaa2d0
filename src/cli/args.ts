import { parseArgs } from 'node:util'
import { CliError } from './errors'

export interface OptionSpec {
  type: 'string' | 'boolean'
  short?: string
}

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>
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

export function stringOption(values: ParsedArgs['values'], name: string): string | undefined {
  const value = values[name]
  return typeof value === 'string' ? value : undefined
}
