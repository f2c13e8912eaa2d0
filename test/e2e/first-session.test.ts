import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { screenshot, useBrowser } from '../support/browser'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'
import { until } from '../support/until'

/**
 * Routes the page's WebSocket through the test: once `hold()` is called, the answer to the next
 * `session.create` and everything the server sends after it wait until `release()` (a slow server).
 */
async function slowSessionCreate(page: Page): Promise<{ hold(): void; held(): boolean; release(): void }> {
  let holding = false
  let heldId: unknown
  let queue: Array<string | Buffer> | null = null
  let flush: (() => void) | null = null
  await page.routeWebSocket(/\/ws\b/, (ws) => {
    const server = ws.connectToServer()
    ws.onMessage((message) => {
      if (holding && typeof message === 'string') {
        const call = JSON.parse(message) as { id: unknown; method: string }
        if (call.method === 'session.create') {
          heldId = call.id
          holding = false
        }
      }
      server.send(message)
    })
    server.onMessage((message) => {
      if (!queue && heldId !== undefined && typeof message === 'string') {
        const frame = JSON.parse(message) as { type: string; id?: unknown }
        if (frame.type === 'result' && frame.id === heldId) queue = []
      }
      if (queue) queue.push(message)
      else ws.send(message)
    })
    flush = () => {
      for (const message of queue ?? []) ws.send(message)
      queue = null
      heldId = undefined
    }
  })
  return {
    hold: () => {
      holding = true
    },
    held: () => queue !== null,
    release: () => flush?.(),
  }
}

describe('the first session of a chat (hotaru serve + fake LLM)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('text typed before the chat had a session stays in the input of the session made next and is sent there', { timeout: 60_000 }, async () => {
    const folder = writeTree(tempDir('hotaru-e2e-first-'), { 'notes.md': '# Notes\n' })
    const ui = await servedPage(shared)
    const { page } = ui
    try {
      await ui.openProject(folder)
      expect(await ui.chat().getAttribute('data-session-id')).toBe('')
      const input = ui.chat().getByTestId('chat-input')
      await input.fill('Keep this draft')

      await ui.chat().getByRole('button', { name: 'New session' }).click()
      await page.getByRole('menuitem', { name: 'New session in this folder' }).click()
      await until(async () => (await ui.chat().getAttribute('data-session-id')) !== '', 'the new session shown')
      expect(await input.inputValue()).toBe('Keep this draft')
      await screenshot(page, 'first-session-01-draft-kept')

      shared.fake.enqueue({ text: 'Got the draft.' })
      await input.press('Enter')
      await ui.chat().getByText('Got the draft.').waitFor({ timeout: 30_000 })
      expect(ui.errors.join('\n')).toBe('')
    } finally {
      await ui.close()
    }
  })

  it('typing on while the first session is being created keeps every key in the same input', { timeout: 60_000 }, async () => {
    const folder = writeTree(tempDir('hotaru-e2e-first-'), { 'notes.md': '# Notes\n' })
    const ui = await servedPage(shared)
    const { page } = ui
    try {
      const slow = await slowSessionCreate(page)
      await page.reload()
      await page.getByText('Connected').waitFor()
      await ui.openProject(folder)
      const input = ui.chat().getByTestId('chat-input')
      await input.focus()
      await page.keyboard.type('Write the ')

      slow.hold()
      await page.keyboard.press('Control+Alt+T')
      await until(() => slow.held(), 'session.create answered (and held)')
      await page.keyboard.type('list, ')
      slow.release()
      await until(async () => (await ui.chat().getAttribute('data-session-id')) !== '', 'the new session shown')
      // Keys go to the focused element: the input on screen must still be the one typed into.
      await page.keyboard.type('please')
      expect(await input.inputValue()).toBe('Write the list, please')

      shared.fake.enqueue({ text: 'Wrote the list.' })
      await page.keyboard.press('Enter')
      await ui.chat().getByText('Wrote the list.').waitFor({ timeout: 30_000 })
      expect(ui.errors.join('\n')).toBe('')
    } finally {
      await ui.close()
    }
  })
})
