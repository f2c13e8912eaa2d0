import { createServer } from 'node:net'
import { HotaruError } from '@shared/errors'
import type { PortBlock } from '@shared/schema/worktree'

/** Every worktree gets this many consecutive TCP ports (a dev server, its API, a debugger…). */
export const PORT_BLOCK_SIZE = 10

/**
 * First ports of the blocks handed out: aligned to the block size, so two blocks are either the
 * same or disjoint. Above the usual dev ports and below every OS's ephemeral range (Linux hands out
 * 32768 up, BSD, macOS and Windows 49152 up, for `listen(0)` and outgoing connections): no other
 * program's bind-to-any or connection takes a port of the block between the check and the server.
 */
export const PORT_RANGE = { from: 20000, to: 29990 }

/** Where a main tree's preview port is taken from: past the worktrees' blocks, below the ephemeral ports. */
export const MAIN_PORT_RANGE = { from: 30000, to: 32767 }

export function portBlock(first: number): PortBlock {
  return { first, last: first + PORT_BLOCK_SIZE - 1 }
}

/** Whether something could listen on `port` of 127.0.0.1 right now (it is bound for a moment and let go). */
export function canListen(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') resolve(false)
      else reject(error)
    })
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      server.close(() => resolve(true))
    })
  })
}

/**
 * The first port of a block none of whose ports is in use now and whose first is not in `taken`
 * (the blocks other worktrees hold). Blocks are tried in order from `range.from`.
 */
export async function findFreeBlock(taken: Iterable<number>, range: { from: number; to: number } = PORT_RANGE): Promise<number> {
  const held = new Set(taken)
  for (let first = range.from; first <= range.to; first += PORT_BLOCK_SIZE) {
    if (held.has(first)) continue
    const ports = Array.from({ length: PORT_BLOCK_SIZE }, (_, i) => first + i)
    const free = await Promise.all(ports.map(canListen))
    if (free.every(Boolean)) return first
  }
  throw new HotaruError('WorktreeNoPorts', { message: `no free block of ${PORT_BLOCK_SIZE} ports between ${range.from} and ${range.to + PORT_BLOCK_SIZE - 1}` })
}

/**
 * A port of `range` that could be listened on now (undefined when none), tried from a random one up,
 * wrapping round, so two processes looking at the same moment rarely try the same ports.
 */
export async function findFreePort(range: { from: number; to: number } = MAIN_PORT_RANGE): Promise<number | undefined> {
  const size = range.to - range.from + 1
  const offset = Math.floor(Math.random() * size)
  for (let i = 0; i < size; i++) {
    const port = range.from + ((offset + i) % size)
    if (await canListen(port)) return port
  }
  return undefined
}
