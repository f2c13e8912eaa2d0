import { randomBytes } from 'node:crypto'

let lastMs = 0
let counter = 0
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/**
 * `prefix_` + time + counter + randomness: ids sort in creation order (within a
 * process), so messages and parts can be ordered by id alone.
 */
export function ascendingId(prefix: 'ses' | 'msg' | 'prt' | 'cp' | 'img'): string {
  const now = Date.now()
  if (now === lastMs) counter++
  else {
    lastMs = now
    counter = 0
  }
  const time = now.toString(16).padStart(12, '0')
  const seq = counter.toString(16).padStart(4, '0')
  const random = [...randomBytes(10)].map((b) => ALPHABET[b % ALPHABET.length]).join('')
  return `${prefix}_${time}${seq}${random}`
}
