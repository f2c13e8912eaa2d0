import { createStore, type StoreApi } from 'zustand'

/**
 * Context attached to the message being written: a selection from the editor
 * (`file:lines` with its text) or a whole file mentioned with `@`. Each goes to
 * the model as a tagged block after the typed text; the chat shows it as a chip.
 */
export interface ContextChip {
  key: number
  kind: 'selection' | 'file'
  path: string
  /** 1-based, inclusive; selections only. */
  startLine?: number
  endLine?: number
  text: string
  state: 'reading' | 'ready' | 'failed'
  error?: string
}

export interface ChatContextState {
  chips: ContextChip[]
}

const stores = new Map<string, StoreApi<ChatContextState>>()
let nextKey = 1

/** The context chips of a chat (by its project id): the editor adds to them, the composer shows and sends them. */
export function chatContextFor(projectId: string): StoreApi<ChatContextState> {
  let store = stores.get(projectId)
  if (!store) {
    store = createStore<ChatContextState>(() => ({ chips: [] }))
    stores.set(projectId, store)
  }
  return store
}

export function chipLabel(chip: Pick<ContextChip, 'path' | 'startLine' | 'endLine'>): string {
  if (chip.startLine === undefined) return chip.path
  return chip.endLine !== undefined && chip.endLine !== chip.startLine ? `${chip.path}:${chip.startLine}-${chip.endLine}` : `${chip.path}:${chip.startLine}`
}

/** Adds a chip (the same selection or file twice is kept once); returns its key. */
export function addContextChip(projectId: string, chip: Omit<ContextChip, 'key'>): number {
  const store = chatContextFor(projectId)
  const same = store.getState().chips.find((c) => c.kind === chip.kind && chipLabel(c) === chipLabel(chip))
  if (same) return same.key
  const key = nextKey++
  store.setState((s) => ({ chips: [...s.chips, { ...chip, key }] }))
  return key
}

export function updateContextChip(projectId: string, key: number, patch: Partial<ContextChip>): void {
  chatContextFor(projectId).setState((s) => ({ chips: s.chips.map((c) => (c.key === key ? { ...c, ...patch } : c)) }))
}

export function removeContextChip(projectId: string, key: number): void {
  chatContextFor(projectId).setState((s) => ({ chips: s.chips.filter((c) => c.key !== key) }))
}

export function clearContextChips(projectId: string): ContextChip[] {
  const store = chatContextFor(projectId)
  const chips = store.getState().chips
  store.setState({ chips: [] })
  return chips
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')
}

/** A chip as the model gets it. */
export function contextBlock(chip: ContextChip): string {
  const lines = chip.startLine !== undefined ? ` lines="${chip.startLine}-${chip.endLine ?? chip.startLine}"` : ''
  const tag = chip.kind === 'selection' ? 'selection' : 'file'
  return `<${tag} path="${escapeAttribute(chip.path)}"${lines}>\n${chip.text.replace(/\n$/, '')}\n</${tag}>`
}

/** A sent message split into what the user typed and the context blocks after it (shown as chips). */
export function splitContext(text: string): { own: string; context: Array<{ kind: 'selection' | 'file'; label: string; text: string }> } {
  const context: Array<{ kind: 'selection' | 'file'; label: string; text: string }> = []
  const own = text.replace(/\n*<(selection|file) path="([^"]*)"(?: lines="(\d+)-(\d+)")?>\n([\s\S]*?)\n<\/\1>/g, (_, tag: string, path: string, start?: string, end?: string, body?: string) => {
    const unescaped = path.replace(/&quot;/g, '"').replace(/&amp;/g, '&')
    const label = start ? chipLabel({ path: unescaped, startLine: Number(start), endLine: Number(end) }) : unescaped
    context.push({ kind: tag === 'selection' ? 'selection' : 'file', label, text: body ?? '' })
    return ''
  })
  return { own: own.trimEnd(), context }
}
