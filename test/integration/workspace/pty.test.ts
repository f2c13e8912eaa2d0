import { describe, expect, it } from 'vitest'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { EventBus } from '../../../src/main/core/bus/bus'
import { TerminalHost, terminalsOf } from '../../../src/main/core/pty/terminal-host'
import { terminalEnv, userShell } from '../../../src/main/core/pty/shell'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'

const SH = { file: '/bin/sh', args: [] }

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false
    throw error
  }
}

async function until(test: () => boolean, what: () => string, ms = 8000): Promise<void> {
  const start = Date.now()
  while (!test()) {
    if (Date.now() - start > ms) throw new Error(`timed out: ${what()}`)
    await new Promise((r) => setTimeout(r, 15))
  }
}

function host(root: string, flow?: { high: number; low: number }) {
  const events: { channel: string; payload: { id: string; data?: string; offset?: number; exitCode?: number } }[] = []
  const h = new TerminalHost({
    projectId: 'p1',
    root,
    shell: SH,
    env: { ...terminalEnv(), PS1: '$ ' },
    flow,
    publish: (channel, payload) => events.push({ channel, payload: payload as (typeof events)[number]['payload'] }),
  })
  const output = (id: string) =>
    events
      .filter((e) => e.channel === 'pty:data' && e.payload.id === id)
      .map((e) => e.payload.data)
      .join('')
  return { h, events, output }
}

