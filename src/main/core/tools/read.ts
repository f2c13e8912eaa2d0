import { readdirSync, statSync, type Stats } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { openRegularFile, readRegularHead, specialKind } from '../util/regular-file'
import { basename, dirname, extname } from 'node:path'
import { z } from 'zod'
import { Permission } from '../permission/names'
import { ToolError } from './errors'
import { resolveForTool } from './fs/access'
import { looksBinary } from './fs/text'
import { imageDimensions, sniffImageType } from '../images'
import description from './read.txt?raw'
import { defineTool, type ToolContext } from './tool'

export const READ_DEFAULT_LIMIT = 2000
export const READ_MAX_LINE_CHARS = 2000
export const READ_MAX_BYTES = 50 * 1024
/** Larger files must be searched or paged with bash tools; reading them whole would stall the session. */
export const READ_MAX_FILE_BYTES = 256 * 1024 * 1024
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
}

const BINARY_EXTENSIONS = new Set([
  '.zip', '.gz', '.tgz', '.bz2', '.xz', '.7z', '.rar', '.tar', '.jar', '.war', '.class', '.exe', '.dll', '.so',
  '.dylib', '.o', '.a', '.lib', '.wasm', '.pyc', '.pdf', '.doc', '.docx', '.xls', '.xlsx', '.ppt', '.pptx', '.ico',
  '.bmp', '.tiff', '.mp3', '.mp4', '.mov', '.avi', '.mkv', '.woff', '.woff2', '.ttf', '.otf', '.eot', '.sqlite', '.db',
])

const parameters = z.object({
  filePath: z.string().describe('Path relative to the project root, or absolute'),
  offset: z.number().int().min(1).optional().describe('1-based line number to start from'),
  limit: z.number().int().min(1).optional().describe(`Number of lines to read (default ${READ_DEFAULT_LIMIT})`),
})

function statOrNull(abs: string): Stats | null {
  try {
    return statSync(abs)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    throw error
  }
}

function suggestions(abs: string): string[] {
  const dir = dirname(abs)
  const name = basename(abs).toLowerCase()
  let entries: string[]
  try {
    entries = readdirSync(dir)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return []
    throw error
  }
  const stem = name.replace(/\.[^.]*$/, '')
  return entries.filter((e) => e.toLowerCase().includes(stem) || stem.includes(e.toLowerCase().replace(/\.[^.]*$/, ''))).slice(0, 5)
}


async function askRead(ctx: ToolContext, pattern: string): Promise<void> {
  await ctx.ask({ permission: Permission.Read, patterns: [pattern], always: [pattern], title: `Read ${pattern}`, metadata: { path: pattern } })
}

export const readTool = defineTool({
  id: 'read',
  mutatesFiles: false,
  description,
  parameters,
  async execute(args, ctx) {
    const resolved = await resolveForTool(ctx, args.filePath, { readOutputs: true })
    const shown = resolved.rel
    const stats = statOrNull(resolved.abs)
    if (!stats) {
      const near = suggestions(resolved.abs)
      const hint = near.length > 0 ? ` Did you mean: ${near.map((n) => `${dirname(shown) === '.' ? '' : `${dirname(shown)}/`}${n}`).join(', ')}?` : ''
      throw new ToolError(`File not found: ${shown}.${hint}`)
    }
    if (stats.isDirectory()) {
      const entries = readdirSync(resolved.abs).slice(0, 50)
      throw new ToolError(`${shown} is a directory, not a file. Use the list tool to see its contents. It holds: ${entries.join(', ')}`)
    }
    const special = specialKind(stats)
    // A FIFO or device would block the read (and the session) or never end: refused before it is opened.
    if (special) throw new ToolError(`${shown} is ${special}, not a regular file; it is not read.`)
    await askRead(ctx, shown)
    const ext = extname(resolved.abs).toLowerCase()
    const head = (await readRegularHead(resolved.abs, shown, 8000)).buffer
    // The bytes say what a file is, not its name: a screenshot saved without an extension is still an image.
    const mediaType = sniffImageType(head)
    if (!mediaType && IMAGE_TYPES[ext]) throw new ToolError(`${shown} is named like an image but is not a PNG, JPEG, GIF or WebP file.`)
    if (mediaType) {
      if (stats.size > IMAGE_MAX_BYTES) throw new ToolError(`${shown} is an image of ${stats.size} bytes; images over ${IMAGE_MAX_BYTES} bytes are not read.`)
      const bytes = (await readRegularHead(resolved.abs, shown, IMAGE_MAX_BYTES)).buffer
      const size = imageDimensions(bytes, mediaType)
      ctx.fileTimes.recordRead(resolved.abs)
      return {
        title: shown,
        output: `Image ${shown} (${mediaType}${size ? `, ${size.width}×${size.height} px` : ''}, ${stats.size} bytes) is attached.`,
        metadata: { filePath: resolved.abs, image: true, size: stats.size },
        attachments: [{ type: 'image' as const, mediaType, data: bytes.toString('base64'), filename: basename(resolved.abs) }],
      }
    }
    if (BINARY_EXTENSIONS.has(ext) || looksBinary(head)) {
      throw new ToolError(`${shown} is a binary file (${stats.size} bytes) and cannot be read as text.`)
    }
    if (stats.size > READ_MAX_FILE_BYTES) {
      throw new ToolError(`${shown} is ${stats.size} bytes, too large to read. Use grep, or bash with head/tail/sed -n, to look at parts of it.`)
    }
    // Streamed: only the lines shown are kept, so a file of hundreds of MB costs a chunk of memory, not its size.
    const { handle } = await openRegularFile(resolved.abs, shown)
    let formatted: { output: string; metadata: Record<string, unknown> }
    try {
      formatted = await formatLinesOf(handle, args.offset ?? 1, args.limit ?? READ_DEFAULT_LIMIT, resolved.abs, ctx.signal)
    } finally {
      await handle.close()
    }
    ctx.fileTimes.recordRead(resolved.abs)
    return { title: shown, ...formatted }
  },
})

