import { afterEach, describe, expect, it } from 'vitest'
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws'
import type { AddressInfo } from 'node:net'
import { createSocketBridge } from '../../../src/renderer/src/ipc/websocket'
import type { ConnectionState } from '../../../src/renderer/src/ipc/websocket'

/** A stand-in for `hotaru serve`'s socket: answers every call with its method name, records what it got. */
async function server(port = 0) {
  const wss = new WebSocketServer({ port, host: '127.0.0.1' })
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
  const received: string[] = []
  const sockets = new Set<ServerSocket>()
  let answer = true
  wss.on('connection', (ws) => {
    sockets.add(ws)
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { id: number; method: string }
      received.push(frame.method)
      if (answer) ws.send(JSON.stringify({ type: 'result', id: frame.id, result: { ok: true, value: frame.method } }))
    })
  })
  return {
    received,
    port: () => (wss.address() as AddressInfo).port,
    silence: () => (answer = false),
    dropClients: () => {
      for (const s of sockets) s.terminate()
      sockets.clear()
    },
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.terminate()
      wss.close(() => resolve())
    }),
  }
}

const waitFor = async (test: () => boolean): Promise<void> => {
  while (!test()) await new Promise((r) => setTimeout(r, 10))
}

const open: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const s of open.splice(0)) await s.close()
})

describe('reconnecting WebSocket client', () => {
  it('sends a call made while disconnected once the server is back, exactly once', async () => {
    const first = await server()
    const port = first.port()
    await first.close()
    const states: ConnectionState[] = []
    const bridge = createSocketBridge({ url: `ws://127.0.0.1:${port}/`, onState: (s) => states.push(s), WebSocketImpl: WebSocket, backoff: () => 20 })
    const result = bridge.app.info({})
    await waitFor(() => states.includes('reconnecting'))
    const again = await server(port)
    open.push(again)
    expect(await result).toEqual({ ok: true, value: 'app.info' })
    await new Promise((r) => setTimeout(r, 100))
    expect(again.received).toEqual(['app.info'])
  })

  it('answers a call in flight at the drop with Disconnected and never sends it again', async () => {
    const s = await server()
    open.push(s)
    const states: ConnectionState[] = []
    const bridge = createSocketBridge({ url: `ws://127.0.0.1:${s.port()}/`, onState: (st) => states.push(st), WebSocketImpl: WebSocket, backoff: () => 20 })
    expect(await bridge.app.info({})).toEqual({ ok: true, value: 'app.info' })
    s.silence()
    const lost = bridge.session.list({ projectId: 'prj_x' } as never)
    await waitFor(() => s.received.length === 2)
    s.dropClients()
    const outcome = await lost
    expect(outcome.ok).toBe(false)
    expect(!outcome.ok && outcome.error.name).toBe('Disconnected')
    await waitFor(() => states.filter((x) => x === 'open').length === 2)
    await new Promise((r) => setTimeout(r, 100))
    expect(s.received).toEqual(['app.info', 'session.list'])
  })
})
