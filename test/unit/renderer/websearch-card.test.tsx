// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { ToolPart } from '../../../src/renderer/src/features/chat/tools/describe'
import { WebSearchResults } from '../../../src/renderer/src/features/chat/tools/WebSearchResults'

afterEach(cleanup)

function part(state: Partial<ToolPart['state']>): ToolPart {
  return {
    id: 'prt_1', sessionId: 'ses_1', messageId: 'msg_1', type: 'tool', callId: 'c1', tool: 'websearch',
    state: { status: 'completed', input: { query: 'vite 8 release notes' }, ...state },
  }
}

/** Metadata as the websearch tool writes it. */
const metadata = {
  query: 'vite 8 release notes',
  blockedDomains: ['pinterest.com'],
  searches: [
    {
      query: 'vite 8 release notes',
      results: [
        { title: 'Vite 8 is out!', url: 'https://vite.dev/blog/announcing-vite8', pageAge: '2 days ago' },
        { title: 'Sneaky', url: 'javascript:alert(1)' },
        { title: 'Rolldown', url: 'https://www.rolldown.rs/' },
      ],
    },
    { query: 'vite 8 migration', results: [], error: 'too_many_requests' },
  ],
  answer: [
    { text: 'Vite 8 ships Rolldown as its bundler.', citations: [{ url: 'https://vite.dev/blog/announcing-vite8', title: 'Vite 8 is out!' }] },
    { text: ' It needs Node 20.19 or later.', citations: [{ url: 'https://nodejs.org/en/about/previous-releases' }] },
  ],
  filtered: 1,
}

describe('the web search card', () => {
  it('shows the query, each result as a browser link with its domain, failures and the cited answer', () => {
    render(<WebSearchResults part={part({ metadata })} />)
    const card = screen.getByTestId('websearch-card')
    expect(card.textContent).toContain('vite 8 release notes')
    expect(card.textContent).toContain('not pinterest.com')
    const results = screen.getAllByTestId('websearch-result')
    // A result that is not a web link is not shown as one.
    expect(results).toHaveLength(2)
    const first = within(results[0] as HTMLElement).getByRole('link', { name: 'Vite 8 is out!' })
    expect(first.getAttribute('href')).toBe('https://vite.dev/blog/announcing-vite8')
    expect(first.getAttribute('target')).toBe('_blank')
    expect(first.getAttribute('rel')).toContain('noopener')
    expect(results[0]?.textContent).toContain('vite.dev')
    expect(results[0]?.textContent).toContain('2 days ago')
    expect(results[1]?.textContent).toContain('rolldown.rs')
    expect(card.textContent).toContain('A search for "vite 8 migration" failed: too many requests')
    expect(screen.getByTestId('websearch-filtered').textContent).toBe('1 result from denied domains left out')

    const answer = screen.getByTestId('websearch-answer')
    expect(answer.textContent).toContain('Vite 8 ships Rolldown as its bundler.')
    const cites = within(answer).getAllByRole('link')
    expect(cites.map((a) => a.textContent)).toEqual(['[1]', '[nodejs.org]'])
    expect(cites.map((a) => a.getAttribute('href'))).toEqual(['https://vite.dev/blog/announcing-vite8', 'https://nodejs.org/en/about/previous-releases'])
  })

  it('while running shows the query from the input and the searches done so far', () => {
    const { rerender } = render(<WebSearchResults part={part({ status: 'running', metadata: { query: 'vite 8 release notes', searches: [] } })} />)
    expect(screen.getByTestId('websearch-card').textContent).toContain('Searching…')
    rerender(<WebSearchResults part={part({ status: 'running', metadata: { query: 'vite 8 release notes', searches: metadata.searches.slice(0, 1) } })} />)
    expect(screen.getAllByTestId('websearch-result')).toHaveLength(2)
    expect(screen.queryByText('Searching…')).toBeNull()
  })
})
