import { contracts, type Domain, type MethodName, type MethodOutput, type ParsedInput } from '@shared/ipc'
import { ErrorNames, HotaruError, toErrorData, type IpcResult } from '@shared/errors'
import type { z } from 'zod'
import type { Services } from '../core/services'
import type { Connection } from './connection'

export interface HandlerContext {
  services: Services
  connection: Connection
}

export type DomainHandlers<D extends Domain> = {
  [M in MethodName<D>]: (
    input: ParsedInput<D, M>,
    ctx: HandlerContext,
  ) => MethodOutput<D, M> | Promise<MethodOutput<D, M>>
}

export type Handlers = { [D in Domain]: DomainHandlers<D> }

interface Route {
  input: z.ZodType
  output: z.ZodType
  run: (input: unknown, ctx: HandlerContext) => unknown
}

export interface Router {
  /** Every method channel (`domain.method`) the router serves. */
  readonly channels: readonly string[]
  handle(connection: Connection, channel: string, payload: unknown): Promise<IpcResult<unknown>>
}

function issuesOf(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.') || '(root)', message: i.message }))
}

/**
 * Shared by both transports: parses the payload against the contract before any
 * work, runs the handler, checks the result, and turns every failure into data.
 */
export function createRouter(services: Services, handlers: Handlers): Router {
  const routes = new Map<string, Route>()
  for (const [domain, contract] of Object.entries(contracts)) {
    const domainHandlers = handlers[domain as Domain] as Record<string, Route['run']>
    for (const [method, schema] of Object.entries(contract.methods)) {
      const run = domainHandlers[method]
      if (!run) throw new Error(`no handler for ${domain}.${method}`)
      routes.set(`${domain}.${method}`, { input: schema.input, output: schema.output, run })
    }
  }

  return {
    channels: [...routes.keys()],
    async handle(connection, channel, payload) {
      const route = routes.get(channel)
      if (!route) {
        return fail(new HotaruError(ErrorNames.UnknownMethod, { message: `unknown method "${channel}"`, channel }))
      }
      const parsed = route.input.safeParse(payload ?? {})
      if (!parsed.success) {
        return fail(
          new HotaruError(ErrorNames.InvalidPayload, {
            message: `invalid payload for ${channel}: ${parsed.error.issues.map((i) => i.message).join('; ')}`,
            channel,
            issues: issuesOf(parsed.error),
          }),
        )
      }
      try {
        const value = await route.run(parsed.data, { services, connection })
        const checked = route.output.safeParse(value)
        if (!checked.success) {
          console.error(`[ipc] ${channel} returned a value that violates its contract`, checked.error.issues)
          return fail(new HotaruError(ErrorNames.Internal, { message: `${channel} produced an invalid result` }))
        }
        return { ok: true, value: checked.data }
      } catch (error) {
        if (!(error instanceof HotaruError)) console.error(`[ipc] ${channel} failed:`, error)
        return { ok: false, error: toErrorData(error) }
      }
    },
  }
}

function fail(error: HotaruError): IpcResult<never> {
  return { ok: false, error: error.toData() }
}
