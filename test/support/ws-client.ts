import WebSocket from 'ws'
import { decodePtyFrame } from '../../src/shared/ipc/pty-frame'

export interface Frame {
  type: string
  [key: string]: unknown
}

/** A small promise-based client of the serve WebSocket protocol. */
export class WsClient {
  readonly frames: Frame[] = []
  private waiters: { test: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = []
  private nextId = 1
  closeCode: number | undefined

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => {
      const frame = isBinary ? terminalFrame(data as Buffer) : (JSON.parse(String(data)) as Frame)
      this.frames.push(frame)
      for (const waiter of [...this.waiters]) {
        if (waiter.test(frame)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1)
          waiter.resolve(frame)
        }
      }
    })
    socket.on('close', (code) => {
      this.closeCode = code
    })
  }

  static connect(url: string, headers: Record<string, string> = {}): Promise<WsClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers })
      const client = new WsClient(socket)
      socket.once('open', () => resolve(client))
      socket.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode })))
      socket.once('error', reject)
    })
  }

  next(test: (f: Frame) => boolean, timeoutMs = 5000): Promise<Frame> {
    const seen = this.frames.find(test)
    if (seen) return Promise.resolve(seen)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for a frame')), timeoutMs)
      this.waiters.push({ test, resolve: (f) => (clearTimeout(timer), resolve(f)) })
    })
  }

  async call(method: string, input?: unknown): Promise<{ ok: boolean; value?: unknown; error?: { name: string } }> {
    const id = this.nextId++
    this.socket.send(JSON.stringify({ id, method, input }))
    const frame = await this.next((f) => f.type === 'result' && f.id === id)
    return frame.result as { ok: boolean }
  }

  closed(): Promise<number> {
    if (this.closeCode !== undefined) return Promise.resolve(this.closeCode)
    return new Promise((resolve) => this.socket.once('close', (code) => resolve(code)))
  }

  close(): void {
    this.socket.close()
  }
}

/** A binary terminal-output frame, in the shape of the event it carries (`binary` marks it). */
function terminalFrame(data: Buffer): Frame {
  const { header, bytes } = decodePtyFrame(new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
  const { projectId, seq, id, offset, chars } = header
  return { type: 'event', binary: true, channel: 'pty:data', projectId, seq, payload: { id, data: new TextDecoder().decode(bytes), offset, chars } }
}
