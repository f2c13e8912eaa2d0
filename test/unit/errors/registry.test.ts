import { describe, expect, expectTypeOf, it } from 'vitest'
import {
  ErrorDomains,
  Errors,
  HotaruError,
  parseError,
  toErrorData,
  unhandledError,
  type ErrorData,
  type ErrorName,
  type KnownError,
} from '@shared/errors'
import { contracts } from '@shared/ipc'
import { Connection, createAppRouter } from '../../../src/main/ipc'
import { testServices } from '../../support/services'
import { tempDir } from '../../support/temp'

describe('the error registry', () => {
  it('holds every name once, under its own name, across all domains', () => {
    const perDomain = Object.values(ErrorDomains).flatMap((domain) => Object.entries(domain))
    for (const [key, def] of perDomain) expect(def.name).toBe(key)
    const names = perDomain.map(([key]) => key)
    expect(new Set(names).size).toBe(names.length)
    expect(Object.keys(Errors).sort()).toEqual([...names].sort())
    // One name for a stopped request or turn, and an unknown agent has its own.
    expect(names.filter((n) => n === 'Aborted')).toHaveLength(1)
    expect(names).toContain('AgentNotFound')
  })

  it('checks data against the schema of its name: a field of the wrong type or a missing one is refused', () => {
    expect(parseError({ name: 'SessionNotFound', data: { message: 'no session "s1"', sessionId: 's1' } })).toEqual({
      name: 'SessionNotFound',
      data: { message: 'no session "s1"', sessionId: 's1' },
    })
    expect(parseError({ name: 'SessionNotFound', data: { message: 'no session' } })).toBeUndefined()
    expect(parseError({ name: 'Conflict', data: { message: 'changed', path: 'a.ts', mtimeMs: 'yesterday' } })).toBeUndefined()
    expect(parseError({ name: 'NoSuchError', data: { message: 'x' } })).toBeUndefined()
    expect(parseError({ name: 'Internal' })).toBeUndefined()
    // Open errors keep what the thrower added; closed ones drop unknown fields.
    expect(parseError({ name: 'ToolError', data: { message: 'use an absolute path', hint: 'x' } })?.data).toEqual({ message: 'use an absolute path', hint: 'x' })
    expect(parseError({ name: 'AlreadyExists', data: { message: 'taken', path: 'a', extra: 1 } })?.data).toEqual({ message: 'taken', path: 'a' })
  })

  it('survives the trip through JSON text as the same error, and data that does not fit becomes Internal', () => {
    const sent = new HotaruError('WorktreeConflicts', { message: '1 file(s) changed in both', conflicts: ['src/a.ts'] })
    const received: unknown = JSON.parse(JSON.stringify({ ok: false, error: sent.toData() }))
    const known = parseError((received as { error: unknown }).error)
    expect(known).toEqual({ name: 'WorktreeConflicts', data: { message: '1 file(s) changed in both', conflicts: ['src/a.ts'] } })
    if (known?.name === 'WorktreeConflicts') expectTypeOf(known.data.conflicts).toEqualTypeOf<string[]>()

    const rethrown = HotaruError.from({ name: 'WorktreeConflicts', data: { message: '1 file(s) changed in both', conflicts: ['src/a.ts'] } })
    expect(rethrown.toData()).toEqual(sent.toData())
    const broken = HotaruError.from({ name: 'SessionNotFound', data: { message: 'gone' } })
    expect(broken.toData()).toEqual({ name: 'Internal', data: { message: 'SessionNotFound: gone' } })
    expect(toErrorData(new Error('disk on fire'))).toEqual({ name: 'Internal', data: { message: 'disk on fire' } })
  })

  it('answers IPC calls with registered names and data that fits their schemas', async () => {
    const services = testServices()
    const router = createAppRouter(services)
    const connection = new Connection('test', () => {})
    const call = (channel: string, payload?: unknown) => router.handle(connection, channel, payload)
    const answers = [
      await call('nope.method'),
      await call('project.open', { path: 42 }),
      await call('session.get', { sessionId: 'ses_missing00000' }),
      await call('project.open', { path: '/definitely/not/here' }),
    ]
    const opened = await call('project.open', { path: tempDir() })
    if (!opened.ok) throw new Error(opened.error.data.message)
    const projectId = (opened.value as { id: string }).id
    const session = await call('session.create', { projectId })
    if (!session.ok) throw new Error(session.error.data.message)
    answers.push(await call('agent.prompt', { sessionId: (session.value as { id: string }).id, text: 'hi', agent: 'nope' }))
    const errors = answers.flatMap((a) => (a.ok ? [] : [JSON.parse(JSON.stringify(a.error)) as unknown]))
    expect(errors).toHaveLength(5)
    expect(errors.map((e) => parseError(e)?.name)).toEqual(['UnknownMethod', 'InvalidPayload', 'SessionNotFound', 'NotFound', 'AgentNotFound'])
    expect(parseError(errors[4])?.data).toMatchObject({ agent: 'nope', message: expect.stringContaining('unknown agent "nope"') })
    await services.dispose()
  })

  it('lists in each IPC contract only names the registry knows', () => {
    for (const [domain, contract] of Object.entries(contracts)) {
      for (const name of contract.errors) expect(Object.keys(Errors), `${domain} lists ${name}`).toContain(name)
    }
    expect(contracts.agent.errors).toContain('AgentNotFound')
    expect(contracts.fs.errors).toEqual(expect.arrayContaining(['Conflict', 'AlreadyExists']))
  })

  it('makes a switch over names that misses one a type error', () => {
    // Compile-time checks (the typecheck of the tests fails if they stop holding).
    // @ts-expect-error a free string is no error name
    expect(() => new HotaruError('SomethingWentWrong', { message: 'x' })).not.toThrow()
    // @ts-expect-error the data of a name must fit its schema
    expect(() => new HotaruError('SessionNotFound', { message: 'no session' })).not.toThrow()
    expectTypeOf<ErrorData['name']>().toEqualTypeOf<ErrorName>()
    expectTypeOf<Extract<KnownError, { name: 'Conflict' }>['data']['path']>().toEqualTypeOf<string>()

    const partial = (name: ErrorName): string => {
      if (name === 'Aborted') return 'stopped'
      // @ts-expect-error every other name is unhandled here, so this does not compile
      return unhandledError(name)
    }
    expect(partial('Aborted')).toBe('stopped')
    expect(() => partial('Internal')).toThrow('unhandled error name Internal')
  })
})
