import { describe, expect, it } from 'vitest'
import {
  missingArguments,
  pickedPrompt,
  pickedResource,
  promptSuggestions,
  resourceBlock,
  resourceSuggestions,
  withAttachments,
  type McpPrompt,
  type McpResource,
} from '../../../src/renderer/src/features/chat/composer/mcp-items'

const resources: McpResource[] = [
  { server: 'docs', uri: 'docs://guide', name: 'guide', description: 'The guide' },
  { server: 'fixture', uri: 'fixture://readme', name: 'readme' },
]
const prompts: McpPrompt[] = [
  { server: 'fixture', name: 'greet', description: 'Greets someone.', arguments: [{ name: 'name', required: true }, { name: 'tone' }] },
]

describe('MCP resources and prompts in the composer', () => {
  it('offers resources as @server:name with their description (the uri without one), filtered by the query', () => {
    expect(resourceSuggestions(resources, '').map((s) => [s.label, s.detail])).toEqual([
      ['@docs:guide', 'The guide'],
      ['@fixture:readme', 'fixture://readme'],
    ])
    const found = resourceSuggestions(resources, 'fixread')
    expect(found.map((s) => s.label)).toEqual(['@fixture:readme'])
    expect(pickedResource(resources, found[0]!.id)).toBe(resources[1])
    expect(pickedResource(resources, 'src/readme.ts')).toBeUndefined()
  })

  it('offers prompts as /server:prompt and finds the picked one', () => {
    const [greet] = promptSuggestions(prompts, 'fixture:gr')
    expect(greet?.label).toBe('/fixture:greet')
    expect(pickedPrompt(prompts, greet!.id)).toBe(prompts[0])
    expect(promptSuggestions(prompts, 'zzz')).toEqual([])
  })

  it('puts resource text into the message after the typed text, naming binary parts', () => {
    const block = resourceBlock(resources[1]!, [
      { uri: 'fixture://readme', text: '# Fixture' },
      { uri: 'fixture://logo', mimeType: 'image/png', blob: 'AAAA' },
    ])
    expect(block).toBe('<resource name="fixture:readme" uri="fixture://readme">\n# Fixture\n[binary image/png of 3 bytes at fixture://logo]\n</resource>')
    expect(withAttachments('look', [block])).toBe(`look\n\n${block}`)
    expect(withAttachments('look', [])).toBe('look')
  })

  it('names required arguments left empty', () => {
    expect(missingArguments(prompts[0]!, {})).toEqual(['name'])
    expect(missingArguments(prompts[0]!, { name: '  ' })).toEqual(['name'])
    expect(missingArguments(prompts[0]!, { name: 'Ada' })).toEqual([])
  })
})
