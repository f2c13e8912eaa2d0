import type { WithheldItem } from '@shared/ipc/trust'

/** Headings of the trust prompt, in the order shown: what would run first, then what would change. */
export const KIND_HEADINGS: Array<[WithheldItem['kind'], string]> = [
  ['mcp', 'MCP servers it would start'],
  ['tool', 'Tool files it would load and run'],
  ['hook', 'Hooks it would run'],
  ['shell', 'Shell it would use for commands'],
  ['permission', 'Permission rules it would loosen'],
  ['agent', 'Agent settings it would loosen'],
  ['provider', 'Provider settings it would change (where your prompts and keys go)'],
  ['placeholder', 'Values it would read from your environment or files'],
]

/** The items of one kind, in the order the folder lists them. */
export function itemsOf(items: readonly WithheldItem[], kind: WithheldItem['kind']): WithheldItem[] {
  return items.filter((item) => item.kind === kind)
}
