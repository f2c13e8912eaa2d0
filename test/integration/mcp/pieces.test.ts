import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { assignToolNames, qualifiedToolName, resolveLoginShellPath, TOOL_NAME_PATTERN, toToolResult } from '../../../src/main/core/mcp'
import { LoopbackRedirect } from '../../../src/main/core/mcp/oauth-loopback'
import { expandEnv } from '../../../src/main/core/mcp/project-mcp-json'
import { mergePaths } from '../../../src/main/core/mcp/shell-path'
import { tempDir } from '../../support/temp'

describe('tool names', () => {
  it('namespaces, sanitizes and bounds names', () => {
    expect(qualifiedToolName('github', 'create_issue')).toBe('github__create_issue')
    expect(qualifiedToolName('my.server', 'do it/now')).toBe('my_server__do_it_now')
    const long = qualifiedToolName('s'.repeat(40), 't'.repeat(40))
    expect(long).toHaveLength(64)
    expect(long).toMatch(TOOL_NAME_PATTERN)
    expect(long).not.toBe(qualifiedToolName('s'.repeat(40), `${'t'.repeat(39)}u`))
  })

  it('keeps names unique when sanitizing collides', () => {
    expect(assignToolNames([{ server: 'a', tool: 'x.y' }, { server: 'a', tool: 'x_y' }, { server: 'a', tool: 'x?y' }])).toEqual([
      'a__x_y',
      'a__x_y_2',
      'a__x_y_3',
    ])
  })
})

describe('tool results', () => {
  it('converts every content kind', () => {
    expect(toToolResult({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] })).toEqual({ output: 'a\nb', isError: false })
    expect(toToolResult({ content: [], isError: true })).toEqual({ output: 'the tool failed without saying why', isError: true })
    expect(toToolResult({ content: [] })).toEqual({ output: '(no output)', isError: false })
    expect(toToolResult({ content: [{ type: 'image', data: 'AAAA', mimeType: 'image/svg+xml' }] }).output).toBe(
      '[image of type image/svg+xml omitted: models take only PNG, JPEG, GIF and WebP]',
    )
    expect(toToolResult({ content: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }] }).output).toContain('audio (audio/wav) omitted')
    expect(toToolResult({ content: [{ type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' }] }).output).toBe('[resource a.txt: file:///a.txt]')
    expect(
      toToolResult({ content: [{ type: 'resource', resource: { uri: 'x://img', mimeType: 'image/png', blob: 'iVBOR' } }] }).output,
    ).toEqual([{ type: 'image', mediaType: 'image/png', data: 'iVBOR' }])
    expect(toToolResult({ content: [{ type: 'resource', resource: { uri: 'x://bin', blob: 'AAAA' } }] }).output).toBe(
      '[binary resource x://bin (unknown type, about 3 bytes) omitted]',
    )
    expect(toToolResult({ content: [{ type: 'text', text: 'summary' }], structuredContent: { a: 1 } }).output).toBe('summary')
    expect(toToolResult({ toolResult: { legacy: true } }).output).toBe('{\n  "legacy": true\n}')
  })
})

describe('login shell PATH', () => {
  it('reads PATH from the login shell, keeping entries only the app has', async () => {
    const resolved = await resolveLoginShellPath({ ...process.env, PATH: `${process.env.PATH ?? ''}:/only/in/app` })
    expect(resolved.source).toBe('login-shell')
    expect(resolved.path.split(':')).toContain('/usr/bin')
    expect(resolved.path.endsWith(':/only/in/app')).toBe(true)
  })

  it('falls back to the app PATH with a warning when the shell fails or hangs', async () => {
    const broken = await resolveLoginShellPath({ SHELL: '/nonexistent/shell', PATH: '/usr/bin' })
    expect(broken).toMatchObject({ path: '/usr/bin', source: 'environment' })
    expect(broken.warning).toContain('/nonexistent/shell')

    const dir = tempDir()
    const slow = join(dir, 'slow-shell')
    writeFileSync(slow, '#!/bin/sh\nsleep 30\n', { mode: 0o755 })
    const started = Date.now()
    const hung = await resolveLoginShellPath({ SHELL: slow, PATH: '/usr/bin' }, 300)
    expect(hung.source).toBe('environment')
    expect(hung.warning).toContain('no answer within 300 ms')
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('merges without duplicates', () => {
    expect(mergePaths('/a:/b', '/b:/c::/a')).toBe('/a:/b:/c')
  })
})

describe('.mcp.json placeholders', () => {
  it('expands ${VAR}, ${VAR:-default} and {env:VAR} in values only', () => {
    const warnings: string[] = []
    const out = expandEnv({ '${KEY}': ['${A}', '${MISSING:-dflt}', '{env:A}', '${MISSING}'] }, { A: 'a' }, '.mcp.json', warnings)
    expect(out).toEqual({ '${KEY}': ['a', 'dflt', 'a', ''] })
    expect(warnings).toEqual(['.mcp.json: environment variable MISSING is not set; using an empty string'])
  })
})

describe('OAuth loopback redirect', () => {
  it('accepts only the expected state and reports refusals', async () => {
    const loopback = await LoopbackRedirect.listen(undefined, () => 'expected-state')
    try {
      expect(loopback.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/)
      const forged = await fetch(`${loopback.url}?code=stolen&state=other`)
      expect(forged.status).toBe(400)
      const waiting = loopback.waitForCode(5_000)
      const ok = await fetch(`${loopback.url}?code=the-code&state=expected-state`)
      expect(ok.status).toBe(200)
      expect(await waiting).toBe('the-code')
    } finally {
      await loopback.close()
    }

    const refused = await LoopbackRedirect.listen(undefined, () => 's')
    try {
      const refusal = expect(refused.waitForCode(5_000)).rejects.toThrow('the server refused the sign-in: access_denied (nope)')
      await fetch(`${refused.url}?error=access_denied&error_description=nope&state=s`)
      await refusal
      await expect(refused.waitForCode(10)).rejects.toThrow('access_denied')
    } finally {
      await refused.close()
    }
  })

  it('times out and can be cancelled', async () => {
    const loopback = await LoopbackRedirect.listen(undefined, () => 's')
    try {
      await expect(loopback.waitForCode(50)).rejects.toThrow('no sign-in within 0 s')
      const controller = new AbortController()
      const waiting = loopback.waitForCode(5_000, controller.signal)
      controller.abort()
      await expect(waiting).rejects.toThrow('the sign-in was cancelled')
    } finally {
      await loopback.close()
    }
  })
})
