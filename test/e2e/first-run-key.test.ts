import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { screenshot, useBrowser, watchErrors } from '../support/browser'
import { startServe, type Served } from '../support/cli'
import { tempDir, writeTree } from '../support/temp'

/** The label of the element that has the keyboard focus. */
function focusedLabel(page: import('playwright-core').Page): Promise<string | null> {
  return page.evaluate("document.activeElement?.getAttribute('aria-label') ?? null") as Promise<string | null>
}

describe('first run without an API key, in Chromium', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('the welcome leads to the key field; a message sent without a key fails once, in plain words, with a button to the key field', { timeout: 180_000 }, async () => {
    const home = tempDir('hotaru-e2e-home-')
    const project = writeTree(tempDir('hotaru-e2e-firstrun-'), { 'README.md': '# demo\n' })
    const env = {
      HOTARU_DATA_DIR: tempDir('hotaru-e2e-data-'),
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      ANTHROPIC_API_KEY: undefined,
      OPENAI_API_KEY: undefined,
      ANTHROPIC_BASE_URL: shared.fake.anthropicBaseURL,
      SHELL: '/bin/bash',
    }
    const served: Served = await startServe(['--port', '0'], env)
    const page = await shared.browser.newPage({ viewport: { width: 1400, height: 860 } })
    const errors = watchErrors(page)
    try {
      await page.goto(served.url)
      await page.getByText('Connected').waitFor()

      // The welcome says a model is needed, before any folder is open.
      const setup = page.getByTestId('welcome-setup')
      await setup.getByText('Connect a model').waitFor()
      await setup.getByRole('button', { name: 'Use a local model' }).waitFor()
      await screenshot(page, 'first-run-00-welcome')
      await setup.getByRole('button', { name: 'Add Anthropic API key' }).click()
      const settings = page.getByTestId('settings-dialog')
      await settings.getByLabel('Anthropic API key').waitFor()
      expect(await focusedLabel(page)).toBe('Anthropic API key')
      await screenshot(page, 'first-run-01-key-field')
      await settings.getByRole('button', { name: 'Done' }).click()

      // Sent anyway: one error, in plain words; the config details wait behind "Details".
      await page.getByTestId('open-path-input').fill(project)
      await page.getByTestId('open-path-submit').click()
      const chat = page.locator('[data-testid="project-view"][data-active="true"]').getByTestId('chat-panel')
      await chat.getByTestId('chat-empty').waitFor()
      const input = chat.getByTestId('chat-input')
      await input.fill('hello')
      await input.press('Enter')
      const failure = chat.getByTestId('message-error')
      await failure.waitFor()
      expect(await failure.locator('.msg-error-text').innerText()).toBe(
        'Anthropic needs an API key before it can answer. Add one, or use a model that runs on this computer.',
      )
      expect(await failure.getByTestId('error-details').isVisible()).toBe(false)
      await chat.getByTestId('agent-activity').waitFor({ state: 'detached' })
      expect(await chat.getByRole('alert').count()).toBe(1)
      await screenshot(page, 'first-run-02-no-key-error')

      // Its "Add key" lands in the key field, where a key is saved; then the message goes through.
      await failure.getByRole('button', { name: 'Add key' }).click()
      await settings.getByLabel('Anthropic API key').waitFor()
      expect(await focusedLabel(page)).toBe('Anthropic API key')
      await page.keyboard.type('sk-ant-test-key')
      await page.keyboard.press('Enter')
      await settings.getByText(/Key saved/).waitFor()
      await settings.getByRole('button', { name: 'Done' }).click()
      shared.fake.enqueue({ text: 'Hello with a key.' })
      await failure.getByRole('button', { name: 'Retry' }).click()
      await chat.getByText('Hello with a key.').waitFor({ timeout: 30_000 })
      await screenshot(page, 'first-run-03-answered')
      // The welcome no longer asks for a key.
      expect(errors).toEqual([])
    } finally {
      await page.close()
      await served.stop()
    }
  })
})
