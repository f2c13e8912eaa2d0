import { describe, expect, it } from 'vitest'
import { sectionsMatching } from '../../../src/renderer/src/features/settings/settings-search'

const ids = (query: string, extra: Parameters<typeof sectionsMatching>[1] = []): string[] => sectionsMatching(query, extra).map((s) => s.id)

describe('settings search', () => {
  it('finds sections by label, description and config key, every word of the query', () => {
    expect(ids('')).toHaveLength(8)
    expect(ids('repeating')).toEqual(['permissions'])
    expect(ids('doom_loop')).toEqual(['permissions'])
    expect(ids('BUBBLEWRAP')).toEqual(['sandbox'])
    expect(ids('dark')).toEqual(['general'])
    expect(ids('api key')).toEqual(['providers'])
    expect(ids('default model')).toEqual(['models'])
    expect(ids('sandbox')).toEqual(['permissions', 'sandbox'])
    expect(ids('nothing like this')).toEqual([])
    // Entries known only at run time (the shortcuts' commands) are searched too.
    expect(ids('toggle terminal', [{ section: 'keys', label: 'View: Toggle Terminal', keys: ['Mod+J'] }])).toEqual(['keys'])
  })
})
