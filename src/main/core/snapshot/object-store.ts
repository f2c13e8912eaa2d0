import { createHash } from 'node:crypto'
import {
  closeSync,
  existsSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  unlinkSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, constants as zlib } from 'node:zlib'
import { fsyncDir, writeFileAtomic } from './atomic-file'
import { errnoCode, SnapshotErrorNames, snapshotError } from './errors'
import { isDeferredPack, newPackName, PACK_SUFFIX, readPackIndex, writePack } from './pack-file'

/** First byte of a stored object: how its payload is encoded. */
const RAW = 0
const BROTLI = 1
/** The encoding bytes, for readers outside this class (the file writers read packs themselves). */
export const OBJECT_ENCODING = { raw: RAW, brotli: BROTLI } as const

/** Below this, compression saves less than a disk block and only costs time. */
const MIN_COMPRESS_BYTES = 512
/** A batch with fewer new objects than this is written loose: a pack is worth it for bulk writes. */
const MIN_PACK_OBJECTS = 32
/** Objects this large are always loose, so packs stay small enough to rewrite during collection. */
const MAX_PACKED_OBJECT_BYTES = 1024 * 1024
/** A batch is flushed to a pack once its buffered objects reach this size. */
export const MAX_PACK_BYTES = 64 * 1024 * 1024
/** Leftover temp files older than this belong to a crashed writer and can go. */
const STALE_TEMP_MS = 60 * 60 * 1000

const HASH_RE = /^[0-9a-f]{64}$/
/** A fanout folder of loose objects: the first two hex digits of their hashes. */
const FANOUT_RE = /^[0-9a-f]{2}$/

export function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex')
}

export function isHash(value: string): boolean {
  return HASH_RE.test(value)
}

export interface StoredObject {
  hash: string
  bytes: number
}

export interface SweepResult {
  removed: number
  bytesFreed: number
  kept: StoredObject[]
}

interface PackLocation {
  pack: string
  offset: number
  length: number
}

/** A raw pack being compressed a slice at a time: its objects in pack order and those done so far. */
interface CompressionJob {
  pack: string
  /** The pack's size when the job began: a pack rewritten or removed since (another process) ends the job. */
  size: number
  objects: Array<[hash: string, location: PackLocation]>
  done: Array<[hash: string, stored: Buffer]>
}

/**
 * Content-addressed objects, keyed by the sha256 of their raw content. Each object is
 * stored either loose (`<dir>/<2 hex>/<62 hex>`, one file) or in a pack (`<dir>/packs/*.pack`,
 * many objects plus an index). Creating files dominated a first snapshot here (~0.2 ms per
 * create on this kind of disk, more than compressing the file), so bulk writes (a batch of at
 * least 32 new objects) go into one pack, small increments stay loose.
 *
 * Objects are brotli (quality 1: the fastest codec with a good ratio on source trees here,
 * faster than the deflate level 1 git uses) unless that does not shrink them. A bulk write
 * (a pack) defers that: its objects are stored as they are, in a pack marked `.raw`, and
 * `compressDeferredPack()` rewrites it compressed later, when the store is idle (compression
 * was a third of a first snapshot's CPU time). Every file is written atomically (temp +
 * rename), so a crash leaves either nothing or a whole file; reads verify the hash, so damage
 * is reported, never used.
 */
export class ObjectStore {
  private readonly fanouts = new Set<string>()
  private packed = new Map<string, PackLocation>()
  private packSizes = new Map<string, number>()
  private packsLoaded = false
  /** Raw content of objects buffered for a bulk write (see `beginBatch`). */
  private batch: Map<string, Uint8Array> | null = null
  /** The loose objects' fanout folders (`ab`) as the current batch found them; see `has`. */
  private batchFanouts: Set<string> | null = null
  private batchBytes = 0
  private compressing: CompressionJob | null = null

  constructor(readonly dir: string) {}

  private get packDir(): string {
    return join(this.dir, 'packs')
  }

  private loosePath(hash: string): string {
    return join(this.dir, hash.slice(0, 2), hash.slice(2))
  }

  has(hash: string): boolean {
    this.loadPacks()
    if (this.batch?.has(hash) === true || this.packed.has(hash)) return true
    // A batch (a walk storing thousands of new objects) lists the fanout folders once instead of
    // failing a stat per object: a loose object can only be in one that exists. One another process
    // creates meanwhile is missed, which only stores that object a second time, in our pack.
    if (this.batch && !this.fanoutsOfBatch().has(hash.slice(0, 2))) return false
    return existsSync(this.loosePath(hash))
  }

