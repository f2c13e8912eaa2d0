import { describe, expect, it } from 'vitest'
import { screenshot, useBrowser } from '../support/browser'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'
import { until } from '../support/until'

/** Six 503s in a row: the first attempt and its five retries; each asks for a short wait so the retries are seen. */
const DOWN = Array.from({ length: 6 }, () => ({ fault: { type: 'http' as const, status: 503, retryAfterMs: 1500 } }))

describe('a provider that fails, in Chromium (hotaru serve + fake LLM)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('shows the retries, then one plain error with details, Retry and the last message on ArrowUp; the tab dot clears once seen', { timeout: 180_000 }, async () => {
    const first = writeTree(tempDir('hotaru-e2e-errors-a-'), { 'a.txt': 'a\n' })
    const second = writeTree(tempDir('hotaru-e2e-errors-b-'), { 'b.txt': 'b\n' })
    const ui = await servedPage(shared)
    const { page } = ui
    try {
      await ui.openProject(first)
      const firstTab = page.getByRole('tablist', { name: 'Projects' }).getByRole('tab').first()
      shared.fake.enqueue(...DOWN)
      const input = ui.chat().getByTestId('chat-input')
      await input.fill('summarise a.txt')
      await input.press('Enter')

      // The retries are on screen, in plain words, while they happen.
      const activity = ui.chat().getByTestId('agent-activity')
      await until(async () => /Retrying.*\(attempt \d\): the provider did not answer/.test(await activity.innerText()), 'retry line', 30_000)
      await screenshot(page, 'errors-00-retrying')

      // The user moves to another project while it retries: the failure marks the first tab.
      await ui.openProject(second)
      await until(async () => (await firstTab.locator('.status-dot').getAttribute('data-status')) === 'error', 'red dot on the first tab', 60_000)
      await screenshot(page, 'errors-01-red-dot')
      await firstTab.click()

      const error = ui.chat().getByTestId('message-error')
      await error.waitFor()
      expect(await ui.chat().getByRole('alert').count()).toBe(1)
      expect(await error.locator('.msg-error-text').innerText()).toMatch(/^Anthropic is overloaded right now \(tried \d+ times\)\. Retry in a moment\.$/)
      expect(await error.getByTestId('error-details').isVisible()).toBe(false)
      await error.getByText('Details').click()
      expect(await error.getByTestId('error-details').innerText()).toMatch(/^ProviderOverloaded: /)
      // Seen: the tab no longer calls for attention.
      await until(async () => (await firstTab.locator('.status-dot').getAttribute('data-status')) !== 'error', 'red dot cleared')
      await screenshot(page, 'errors-02-plain-error')

      // ArrowUp in the empty input brings the message back.
      await input.click()
      await input.press('ArrowUp')
      expect(await input.inputValue()).toBe('summarise a.txt')
      await input.fill('')

      // The provider is back: Retry sends the message again and the error goes.
      shared.fake.enqueue({ text: 'a.txt holds one line.' })
      await error.getByRole('button', { name: 'Retry' }).click()
      await ui.chat().getByText('a.txt holds one line.').waitFor({ timeout: 30_000 })
      expect(await ui.chat().getByTestId('message-error').count()).toBe(1)
      expect(await ui.chat().getByRole('button', { name: 'Retry' }).count()).toBe(0)
      await screenshot(page, 'errors-03-retried')
      expect(ui.errors.join('\n')).toBe('')
    } finally {
      await ui.close()
    }
  })
})
