import type { PortBlock } from '@shared/schema/worktree'

/** The variables `portEnv` sets. */
export const PORT_VARIABLES = ['HOTARU_PORT', 'HOTARU_PORTS'] as const

/**
 * Forgets ports inherited from the environment: started from a worktree's terminal, Hotaru would
 * otherwise hand that worktree's ports to commands of every main tree it opens. Each tree's
 * commands get their own (`portEnv`), from the trees Hotaru knows.
 */
export function forgetInheritedPorts(env: NodeJS.ProcessEnv = process.env): void {
  for (const name of PORT_VARIABLES) delete env[name]
}

/** The variables naming a worktree's ports, for commands started in it (none for a main tree). */
export function portEnv(ports: PortBlock | null): Record<string, string> {
  if (!ports) return {}
  return { HOTARU_PORT: String(ports.first), HOTARU_PORTS: `${ports.first}-${ports.last}` }
}

/** The system prompt's note of a worktree's ports, so the model starts dev servers on them. */
export function portsPromptBlock(ports: PortBlock | null): string {
  if (!ports) return ''
  return [
    `This worktree's ports: ${ports.first}-${ports.last} (other worktrees of the project run at the same time on ports of their own).`,
    'Use $HOTARU_PORT for dev servers (and the rest of $HOTARU_PORTS for further servers) instead of the project\'s default ports.',
  ].join('\n')
}