describe('terminals (real node-pty)', () => {
  it('spawns in the project folder, echoes input, resizes and reports exit', async () => {
    const root = writeTree(tempDir(), { 'sub/marker.txt': '' })
    const { h, events, output } = host(root)
    try {
      const info = h.create({ cols: 80, rows: 24, cwd: 'sub' })
      expect(info).toMatchObject({ id: 't1', cols: 80, rows: 24, cwd: 'sub', exit: null, shell: '/bin/sh' })
      expect(alive(info.pid)).toBe(true)
      h.get(info.id).write('ls; echo "sum=$((40+2))"\r')
      await until(() => output(info.id).includes('sum=42') && output(info.id).includes('marker.txt'), () => output(info.id))
      h.get(info.id).resize(100, 30)
      h.get(info.id).write('stty size\r')
      await until(() => output(info.id).includes('30 100'), () => output(info.id))
      expect(h.list()[0]).toMatchObject({ cols: 100, rows: 30 })
      // Offsets are contiguous: a client can line events up with a replay.
      let expected = 0
      for (const e of events.filter((e) => e.channel === 'pty:data')) {
        expect(e.payload.offset).toBe(expected)
        expected += (e.payload.data ?? '').length
      }
      // The replay says which output was written at which grid size.
      const replay = h.get(info.id).replay()
      expect(replay).toMatchObject({ end: expected })
      expect(replay.sizes.map(({ cols, rows }) => `${cols}x${rows}`)).toEqual(['80x24', '100x30'])
      expect(replay.data.slice(replay.sizes[1]?.at)).toContain('30 100')
      expect(replay.data.slice(0, replay.sizes[1]?.at)).toContain('sum=42')
      h.get(info.id).write('exit 3\r')
      await until(() => events.some((e) => e.channel === 'pty:exit'), () => JSON.stringify(events.at(-1)))
      expect(events.find((e) => e.channel === 'pty:exit')?.payload).toMatchObject({ id: 't1', exitCode: 3 })
      expect(h.list()[0]?.exit).toMatchObject({ exitCode: 3 })
      expect(await h.kill(info.id)).toBe(true)
      expect(h.list()).toEqual([])
    } finally {
      await h.dispose()
    }
  })

  it('refuses a working folder outside the project', () => {
    const root = tempDir()
    const { h } = host(root)
    expect(() => h.create({ cols: 80, rows: 24, cwd: '../..' })).toThrow(expect.objectContaining({ name: 'OutsideWorkspace' }))
    expect(() => h.create({ cols: 80, rows: 24, cwd: 'missing' })).toThrow(expect.objectContaining({ name: 'NotADirectory' }))
  })

  it('pauses the process while output is unacknowledged and resumes on ack (flow control)', async () => {
    const root = tempDir()
    // ~8 MB of output; without flow control it would all arrive at once.
    writeFileSync(join(root, 'big.txt'), `${'x'.repeat(1023)}\n`.repeat(8 * 1024))
    const { h, events, output } = host(root, { high: 100_000, low: 20_000 })
    try {
      const info = h.create({ cols: 120, rows: 30 })
      const terminal = h.get(info.id)
      terminal.write('cat big.txt; echo END-OF-""CAT\r')
      await until(() => terminal.isPaused, () => `backlog ${terminal.backlog}`)
      const atPause = output(info.id).length
      await new Promise((r) => setTimeout(r, 300))
      // Paused: at most what was already read from the pty before the pause lands.
      const afterWait = output(info.id).length
      expect(afterWait - atPause).toBeLessThan(300_000)
      expect(afterWait).toBeLessThan(1_000_000)
      // A client that acknowledges everything it receives lets the whole file through.
      let acked = 0
      await until(
        () => {
          const total = output(info.id).length
          if (total > acked) {
            terminal.ack(total - acked)
            acked = total
          }
          return output(info.id).includes('END-OF-CAT')
        },
        () => `received ${output(info.id).length}`,
        20_000,
      )
      expect(output(info.id).length).toBeGreaterThan(8 * 1024 * 1024)
      expect(events.filter((e) => e.channel === 'pty:data').length).toBeLessThan(5000)
    } finally {
      await h.dispose()
    }
  })

  it('starts the login shell of the user by default', () => {
    expect(userShell({ SHELL: '/usr/bin/zsh' }, 'linux')).toEqual({ file: '/usr/bin/zsh', args: ['-l'] })
    expect(userShell({ COMSPEC: 'C:\\Windows\\cmd.exe' }, 'win32')).toEqual({ file: 'C:\\Windows\\cmd.exe', args: [] })
    const env = terminalEnv({ PATH: '/bin', ELECTRON_RUN_AS_NODE: '1', HOME: '/h' })
    expect(env).toMatchObject({ PATH: '/bin', HOME: '/h', TERM: 'xterm-256color', COLORTERM: 'truecolor' })
    expect(env.ELECTRON_RUN_AS_NODE).toBeUndefined()
  })

  it('closing a project kills its terminals and their children', async () => {
    const services = testServices()
    const root = tempDir()
    const project = services.projects.openFolder(root)
    const terminals = terminalsOf(project, services.bus, { shell: SH })
    const outputs = new Map<string, string>()
    const unsubscribe = services.bus.subscribe((e) => {
      if (e.channel !== 'pty:data') return
      const p = e.envelope.payload as { id: string; data: string }
      outputs.set(p.id, (outputs.get(p.id) ?? '') + p.data)
      terminals.get(p.id).ack(p.data.length)
    })
    const a = terminals.create({ cols: 80, rows: 24 })
    const b = terminals.create({ cols: 80, rows: 24 })
    terminals.get(a.id).write('sleep 300 & echo CHILD=$!\r')
    await until(() => /CHILD=\d+/.test(outputs.get(a.id) ?? ''), () => outputs.get(a.id) ?? '')
    const child = Number(/CHILD=(\d+)/.exec(outputs.get(a.id) ?? '')?.[1])
    terminals.get(b.id).write('sleep 300\r')
    const pids = [a.pid, b.pid, child]
    expect(pids.every(alive)).toBe(true)
    const started = Date.now()
    expect(await services.projects.close(project.id)).toBe(true)
    // A hang-up is enough: nothing waited for the SIGKILL fallback.
    expect(Date.now() - started).toBeLessThan(1500)
    unsubscribe.dispose()
    await until(() => pids.every((pid) => !alive(pid)), () => `still alive: ${pids.filter(alive).join(', ')}`)
    expect(() => terminalsOf(project, new EventBus())).toThrow(expect.objectContaining({ name: 'ProjectNotOpen' }))
  })
})
