import { readFileSync, realpathSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { bashTool } from '../../../src/main/core/tools/bash'
import { runTool } from '../../../src/main/core/tools/run-tool'
import { mountSmallDisk, smallDiskUnavailable } from '../../support/small-disk'
import { tempDir } from '../../support/temp'
import { testContext } from '../../unit/tools/context'

const unmounts: Array<() => void> = []
afterEach(() => {
  for (const unmount of unmounts.splice(0)) unmount()
})

/** 200,000,000 bytes in 2,000,000 lines of 99 characters and a newline, the last one numbered. */
const HUGE = `yes '${'x'.repeat(99)}' | head -n 1999999; printf '%099d\\n' 7`

describe.runIf(process.platform !== 'win32')('a command with a huge output', () => {
  it('200 MB: the model is told the total, what was left out from where, and the complete saved copy', async () => {
    const ctx = testContext()
    const result = await runTool(bashTool, { command: HUGE, description: 'huge', timeout: 300_000 }, ctx)
    expect(result.error).toBeUndefined()
    const path = result.metadata.outputPath as string
    expect(result.output).toContain('[Output truncated: the command wrote 200,000,000 bytes (190.7 MiB) in 2,000,000 lines; shown here: its last ')
    expect(result.output).toMatch(/left out: the first 199,9\d\d,\d\d\d bytes \(190\.\d MiB\)\./)
    expect(result.output).toContain(`The full output is saved at ${path} (complete)`)
    expect(result.output).toContain(`${'0'.repeat(98)}7\n\nExit code: 0`)
    // The copy is every byte, not the part that was held in memory.
    expect(statSync(path).size).toBe(200_000_000)
    expect(result.metadata).toMatchObject({ truncated: true, outputBytes: 200_000_000, outputComplete: true })
  }, 300_000)

  it.skipIf(smallDiskUnavailable() !== null)('on a full disk the saved copy is said to be incomplete, with how much it holds and why', async () => {
    const outputDir = join(realpathSync(tempDir()), 'tool-output')
    unmounts.push(mountSmallDisk(outputDir, '1m'))
    const ctx = testContext(undefined, { outputDir })
    const result = await runTool(bashTool, { command: 'head -c 5000000 /dev/zero | tr "\\0" "y" | fold -w 99', description: 'five MB' }, ctx)
    const path = result.metadata.outputPath as string
    expect(result.output).toContain('[Output truncated: the command wrote 5,050,505 bytes (4.8 MiB) in 50,506 lines')
    expect(result.output).toMatch(new RegExp(`A copy is saved at ${path.replace(/[.]/g, '\\.')}, but it is incomplete: it holds only the first [\\d,]+ bytes[^;]*; writing it stopped: no space left on the disk holding it\\.`))
    const held = Number(/holds only the first ([\d,]+) bytes/.exec(result.output)?.[1]?.replace(/,/g, ''))
    expect(statSync(path).size).toBe(held)
    expect(held).toBeLessThanOrEqual(1024 * 1024)
    expect(readFileSync(path, 'utf8').startsWith('y'.repeat(99))).toBe(true)
    expect(result.metadata).toMatchObject({ truncated: true, outputBytes: 5_050_505, outputComplete: false })
  })
})
