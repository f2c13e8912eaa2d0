import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

export interface InstructionFile {
  path: string
  content: string
}

const MAX_INSTRUCTION_BYTES = 64 * 1024

function readIfPresent(path: string): InstructionFile | undefined {
  if (!existsSync(path)) return undefined
  try {
    const content = readFileSync(path, 'utf8').slice(0, MAX_INSTRUCTION_BYTES)
    return { path, content }
  } catch (error) {
    console.warn(`[instructions] cannot read ${path}: ${(error as Error).message}`)
    return undefined
  }
}

/**
 * Instruction files for a project: in each folder from `startDir` up to the
 * filesystem root (nearest first) `AGENTS.md`, or `CLAUDE.md` where there is no
 * AGENTS.md; then the user's global one. Nearer files come first because they
 * are the most specific.
 */
export function findInstructionFiles(startDir: string, globalDir: string): InstructionFile[] {
  const found: InstructionFile[] = []
  let dir = startDir
  for (;;) {
    const file = readIfPresent(join(dir, 'AGENTS.md')) ?? readIfPresent(join(dir, 'CLAUDE.md'))
    if (file) found.push(file)
    const parent = dirname(dir)
    if (parent === dir) break
    dir = parent
  }
  const global = readIfPresent(join(globalDir, 'AGENTS.md')) ?? readIfPresent(join(globalDir, 'CLAUDE.md'))
  if (global) found.push(global)
  return found
}