  /** Buffers new objects until `flush()`, so a bulk write can become one pack. */
  beginBatch(): void {
    this.batch ??= new Map()
  }

  private fanoutsOfBatch(): Set<string> {
    if (!this.batchFanouts) {
      let names: string[] = []
      try {
        names = readdirSync(this.dir)
      } catch (error) {
        if (errnoCode(error) !== 'ENOENT') throw error
      }
      this.batchFanouts = new Set(names.filter((name) => FANOUT_RE.test(name)))
    }
    return this.batchFanouts
  }

  /**
   * Writes the buffered objects (a pack, or loose files for a few) and ends the batch. Returns
   * how the stored bytes differ from what `put` reported (loose objects are compressed now).
   */
  flush(): number {
    const batch = this.batch
    this.batch = null
    this.batchFanouts = null
    this.batchBytes = 0
    if (!batch || batch.size === 0) return 0
    if (batch.size < MIN_PACK_OBJECTS) {
      let delta = 0
      for (const [hash, raw] of batch) {
        const encoded = encode(raw)
        this.writeLoose(hash, encoded)
        delta += encoded.length - (raw.length + 1)
      }
      return delta
    }
    // Stored as they are: the encoding byte, then the content, without joining them first.
    const rawByte = Buffer.of(RAW)
    this.writePackOf([...batch].map(([hash, raw]): [string, Uint8Array[]] => [hash, [rawByte, raw]]), true)
    return 0
  }

  /** Packs still marked `.raw`, as far as this process knows. */
  deferredPacks(): number {
    this.loadPacks()
    return [...this.packSizes.keys()].filter(isDeferredPack).length
  }

  /**
   * Rewrites the oldest pack still marked `.raw` with its objects compressed, then deletes it.
   * Objects another pack already holds are left out, so a rewrite cut short (a crash, a worker
   * ended at exit) is finished by the next call without duplicates. Null when none is left;
   * otherwise `remaining` counts the deferred packs left (the one in progress included) and
   * `bytesDelta` the change in stored bytes.
   *
   * `maxBytes` bounds the raw bytes compressed by one call: the rest of the pack waits in memory for
   * the next calls, so a caller serving requests in between never holds one up for a whole pack
   * (64 MB, seconds of brotli). The new pack is written when the last slice is done.
   */
  compressDeferredPack(maxBytes = Number.POSITIVE_INFINITY): { remaining: number; bytesDelta: number } | null {
    this.reloadPacks()
    const deferred = [...this.packSizes.keys()].filter(isDeferredPack).sort()
    let job = this.compressing
    if (job && this.packSizes.get(job.pack) !== job.size) job = null
    if (!job) {
      const pack = deferred[0]
      this.compressing = null
      if (pack === undefined) return null
      job = { pack, size: this.packSizes.get(pack) ?? 0, objects: [...this.packed].filter(([, location]) => location.pack === pack), done: [] }
      this.compressing = job
    }
    for (let bytes = 0; job.done.length < job.objects.length && bytes < maxBytes; ) {
      const [hash, location] = job.objects[job.done.length] as [string, PackLocation]
      const stored = this.readPacked(location)
      job.done.push([hash, stored[0] === RAW ? encode(stored.subarray(1)) : stored])
      bytes += location.length
    }
    if (job.done.length < job.objects.length) return { remaining: deferred.length, bytesDelta: 0 }
    this.compressing = null
    const written = job.done.length > 0 ? this.writePackOf(job.done) : 0
    unlinkSync(join(this.packDir, job.pack))
    this.packSizes.delete(job.pack)
    return { remaining: deferred.length - 1, bytesDelta: written - job.size }
  }

  /** Drops buffered objects (the snapshot that produced them failed); returns their hashes. */
  discardBatch(): Set<string> {
    const dropped = new Set(this.batch?.keys() ?? [])
    this.batch = null
    this.batchFanouts = null
    this.batchBytes = 0
    return dropped
  }

  /** Stores `raw` under `hash` (which the caller computed) unless present; returns the stored size (0 if deduplicated). */
  put(hash: string, raw: Uint8Array): number {
    if (this.has(hash)) return 0
    if (this.batch && raw.length < MAX_PACKED_OBJECT_BYTES) {
      // Kept as is (the caller hands over its buffer): compressed at flush if it ends up loose, later if it goes into a pack.
      this.batch.set(hash, raw)
      this.batchBytes += raw.length + 1
      if (this.batchBytes >= MAX_PACK_BYTES) {
        // A full batch always becomes a pack (stored as reported): nothing to correct.
        this.flush()
        this.beginBatch()
      }
      return raw.length + 1
    }
    const encoded = encode(raw)
    this.writeLoose(hash, encoded)
    return encoded.length
  }

