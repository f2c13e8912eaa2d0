import { describe, expect, it } from 'vitest'
import { addressToUrl, isLoopbackHost, previewTarget } from '@shared/preview-url'

/** A policy like the preview's: loopback on the given ports. */
const kind = (raw: string, ports: number[] = [], typed = false): string =>
  previewTarget(raw, (url) => ports.includes(Number(new URL(url).port || 80)), { typed }).kind

describe('which pages the Preview pane loads', () => {
  it('knows loopback hosts, and names that only look like them are not', () => {
    for (const host of ['localhost', '127.0.0.1', '[::1]', 'LOCALHOST']) expect(isLoopbackHost(host), host).toBe(true)
    for (const host of ['localhost.evil.com', '127.0.0.1.nip.io', '10.0.0.1', '0.0.0.0', 'example.com', '128.0.0.1']) expect(isLoopbackHost(host), host).toBe(false)
  })

  it('reads what the user types: a bare port, a host without scheme, a full URL', () => {
    expect(addressToUrl('5173')?.href).toBe('http://localhost:5173/')
    expect(addressToUrl(':3000/app?x=1')?.href).toBe('http://localhost:3000/app?x=1')
    expect(addressToUrl('127.0.0.1:8080')?.href).toBe('http://127.0.0.1:8080/')
    expect(addressToUrl('example.com/docs')?.href).toBe('https://example.com/docs')
    expect(addressToUrl('https://localhost:8443/')?.href).toBe('https://localhost:8443/')
    expect(addressToUrl('   ')).toBeNull()
  })

  it('loads any loopback port the user typed, but a page may only move where the preview’s policy allows', () => {
    expect(kind('localhost:4000', [], true)).toBe('load')
    expect(kind('http://127.0.0.1:5173/about', [5173])).toBe('load')
    // Another local service (a database console, another project's server) is not the page's to open.
    expect(kind('http://127.0.0.1:6379/', [5173])).toBe('external')
  })

  it('sends every other site to the system browser and refuses what is not a web page', () => {
    expect(kind('https://example.com/', [443])).toBe('external')
    expect(kind('example.com', [], true)).toBe('external')
    expect(kind('http://localhost.evil.com:5173/', [5173])).toBe('external')
    expect(kind('javascript:alert(1)', [], true)).toBe('refused')
    expect(kind('file:///etc/passwd', [], true)).toBe('refused')
    expect(kind('data:text/html,hi', [])).toBe('refused')
    expect(kind('http://user:secret@localhost:5173/', [5173])).toBe('refused')
    expect(kind('not a url', [])).toBe('refused')
  })
})
