import { appendFileSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, constants as zlib } from 'node:zlib'
import { writeFileAtomic } from './atomic-file'
import { errnoCode } from './errors'
import { isHash } from './object-store'
import type { IndexRecord, TreeState } from './tree-state'
import type { ManifestEntry } from './types'

const FORMAT_VERSION = 1
const BASE_FILE = 'index.v1.json.br'
const LOG_FILE = 'index.v1.log'
/** The log is folded into the base once it holds this many lines, or half the records if more. */
const MIN_COMPACT_LINES = 4096

type EncodedRecord = [path: string, type: string, ref: string, size: number, mtimeNs: string, ctimeNs: string, ino: string, mode: number]

/**
 * Persists the stat index so a restart does not rehash the tree. It is a cache of facts
 * ("a file with this stat signature had this content hash"), so losing it only costs
 * time: a torn or unreadable index is reported and discarded. A compressed base file is
 * rewritten rarely; each snapshot appends only its changed records to a log, which keeps
 * a one-file checkpoint from rewriting an index of 30k entries.
 */
export class StatIndexFile {
  /** The files an index consists of, in its folder. */
  static readonly files: readonly string[] = [BASE_FILE, LOG_FILE]

  /** Lines in the log on disk; -1 when the base is missing or unusable, so the next save rewrites it. */
  private logLines = -1

  constructor(private readonly storeDir: string) {}

  /** Loads records into `state`; returns false (state untouched) if there is no usable index for `epoch`. */
  load(state: TreeState, epoch: string): boolean {
    let base: Buffer
    try {
      base = readFileSync(join(this.storeDir, BASE_FILE))
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return false
      throw error
    }
    let records: Map<string, IndexRecord> | null
    try {
      records = this.parse(base, epoch)
    } catch (error) {
      console.warn(`[snapshot] discarding unreadable stat index in ${this.storeDir}: ${(error as Error).message}`)
      records = null
    }
    if (!records) {
      this.logLines = -1 // forces the next save to rewrite the base
      return false
    }
    for (const [path, record] of records) state.set(path, record)
    state.takeChanges()
    return true
  }

  /** Null when the index predates the store's current epoch. */
  private parse(base: Buffer, epoch: string): Map<string, IndexRecord> | null {
    const parsed = JSON.parse(brotliDecompressSync(base).toString('utf8')) as { v?: unknown; epoch?: unknown; records?: unknown }
    if (parsed.v !== FORMAT_VERSION) throw new Error(`unsupported format ${String(parsed.v)}`)
    // Written before a garbage collection (maybe in another process): its hashes may be gone.
    if (parsed.epoch !== epoch) return null
    const records = new Map<string, IndexRecord>()
    if (!Array.isArray(parsed.records)) throw new Error('no record list')
    for (const item of parsed.records as unknown[]) {
      const [path, record] = decodeRecord(item)
      records.set(path, record)
    }
    let log = ''
    try {
      log = readFileSync(join(this.storeDir, LOG_FILE), 'utf8')
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw error
    }
    const lines = log.split('\n')
    this.logLines = 0
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]
      if (!line) continue
      let item: unknown
      try {
        item = JSON.parse(line)
      } catch (error) {
        // Only the last line can be torn by a crash mid-append; anything else is damage.
        if (i >= lines.length - 2) break
        throw error
      }
      if (Array.isArray(item) && item[0] === 'd' && typeof item[1] === 'string') records.delete(item[1])
      else {
        const [path, record] = decodeRecord(Array.isArray(item) ? item.slice(1) : item)
        records.set(path, record)
      }
      this.logLines++
    }
    return records
  }

  /** Records what changed in `state` since the last call: appends to the log, or compacts when it grew large. */
  save(state: TreeState, epoch: string): void {
    const changed = state.takeChanges()
    if (changed.length === 0) return
    if (this.logLines < 0 || this.logLines + changed.length > Math.max(MIN_COMPACT_LINES, state.size / 2)) {
      this.compact(state, epoch)
      return
    }
    let text = ''
    for (const path of changed) {
      const record = state.get(path)
      text += JSON.stringify(record ? ['s', ...encodeRecord(path, record)] : ['d', path]) + '\n'
    }
    appendFileSync(join(this.storeDir, LOG_FILE), text)
    this.logLines += changed.length
  }

  /**
   * When the index was last written or marked checked (ns, the latest mtime of its files; 0 when
   * there is none): a record within the racy window of that moment may have changed since without
   * its signature showing it, so a loaded index rereads it.
   */
  savedAtNs(): bigint {
    let latest = 0n
    for (const name of StatIndexFile.files) {
      try {
        const { mtimeNs } = statSync(join(this.storeDir, name), { bigint: true })
        if (mtimeNs > latest) latest = mtimeNs
      } catch (error) {
        if (errnoCode(error) !== 'ENOENT') throw error
      }
    }
    return latest
  }

  /**
   * Marks the index as checked against the files now, though no record changed: an index loaded
   * later rereads only what changed within the racy window of this moment, not of its last write.
   */
  touch(): void {
    appendFileSync(join(this.storeDir, LOG_FILE), '')
    const now = new Date()
    utimesSync(join(this.storeDir, LOG_FILE), now, now)
  }

  /** Rewrites the base from `state` and empties the log. */
  compact(state: TreeState, epoch: string): void {
    state.takeChanges()
    const records: EncodedRecord[] = []
    for (const [path, record] of state.records) records.push(encodeRecord(path, record))
    const json = JSON.stringify({ v: FORMAT_VERSION, epoch, records })
    const packed = brotliCompressSync(json, { params: { [zlib.BROTLI_PARAM_QUALITY]: 1 } })
    writeFileAtomic(join(this.storeDir, BASE_FILE), packed, true)
    // The base now holds everything; an empty log must not be replayed over it.
    writeFileSync(join(this.storeDir, LOG_FILE), '')
    this.logLines = 0
  }
}

function encodeRecord(path: string, record: IndexRecord): EncodedRecord {
  const { entry } = record
  const [type, ref] =
    entry.kind === 'file'
      ? [entry.exec ? 'x' : 'f', entry.hash]
      : entry.kind === 'symlink'
        ? ['l', entry.target]
        : ['u', entry.reason]
  return [path, type, ref, record.size, String(record.mtimeNs), String(record.ctimeNs), String(record.ino), record.mode]
}

function decodeRecord(item: unknown): [string, IndexRecord] {
  if (!Array.isArray(item) || item.length !== 8) throw new Error('malformed record')
  const [path, type, ref, size, mtimeNs, ctimeNs, ino, mode] = item as unknown[]
  if (
    typeof path !== 'string' ||
    typeof type !== 'string' ||
    typeof ref !== 'string' ||
    typeof size !== 'number' ||
    typeof mtimeNs !== 'string' ||
    typeof ctimeNs !== 'string' ||
    typeof ino !== 'string' ||
    typeof mode !== 'number'
  ) {
    throw new Error('malformed record')
  }
  let entry: ManifestEntry
  if ((type === 'f' || type === 'x') && isHash(ref)) entry = { kind: 'file', hash: ref, size, exec: type === 'x' }
  else if (type === 'l') entry = { kind: 'symlink', target: ref, size }
  else if (type === 'u' && (ref === 'too-large' || ref === 'unreadable')) entry = { kind: 'untracked', reason: ref, size }
  else throw new Error(`malformed record for ${path}`)
  return [path, { entry, size, mtimeNs: BigInt(mtimeNs), ctimeNs: BigInt(ctimeNs), ino: BigInt(ino), mode }]
}
