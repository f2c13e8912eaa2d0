import { existsSync, renameSync } from 'node:fs'
import { stamp } from './storage-errors'

/**
 * Moves a damaged session database aside, with its -wal and -shm files, to `<file>.damaged-<timestamp>`:
 * the next open starts an empty one and the damaged file stays for recovery (`sqlite3 … .recover`). Only
 * ever called after the user agreed; nothing is deleted. Returns where the database went.
 */
export function moveDamagedAside(file: string): string {
  let target = `${file}.damaged-${stamp()}`
  for (let n = 2; existsSync(target); n++) target = `${file}.damaged-${stamp()}-${n}`
  // The sidecars first: a database moved without its log would open as an older state.
  for (const suffix of ['-wal', '-shm']) if (existsSync(`${file}${suffix}`)) renameSync(`${file}${suffix}`, `${target}${suffix}`)
  renameSync(file, target)
  return target
}