  get(hash: string): Buffer {
    const stored = this.readStored(hash)
    const raw = decode(hash, stored)
    if (sha256(raw) !== hash) {
      throw snapshotError(SnapshotErrorNames.Corrupt, `object ${hash} in ${this.dir} does not match its hash`, { hash })
    }
    return raw
  }

  /**
   * Where a packed object's stored bytes sit (absolute pack path, offset, length), for a reader
   * that reads and verifies them itself (`writeNewFiles`); null for a loose or still buffered one.
   */
  locate(hash: string): { pack: string; offset: number; length: number } | null {
    if (this.batch?.has(hash)) return null
    this.loadPacks()
    const location = this.packed.get(hash)
    return location ? { pack: join(this.packDir, location.pack), offset: location.offset, length: location.length } : null
  }

  /** Every stored object with its stored size (a packed object counts its share of the pack). */
  list(): StoredObject[] {
    this.reloadPacks()
    const out: StoredObject[] = []
    for (const [hash, location] of this.packed) out.push({ hash, bytes: location.length })
    for (const object of this.listLoose()) if (!this.packed.has(object.hash)) out.push(object)
    return out
  }

  /** Bytes on disk: loose files plus whole packs (index included). */
  diskBytes(): number {
    this.reloadPacks()
    let total = 0
    for (const size of this.packSizes.values()) total += size
    for (const object of this.listLoose()) total += object.bytes
    return total
  }

  /**
   * Deletes every object not in `live`. Loose objects are deleted in place. A pack with no
   * live object is deleted; a pack that is at least a quarter garbage is rewritten with its
   * live objects first (new pack renamed in, then the old one deleted), so collection never
   * needs more extra disk than one pack (at most 64 MB), whatever the store size.
   */
  sweep(live: ReadonlySet<string>): SweepResult {
    this.reloadPacks()
    const gone = new Map<string, number>()
    for (const object of this.listLoose()) {
      if (live.has(object.hash)) continue
      unlinkSync(this.loosePath(object.hash))
      gone.set(object.hash, object.bytes)
    }
    const byPack = new Map<string, { hash: string; location: PackLocation }[]>()
    for (const [hash, location] of this.packed) {
      const list = byPack.get(location.pack) ?? []
      list.push({ hash, location })
      byPack.set(location.pack, list)
    }
    for (const [pack, entries] of byPack) {
      const alive = entries.filter((e) => live.has(e.hash))
      const deadBytes = entries.reduce((total, e) => total + (live.has(e.hash) ? 0 : e.location.length), 0)
      const size = this.packSizes.get(pack) ?? 0
      // Mostly live packs keep their garbage until it reaches a quarter of the pack.
      if (alive.length === entries.length || (alive.length > 0 && deadBytes * 4 < size)) continue
      if (alive.length > 0) this.writePackOf(alive.map((e): [string, Buffer] => [e.hash, this.readPacked(e.location)]), isDeferredPack(pack))
      unlinkSync(join(this.packDir, pack))
      for (const e of entries) if (!live.has(e.hash)) gone.set(e.hash, e.location.length)
    }
    this.reloadPacks()
    let bytesFreed = 0
    for (const bytes of gone.values()) bytesFreed += bytes
    return { removed: gone.size, bytesFreed, kept: this.list() }
  }

