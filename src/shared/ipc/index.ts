import type { z } from 'zod'
import { agentContract } from './agent'
import { appContract } from './app'
import { checkpointContract } from './checkpoint'
import { fsContract } from './fs'
import { layoutContract } from './layout'
import { lspContract } from './lsp'
import { ptyContract } from './pty'
import { mcpContract } from './mcp'
import { permissionContract } from './permission'
import { previewContract } from './preview'
import { processContract } from './process'
import { projectContract } from './project'
import { questionContract } from './question'
import { sandboxContract } from './sandbox'
import { reviewContract } from './review'
import { searchContract } from './search'
import { sessionContract } from './session'
import { settingsContract } from './settings'
import { trustContract } from './trust'
import { worktreeContract } from './worktree'
import type { Channels, Domain } from './channels'
import type { CallErrors, EventEnvelope, IpcResult } from './define'

export const contracts = {
  app: appContract,
  project: projectContract,
  fs: fsContract,
  pty: ptyContract,
  layout: layoutContract,
  session: sessionContract,
  agent: agentContract,
  permission: permissionContract,
  question: questionContract,
  mcp: mcpContract,
  process: processContract,
  settings: settingsContract,
  checkpoint: checkpointContract,
  sandbox: sandboxContract,
  lsp: lspContract,
  trust: trustContract,
  review: reviewContract,
  search: searchContract,
  worktree: worktreeContract,
  preview: previewContract,
} as const satisfies { [D in Domain]: unknown }

export type Contracts = typeof contracts
/** The error names a call of that domain can answer with: its contract's, and those of any call. */
export type DomainErrorName<D extends Domain> = Contracts[D]['errors'][number] | (typeof CallErrors)[number]
export type MethodName<D extends Domain> = Channels[D]['methods'][number]
export type EventName<D extends Domain> = Channels[D]['events'][number]

type MethodOf<D extends Domain, M extends MethodName<D>> = Contracts[D]['methods'] extends Record<
  M,
  infer S extends { input: z.ZodType; output: z.ZodType }
>
  ? S
  : never

export type MethodInput<D extends Domain, M extends MethodName<D>> = z.input<MethodOf<D, M>['input']>
export type MethodOutput<D extends Domain, M extends MethodName<D>> = z.output<MethodOf<D, M>['output']>
export type ParsedInput<D extends Domain, M extends MethodName<D>> = z.output<MethodOf<D, M>['input']>
export type EventPayload<D extends Domain, E extends EventName<D>> = Contracts[D]['events'] extends Record<
  E,
  infer S extends z.ZodType
>
  ? z.output<S>
  : never

type ListenerName<E extends string> = `on${Capitalize<E>}`

/**
 * The API the renderer sees, identical over both transports: one named method per
 * contract method and one `onX` subscription per event (returns an unsubscribe).
 */
export type HotaruBridge = {
  [D in Domain]: {
    [M in MethodName<D>]: (input: MethodInput<D, M>) => Promise<IpcResult<MethodOutput<D, M>>>
  } & {
    [E in EventName<D> as ListenerName<E>]: (
      listener: (event: EventEnvelope<EventPayload<D, E>>) => void,
    ) => () => void
  }
}

export { channels, methodChannel, eventChannel, eventListenerName } from './channels'
export type { Domain } from './channels'
export type { EventEnvelope, IpcResult } from './define'
export { CallErrors } from './define'