/** `formatLines` over a file read in chunks: the same output, with memory bounded by the lines shown. */
export async function formatLinesOf(
  handle: FileHandle,
  offset: number,
  limit: number,
  filePath: string,
  signal?: AbortSignal,
): Promise<{ output: string; metadata: Record<string, unknown> }> {
  const out: string[] = []
  let bytes = 0
  let last = offset - 1
  let full = false
  let index = 0
  // The current line, kept only as far as it can be shown.
  let line = ''
  let lineLong = false
  let sawAny = false
  const take = (text: string): void => {
    if (index < offset - 1 || index >= offset - 1 + limit || full) return
    let shown = text.replace(/\r$/, '')
    if (shown.length > READ_MAX_LINE_CHARS || lineLong) shown = `${shown.slice(0, READ_MAX_LINE_CHARS)}… [line cut at ${READ_MAX_LINE_CHARS} characters]`
    const rendered = `${String(index + 1).padStart(6)}\t${shown}`
    const size = Buffer.byteLength(rendered, 'utf8') + 1
    if (bytes + size > READ_MAX_BYTES && out.length > 0) {
      full = true
      return
    }
    out.push(rendered)
    bytes += size
    last = index + 1
  }
  const append = (piece: string): void => {
    if (lineLong) return
    line += piece
    if (line.length > READ_MAX_LINE_CHARS + 1) {
      line = line.slice(0, READ_MAX_LINE_CHARS + 1)
      lineLong = true
    }
  }
  for await (const chunk of handle.createReadStream({ encoding: 'utf8', highWaterMark: 256 * 1024, autoClose: false, start: 0 })) {
    signal?.throwIfAborted()
    const text = chunk as string
    if (text.length > 0) sawAny = true
    let from = 0
    for (let nl = text.indexOf('\n', from); nl >= 0; nl = text.indexOf('\n', from)) {
      append(text.slice(from, nl))
      take(line)
      index++
      line = ''
      lineLong = false
      from = nl + 1
    }
    append(text.slice(from))
  }
  if (!sawAny) return { output: '(The file is empty.)', metadata: { filePath, lines: 0 } }
  if (line !== '' || lineLong) {
    take(line)
    index++
  }
  const total = index
  if (offset > total) throw new ToolError(`offset ${offset} is past the end of the file, which has ${total} lines.`)
  let output = out.join('\n')
  if (last < total) output += `\n\n(Showing lines ${offset}-${last} of ${total}. Use offset=${last + 1} to read more.)`
  else if (offset > 1) output += `\n\n(End of file: ${total} lines.)`
  return { output, metadata: { filePath, lines: total, from: offset, to: last, more: last < total } }
}

/** Numbered lines from `offset`, within the line, line-length and byte limits, with a note on how to go on. */
export function formatLines(text: string, offset: number, limit: number, filePath: string): { output: string; metadata: Record<string, unknown> } {
  if (text === '') return { output: '(The file is empty.)', metadata: { filePath, lines: 0 } }
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  const total = lines.length
  if (offset > total) {
    throw new ToolError(`offset ${offset} is past the end of the file, which has ${total} lines.`)
  }
  const out: string[] = []
  let bytes = 0
  let last = offset - 1
  for (let i = offset - 1; i < Math.min(total, offset - 1 + limit); i++) {
    let line = (lines[i] as string).replace(/\r$/, '')
    if (line.length > READ_MAX_LINE_CHARS) line = `${line.slice(0, READ_MAX_LINE_CHARS)}… [line cut at ${READ_MAX_LINE_CHARS} characters]`
    const rendered = `${String(i + 1).padStart(6)}\t${line}`
    const size = Buffer.byteLength(rendered, 'utf8') + 1
    if (bytes + size > READ_MAX_BYTES && out.length > 0) break
    out.push(rendered)
    bytes += size
    last = i + 1
  }
  let output = out.join('\n')
  if (last < total) output += `\n\n(Showing lines ${offset}-${last} of ${total}. Use offset=${last + 1} to read more.)`
  else if (offset > 1) output += `\n\n(End of file: ${total} lines.)`
  return { output, metadata: { filePath, lines: total, from: offset, to: last, more: last < total } }
}
