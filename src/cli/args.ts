import { parseArgs } from 'node:util'
import { CliError } from './errors'

export interface OptionSpec {
  type: 'string' | 'boolean'
  short?: string
}

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>
}

/** `util.parseArgs` with errors turned into a one-line message plus usage. */
export function parseCommandArgs(argv: string[], options: Record<string, OptionSpec>, usage: string): ParsedArgs {
  try {
    const { values } = parseArgs({ args: argv, options, allowPositionals: false, strict: true })
    return { values: values as ParsedArgs['values'] }
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n\n${usage}`)
  }
}

export function stringOption(values: ParsedArgs['values'], name: string): string | undefined {
  const value = values[name]
  return typeof value === 'string' ? value : undefined
}
