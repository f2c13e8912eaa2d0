import { useSyncExternalStore } from 'react'

export interface Command {
  id: string
  title: string
  /** Groups commands in the palette, e.g. "File", "Terminal", "View". */
  category: string
  /** Shortcut as "Mod+Shift+P" (Mod = ⌘ on macOS, Ctrl elsewhere). */
  keys?: string
  /** Hidden from the palette and inert when false (e.g. needs an open project). */
  when?(): boolean
  run(): void | Promise<void>
}

const commands = new Map<string, Command>()
const listeners = new Set<() => void>()
let snapshot: Command[] = []

function changed(): void {
  snapshot = [...commands.values()]
  for (const listener of [...listeners]) listener()
}

/** Adds commands (any feature may contribute); returns a function that removes them. */
export function registerCommands(list: Command[]): () => void {
  for (const command of list) commands.set(command.id, command)
  changed()
  return () => {
    for (const command of list) if (commands.get(command.id) === command) commands.delete(command.id)
    changed()
  }
}

export function allCommands(): Command[] {
  return snapshot
}

export function runCommand(id: string): void {
  const command = commands.get(id)
  if (!command || (command.when && !command.when())) return
  void Promise.resolve(command.run()).catch((error: unknown) => console.error(`[commands] ${id} failed:`, error))
}

export function useCommands(): Command[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => snapshot,
  )
}
