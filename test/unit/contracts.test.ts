import { describe, expect, it } from 'vitest'
import { channels, contracts } from '@shared/ipc'
import { handlers } from '../../src/main/ipc'

describe('IPC contracts', () => {
  it('channels.ts lists exactly the methods and events of the zod contracts', () => {
    expect(Object.keys(channels).sort()).toEqual(Object.keys(contracts).sort())
    for (const [domain, contract] of Object.entries(contracts)) {
      const spec = channels[domain as keyof typeof channels]
      expect([...spec.methods].sort(), domain).toEqual(Object.keys(contract.methods).sort())
      expect([...spec.events].sort(), domain).toEqual(Object.keys(contract.events).sort())
    }
  })

  it('every contract method has a handler', () => {
    for (const [domain, contract] of Object.entries(contracts)) {
      for (const method of Object.keys(contract.methods)) {
        const domainHandlers = handlers[domain as keyof typeof handlers] as Record<string, unknown>
        expect(typeof domainHandlers[method], `${domain}.${method}`).toBe('function')
      }
    }
  })

  it('rejects unknown keys and path escapes at the contract level', () => {
    expect(contracts.project.methods.open.input.safeParse({ path: '/x', extra: 1 }).success).toBe(false)
    const list = contracts.fs.methods.list.input
    const projectId = 'abcdef0123456789'
    expect(list.safeParse({ projectId, path: 'src/a' }).success).toBe(true)
    expect(list.safeParse({ projectId, path: '../etc' }).success).toBe(false)
    expect(list.safeParse({ projectId, path: '/etc' }).success).toBe(false)
    expect(list.safeParse({ projectId, path: 'a/../../b' }).success).toBe(false)
    expect(list.safeParse({ projectId: 'X; DROP', path: '' }).success).toBe(false)
  })
})
