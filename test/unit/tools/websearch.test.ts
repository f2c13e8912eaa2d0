import { describe, expect, it } from 'vitest'
import { formatSearchOutput, hostAndParents, normalizeDomain } from '../../../src/main/core/tools/websearch'

describe('websearch helpers', () => {
  it('reduces what the model gives as a domain to the bare host, and refuses what is none', () => {
    expect(normalizeDomain('https://Docs.Python.org/3/library/')).toBe('docs.python.org')
    expect(normalizeDomain('*.example.com')).toBe('example.com')
    expect(normalizeDomain('example.com:8080')).toBe('example.com')
    expect(() => normalizeDomain('localhost')).toThrow(/is not a domain/)
    expect(() => normalizeDomain('a b.com')).toThrow(/is not a domain/)
  })

  it('checks a host together with the domains above it, so a rule for example.com covers its subdomains', () => {
    expect(hostAndParents('a.b.example.com')).toEqual(['a.b.example.com', 'b.example.com', 'example.com'])
    expect(hostAndParents('example.com')).toEqual(['example.com'])
  })

  it('numbers each result once and marks the cited spans with their numbers', () => {
    const output = formatSearchOutput(
      'q',
      [
        { query: 'q', results: [{ title: 'A', url: 'https://a.dev/' }, { title: 'B', url: 'https://b.dev/', pageAge: 'May 1, 2026' }] },
        { query: 'q2', results: [{ title: 'A again', url: 'https://a.dev/' }], error: undefined },
        { query: 'q3', results: [], error: 'max_uses_exceeded' },
      ],
      [
        { type: 'text', text: 'B says so.', citations: [{ url: 'https://b.dev/', providerId: 'anthropic', raw: {} }] },
        { type: 'text', text: ' Unsourced.' },
      ],
    )
    expect(output).toContain('3 searches, 2 results.')
    expect(output).toContain('A search for "q3" failed: max_uses_exceeded.')
    expect(output).toContain('[1] A — https://a.dev/\n[2] B — https://b.dev/ (May 1, 2026)')
    expect(output).toContain('B says so. [2] Unsourced.')
  })
})
