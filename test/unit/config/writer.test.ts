import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { configFileIn, writeConfigValue } from '../../../src/main/core/config/writer'
import { tempDir } from '../../support/temp'

describe('config writer', () => {
  it('changes one value and keeps comments and the rest of the file', () => {
    const dir = tempDir()
    const file = join(dir, 'hotaru.jsonc')
    writeFileSync(file, '{\n  // my model\n  "model": "anthropic/claude-sonnet-4-6",\n  "permission": { "bash": { "git *": "allow" } }\n}\n')
    writeConfigValue(file, ['permission', 'bash', 'rm *'], 'deny')
    writeConfigValue(file, ['permission', 'bash', 'git *'], undefined)
    const text = readFileSync(file, 'utf8')
    expect(text).toContain('// my model')
    expect(text).toContain('"model": "anthropic/claude-sonnet-4-6"')
    expect(text).toContain('"rm *": "deny"')
    expect(text).not.toContain('git *')
  })

  it('creates a missing file, and refuses to rewrite one that does not parse', () => {
    const dir = tempDir()
    expect(configFileIn(dir)).toBe(join(dir, 'hotaru.jsonc'))
    writeConfigValue(join(dir, 'sub', 'hotaru.jsonc'), ['defaultAgent'], 'plan')
    expect(JSON.parse(readFileSync(join(dir, 'sub', 'hotaru.jsonc'), 'utf8'))).toEqual({ defaultAgent: 'plan' })
    const broken = join(dir, 'hotaru.json')
    writeFileSync(broken, '{ "model": ')
    expect(configFileIn(dir)).toBe(broken)
    expect(() => writeConfigValue(broken, ['model'], 'x')).toThrow(/does not parse/)
    expect(readFileSync(broken, 'utf8')).toBe('{ "model": ')
  })
})
