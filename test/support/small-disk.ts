import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Why a real small disk cannot be made here, or null when it can (root: `mount -t tmpfs` is allowed). */
export function smallDiskUnavailable(): string | null {
  if (process.platform !== 'linux') return 'tmpfs mounts are Linux only'
  if (process.getuid?.() !== 0) return 'mounting a size-limited tmpfs needs root'
  return null
}

/** Mounts a tmpfs of `size` (e.g. `2m`) on `dir` (created); returns the unmount. */
export function mountSmallDisk(dir: string, size: string): () => void {
  mkdirSync(dir, { recursive: true })
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' })
  if (mounted.status !== 0) throw new Error(`mount tmpfs on ${dir} failed: ${mounted.stderr}`)
  return () => {
    const done = spawnSync('umount', ['-l', dir], { encoding: 'utf8' })
    if (done.status !== 0) throw new Error(`umount ${dir} failed: ${done.stderr}`)
  }
}

/** Fills the filesystem holding `dir` to the last byte with one file: the next write fails with ENOSPC. */
export function fillDisk(dir: string): void {
  spawnSync('dd', ['if=/dev/zero', `of=${join(dir, '.filler')}`, 'bs=64k'], { encoding: 'utf8' })
  // dd stops at the first ENOSPC; what is left is less than a block, taken byte by byte.
  try {
    for (;;) writeFileSync(join(dir, '.filler'), Buffer.alloc(512), { flag: 'a' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
  }
}