  /**
   * Makes the given objects durable, whichever process wrote them. Writes skip fsync (a first
   * snapshot would pay for thousands); this is called before a restore journal starts to depend
   * on them. Each file holding one of them (a pack holds many) is synced once, then each
   * directory it is in.
   */
  syncObjects(hashes: Iterable<string>): void {
    this.loadPacks()
    const files = new Set<string>()
    for (const hash of hashes) {
      const location = this.packed.get(hash)
      files.add(location ? join(this.packDir, location.pack) : this.loosePath(hash))
    }
    const dirs = new Set<string>()
    for (const path of files) {
      const fd = openSync(path, 'r')
      try {
        fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
      dirs.add(dirname(path))
    }
    for (const dir of dirs) fsyncDir(dir)
  }

  /** Forget what is known about packs (another process may have written or collected some). */
  reloadPacks(): void {
    this.packsLoaded = false
    this.loadPacks()
  }

  private loadPacks(): void {
    if (this.packsLoaded) return
    this.packsLoaded = true
    this.packed = new Map()
    this.packSizes = new Map()
    let names: string[]
    try {
      names = readdirSync(this.packDir)
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return
      throw error
    }
    const now = Date.now()
    for (const name of names.sort()) {
      const path = join(this.packDir, name)
      if (!name.endsWith(PACK_SUFFIX)) {
        if (name.endsWith('.tmp') && now - lstatSync(path).mtimeMs > STALE_TEMP_MS) unlinkSync(path)
        continue
      }
      let pack
      try {
        pack = readPackIndex(path)
      } catch (error) {
        // A damaged pack must not make the whole store unreadable: its objects read as missing.
        console.warn(`[snapshot] skipping unreadable pack ${path}: ${(error as Error).message}`)
        continue
      }
      const { size, entries } = pack
      this.packSizes.set(name, size)
      for (const entry of entries) this.packed.set(entry.hash, { pack: name, offset: entry.offset, length: entry.length })
    }
  }

  private writePackOf(objects: [string, Uint8Array | Uint8Array[]][], deferred = false): number {
    mkdirSync(this.packDir, { recursive: true })
    const name = newPackName(deferred)
    const { size, entries } = writePack(join(this.packDir, name), objects)
    this.packSizes.set(name, size)
    for (const entry of entries) this.packed.set(entry.hash, { pack: name, offset: entry.offset, length: entry.length })
    return size
  }

  private writeLoose(hash: string, encoded: Buffer): void {
    const fanout = join(this.dir, hash.slice(0, 2))
    if (!this.fanouts.has(fanout)) {
      mkdirSync(fanout, { recursive: true })
      this.fanouts.add(fanout)
    }
    this.batchFanouts?.add(hash.slice(0, 2))
    writeFileAtomic(this.loosePath(hash), encoded)
  }

  private readStored(hash: string): Buffer {
    const pending = this.batch?.get(hash)
    if (pending) return Buffer.concat([Buffer.of(RAW), pending])
    this.loadPacks()
    let location = this.packed.get(hash)
    if (location) {
      try {
        return this.readPacked(location)
      } catch (error) {
        // Another process rewrote that pack (compressed or collected it) since we looked.
        if (errnoCode(error) !== 'ENOENT') throw error
      }
    } else {
      try {
        return readFileSync(this.loosePath(hash))
      } catch (error) {
        if (errnoCode(error) !== 'ENOENT') throw error
      }
    }
    // Maybe in a pack another process wrote since we looked.
    this.reloadPacks()
    location = this.packed.get(hash)
    if (!location) throw snapshotError(SnapshotErrorNames.Corrupt, `object ${hash} is missing from ${this.dir}`, { hash })
    return this.readPacked(location)
  }

  private readPacked(location: PackLocation): Buffer {
    const fd = openSync(join(this.packDir, location.pack), 'r')
    try {
      const out = Buffer.allocUnsafe(location.length)
      let done = 0
      while (done < location.length) {
        const read = readSync(fd, out, done, location.length - done, location.offset + done)
        if (read === 0) throw snapshotError(SnapshotErrorNames.Corrupt, `pack ${location.pack} is truncated`)
        done += read
      }
      return out
    } finally {
      closeSync(fd)
    }
  }

  private listLoose(): StoredObject[] {
    const out: StoredObject[] = []
    let fanouts: string[]
    try {
      fanouts = readdirSync(this.dir)
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return out
      throw error
    }
    const now = Date.now()
    for (const fanout of fanouts) {
      if (fanout.length !== 2) continue
      const fanoutDir = join(this.dir, fanout)
      for (const name of readdirSync(fanoutDir)) {
        const stats = lstatSync(join(fanoutDir, name))
        if (name.endsWith('.tmp')) {
          if (now - stats.mtimeMs > STALE_TEMP_MS) unlinkSync(join(fanoutDir, name))
          continue
        }
        const hash = fanout + name
        if (isHash(hash)) out.push({ hash, bytes: stats.size })
      }
    }
    return out
  }
}

function encode(raw: Uint8Array): Buffer {
  if (raw.length >= MIN_COMPRESS_BYTES) {
    const packed = brotliCompressSync(raw, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 1, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length },
    })
    if (packed.length < raw.length - (raw.length >> 4)) return Buffer.concat([Buffer.of(BROTLI), packed])
  }
  return Buffer.concat([Buffer.of(RAW), raw])
}

function decode(hash: string, stored: Buffer): Buffer {
  const payload = stored.subarray(1)
  if (stored[0] === RAW) return payload
  if (stored[0] === BROTLI) {
    try {
      return brotliDecompressSync(payload)
    } catch (error) {
      throw snapshotError(SnapshotErrorNames.Corrupt, `object ${hash} cannot be decompressed`, { hash }, error)
    }
  }
  throw snapshotError(SnapshotErrorNames.Corrupt, `object ${hash} has an unknown encoding`, { hash })
}
