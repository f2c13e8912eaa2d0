import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join, normalize, sep } from 'node:path'
import { ErrorNames, HotaruError } from '@shared/errors'
import type { Config } from '../config'
import { DOT_HOTARU_DIR } from '../config'
import { resolveInside } from '../project/boundary'

/**
 * Project memory: one Markdown file of notes the agent keeps across sessions
 * (commands that work, conventions, pitfalls). It is read into every system
 * prompt and changed through the `memory` tool or by the user in the UI.
 */

export const DEFAULT_MEMORY_FILE = `${DOT_HOTARU_DIR}/memory.md`
/** Writes that would make the file larger are refused: it is sent with every request. */
export const MAX_MEMORY_BYTES = 32 * 1024
/** At most this much of it goes into the system prompt (a hand-edited file may be longer). */
export const MEMORY_PROMPT_CHARS = 16_000

export type MemoryConfig = Pick<Config, 'memory'>

export interface MemoryFile {
  /** Project-relative, as configured. */
  path: string
  absolutePath: string
  content: string
  exists: boolean
}

export type MemoryChange = { content: string } | { append: string }

/** The configured memory file, relative to the project root. */
export function memoryFilePath(config: MemoryConfig): string {
  return normalize(config.memory?.file ?? DEFAULT_MEMORY_FILE).split(sep).join('/')
}

function locate(root: string, config: MemoryConfig): { path: string; absolutePath: string } {
  const path = memoryFilePath(config)
  // Throws OutsideWorkspace for absolute paths, `..` and symlinks leading out of the project.
  return { path, absolutePath: resolveInside(root, path) }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT'
}

export async function readMemory(root: string, config: MemoryConfig): Promise<MemoryFile> {
  const { path, absolutePath } = locate(root, config)
  try {
    return { path, absolutePath, content: await readFile(absolutePath, 'utf8'), exists: true }
  } catch (error) {
    if (isMissing(error)) return { path, absolutePath, content: '', exists: false }
    throw error
  }
}

function appended(current: string, text: string): string {
  const addition = text.endsWith('\n') ? text : `${text}\n`
  if (current.length === 0) return addition
  return current.endsWith('\n') ? current + addition : `${current}\n${addition}`
}

/** Replaces the memory (`content`) or adds to its end (`append`); written atomically. */
export async function updateMemory(root: string, config: MemoryConfig, change: MemoryChange): Promise<MemoryFile> {
  const current = await readMemory(root, config)
  const content = 'append' in change ? appended(current.content, change.append) : change.content
  const bytes = Buffer.byteLength(content, 'utf8')
  if (bytes > MAX_MEMORY_BYTES) {
    throw new HotaruError(ErrorNames.InvalidPayload, {
      message: `the memory would be ${bytes} bytes; the limit is ${MAX_MEMORY_BYTES}. Condense it and write it whole.`,
      path: current.path,
    })
  }
  await mkdir(dirname(current.absolutePath), { recursive: true })
  // A reader (the next system prompt, the UI) never sees a half-written file.
  const temp = `${current.absolutePath}.${randomBytes(6).toString('hex')}.tmp`
  try {
    await writeFile(temp, content, 'utf8')
    await rename(temp, current.absolutePath)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
  return { ...current, content, exists: true }
}

/** Root instruction files already put into the prompt by the instruction loader. */
function alreadyInstructions(root: string, path: string): boolean {
  if (path === 'AGENTS.md') return true
  if (path !== 'CLAUDE.md') return false
  // The loader reads CLAUDE.md only where there is no AGENTS.md.
  return !existsSync(join(root, 'AGENTS.md'))
}

/**
 * The memory as a system prompt block, or undefined when there is none. A memory
 * kept in the root AGENTS.md is already in the prompt as instructions, so the
 * block then only says where it lives. Synchronous because prompts are built so.
 */
export function memoryBlock(root: string, config: MemoryConfig): string | undefined {
  const { path, absolutePath } = locate(root, config)
  let content: string
  try {
    content = readFileSync(absolutePath, 'utf8')
  } catch (error) {
    if (isMissing(error)) return undefined
    throw error
  }
  if (content.trim().length === 0) return undefined
  if (alreadyInstructions(root, path)) {
    return `Project memory is kept in ${path} (its content is among the instructions above); update it with the memory tool.`
  }
  const body =
    content.length > MEMORY_PROMPT_CHARS
      ? `${content.slice(0, MEMORY_PROMPT_CHARS)}\n…(cut here; read the whole file with the memory tool)`
      : content.trimEnd()
  return [
    `<project-memory file="${path}">`,
    'Notes kept for this project across sessions (by you and the user, through the memory tool). Treat them as hints and check them against the code when it matters.',
    '',
    body,
    '</project-memory>',
  ].join('\n')
}
