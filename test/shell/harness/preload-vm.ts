import { readFileSync } from 'node:fs'
import { runInNewContext } from 'node:vm'

export interface PreloadRun {
  /** What `contextBridge.exposeInMainWorld` received, by key. */
  exposed: Record<string, unknown>
  /** Channels the exposed methods invoke, one call each. */
  invoked: string[]
  /** Channels the exposed `onX` subscriptions listen on. */
  listened: string[]
}

/**
 * Runs a built preload the way a sandboxed renderer does: its own context, and a
 * `require` that knows only `electron` (a sandboxed preload gets no node_modules).
 * Then calls every exposed function once to learn its channel.
 */
export async function runPreload(file: string): Promise<PreloadRun> {
  const exposed: Record<string, unknown> = {}
  const invoked: string[] = []
  const listened: string[] = []
  const electron = {
    contextBridge: {
      exposeInMainWorld: (key: string, api: unknown) => {
        exposed[key] = api
      },
    },
    ipcRenderer: {
      invoke: (channel: string) => {
        invoked.push(channel)
        return Promise.resolve({ ok: true, value: null })
      },
      on: (channel: string) => listened.push(channel),
      off: () => undefined,
    },
    webUtils: { getPathForFile: () => '/dropped' },
  }
  const require = (name: string): unknown => {
    if (name === 'electron') return electron
    throw new Error(`the sandboxed preload cannot require "${name}"`)
  }
  const module = { exports: {} }
  runInNewContext(readFileSync(file, 'utf8'), { require, module, exports: module.exports }, { filename: file })
  const bridge = (exposed.hotaru ?? {}) as Record<string, Record<string, unknown>>
  const calls: Promise<unknown>[] = []
  for (const api of Object.values(bridge)) {
    for (const [name, fn] of Object.entries(api)) {
      if (typeof fn !== 'function') continue
      if (/^on[A-Z]/.test(name)) (fn as (listener: () => void) => () => void)(() => undefined)
      else calls.push((fn as (input: unknown) => Promise<unknown>)({}))
    }
  }
  await Promise.all(calls)
  return { exposed, invoked, listened }
}
