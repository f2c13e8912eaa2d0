import { createInterface } from 'node:readline/promises'

/**
 * Asks before applying a previewed change. Without a terminal nothing is asked: `3` (run again with
 * --yes); a "no" at the terminal is `1`; a "yes" is `null` (go on).
 */
export async function confirmApply(command: string, question: string): Promise<number | null> {
  if (!process.stdin.isTTY) {
    process.stderr.write(`${command}: not applied; run again with --yes to apply this preview\n`)
    return 3
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr })
  const answer = (await rl.question(`${question} [y/N] `)).trim().toLowerCase()
  rl.close()
  if (answer === 'y' || answer === 'yes') return null
  process.stderr.write('Not applied.\n')
  return 1
}
