import { closeSync, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import type { SavedOutput } from '../tool'

/** Output up to this size stays in memory only; past it, all of it goes to a file as it arrives. */
export const SPOOL_AFTER_BYTES = 50 * 1024
/** The saved copy stops here: a command writing without end must not fill the user's disk. */
export const MAX_SAVED_BYTES = 1024 * 1024 * 1024

function safeFileName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120) || 'output'
}

function countLines(chunk: Buffer): number {
  let lines = 0
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++
  return lines
}

/**
 * Every byte a command writes (stdout and stderr, in the order they arrive), counted and, once there
 * is more than the model can be shown, saved whole to `<outputDir>/<callId>.txt` while it streams.
 * Memory holds only the first `SPOOL_AFTER_BYTES` until then. A copy that could not be written to
 * the end (a full disk, the size cap) says so and why: the model is never told "full output" of a part.
 */
export class OutputSpool {
  private bytes = 0
  private newlines = 0
  private lastByte = -1
  private head: Buffer[] = []
  private fd: number | undefined
  private saved = 0
  private failure: string | undefined
  readonly path: string

  constructor(
    private readonly outputDir: string,
    callId: string,
    private readonly maxSavedBytes = MAX_SAVED_BYTES,
  ) {
    this.path = join(outputDir, `${safeFileName(callId)}.txt`)
  }

  write(chunk: Buffer): void {
    if (chunk.length === 0) return
    this.bytes += chunk.length
    this.newlines += countLines(chunk)
    this.lastByte = chunk[chunk.length - 1] as number
    if (this.failure !== undefined) return
    if (this.fd === undefined) {
      this.head.push(chunk)
      if (this.bytes <= SPOOL_AFTER_BYTES) return
      const pending = Buffer.concat(this.head)
      this.head = []
      if (!this.open()) return
      this.save(pending)
      return
    }
    this.save(chunk)
  }

  private open(): boolean {
    try {
      mkdirSync(this.outputDir, { recursive: true })
      this.fd = openSync(this.path, 'w', 0o600)
      return true
    } catch (error) {
      this.fail(describe(error))
      return false
    }
  }

  private save(chunk: Buffer): void {
    const room = this.maxSavedBytes - this.saved
    const part = room < chunk.length ? chunk.subarray(0, Math.max(0, room)) : chunk
    try {
      for (let at = 0; at < part.length; ) at += writeSync(this.fd as number, part, at, part.length - at)
      this.saved += part.length
    } catch (error) {
      // A write cut short by ENOSPC may have kept part of the chunk: the file's size is the truth.
      this.saved = fstatSync(this.fd as number).size
      this.fail(describe(error))
      return
    }
    if (part.length < chunk.length) this.fail(`the copy stops at the ${Math.round(this.maxSavedBytes / (1024 * 1024))} MiB limit`)
  }

  private fail(reason: string): void {
    this.failure = reason
    this.close()
  }

  private close(): void {
    if (this.fd === undefined) return
    try {
      closeSync(this.fd)
    } finally {
      this.fd = undefined
    }
  }

  /** The command ended: the facts of what it wrote and of the copy, or undefined when it all fitted in memory. */
  finish(): SavedOutput | undefined {
    this.close()
    if (this.bytes <= SPOOL_AFTER_BYTES) return undefined
    const lines = this.newlines + (this.lastByte === 10 ? 0 : 1)
    return {
      path: this.path,
      bytes: this.bytes,
      lines,
      savedBytes: this.saved,
      complete: this.failure === undefined && this.saved === this.bytes,
      ...(this.failure !== undefined ? { reason: this.failure } : {}),
    }
  }
}

function describe(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException
  if (code === 'ENOSPC') return 'no space left on the disk holding it'
  if (code === 'EDQUOT') return 'the disk quota is used up'
  return code ? `${code}: ${message}` : message
}
