import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { startFakeLlm } from '../fixtures/fake-llm'
import { screenshot, useBrowser, watchErrors } from '../support/browser'
import { startServe, type Served } from '../support/cli'
import { until } from '../support/until'
import { tempDir, writeTree } from '../support/temp'

const chat = (page: Page): Locator => page.locator('[data-testid="project-view"][data-active="true"] [data-testid="chat-panel"]')

async function send(page: Page, text: string): Promise<void> {
  const input = chat(page).getByRole('textbox').last()
  await input.fill(text)
  await input.press('Enter')
}

describe('first steps without an API key, in Chromium', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('offers "Add key" and "Use a local model", shows a failed first message once, and runs on the local model picked', { timeout: 180_000 }, async () => {
    const home = tempDir('hotaru-e2e-home-')
    const project = writeTree(tempDir('hotaru-e2e-onboard-'), { 'README.md': '# demo\n' })
    // LM Studio's port: a server that was closed again, so nothing answers there.
    const gone = await startFakeLlm()
    const goneURL = gone.openaiBaseURL
    await gone.close()
    const env = {
      HOTARU_DATA_DIR: tempDir('hotaru-e2e-data-'),
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      ANTHROPIC_API_KEY: undefined,
      OPENAI_API_KEY: undefined,
      ANTHROPIC_BASE_URL: shared.fake.anthropicBaseURL,
      // The local runtime under test: the fake server, where Ollama would listen.
      OLLAMA_BASE_URL: shared.fake.openaiBaseURL,
      LMSTUDIO_BASE_URL: goneURL,
      HOTARU_CONFIG_CONTENT: JSON.stringify({ permission: { bash: 'allow' } }),
      SHELL: '/bin/bash',
    }
    const served: Served = await startServe(['--port', '0'], env)
    const page = await shared.browser.newPage({ viewport: { width: 1400, height: 860 } })
    const errors = watchErrors(page)
    try {
      await page.goto(served.url)
      await page.getByText('Connected').waitFor()
      await page.getByTestId('open-path-input').fill(project)
      await page.getByTestId('open-path-submit').click()
      await chat(page).getByTestId('chat-empty').waitFor()

      // Before anything is sent: which provider needs a key, and the two ways on.
      const notice = chat(page).getByRole('status').filter({ hasText: 'needs an API key' })
      await notice.getByText('Anthropic').waitFor()
      await notice.getByRole('button', { name: 'Add key' }).waitFor()
      await notice.getByRole('button', { name: 'Use a local model' }).waitFor()
      await screenshot(page, 'onboarding-01-no-key')

      // Sent anyway: the error shows once, with the same actions.
      await send(page, 'hello')
      const failure = chat(page).getByRole('alert').filter({ hasText: 'No API key for Anthropic' })
      await failure.waitFor()
      await failure.getByRole('button', { name: 'Add key' }).waitFor()
      // Once the turn has ended (when a second copy used to arrive), it is still there once.
      await chat(page).getByTestId('agent-activity').waitFor({ state: 'detached' })
      expect(await chat(page).getByText(/No API key for Anthropic/).count()).toBe(1)
      await screenshot(page, 'onboarding-02-no-key-error')

      // "Use a local model": Ollama answers with its models, LM Studio is not running.
      await notice.getByRole('button', { name: 'Use a local model' }).click()
      const local = notice.getByRole('group', { name: 'Local models' })
      await local.getByText(/LM Studio/).waitFor()
      await local.getByText(`not running at ${goneURL}`, { exact: false }).waitFor()
      const pick = local.getByRole('button', { name: 'ollama/fake-local-coder' })
      await pick.waitFor()
      await screenshot(page, 'onboarding-03-local-models')
      // The model picker lists what the runtime serves too.
      expect(await chat(page).getByRole('combobox', { name: 'Model' }).getByRole('option', { name: 'ollama/fake-local-coder' }).count()).toBe(1)
      await pick.click()
      await notice.waitFor({ state: 'detached' })
      expect(await chat(page).getByRole('combobox', { name: 'Model' }).inputValue()).toBe('ollama/fake-local-coder')
      // It is the default for new sessions too, in the user's config file.
      const userConfig = join(home, '.config/hotaru/hotaru.jsonc')
      await until(() => existsSync(userConfig) && readFileSync(userConfig, 'utf8').includes('"model": "ollama/fake-local-coder"'), 'default model written')

      // The next message goes to the local runtime; its long command output shows head and tail.
      shared.fake.enqueue({ toolCalls: [{ name: 'bash', args: { command: 'seq 1 3000', description: 'Count to 3000' } }] }, { text: 'Counted with the local model.' })
      await send(page, 'count')
      await chat(page).getByText('Counted with the local model.').waitFor()
      const request = shared.fake.requests.filter((r) => r.api === 'openai').at(-1)
      expect((request?.body as { model?: string } | undefined)?.model).toBe('fake-local-coder')
      const card = chat(page).getByRole('button', { name: /seq 1 3000/ })
      if ((await card.getAttribute('aria-expanded')) !== 'true') await card.click()
      await chat(page).getByText(/lines? not shown/).waitFor()
      await chat(page).getByRole('button', { name: 'Show full output' }).waitFor()
      await screenshot(page, 'onboarding-04-long-output')
      await chat(page).getByRole('button', { name: 'Show full output' }).click()
      await chat(page).getByText(/^1500$/m).waitFor({ state: 'attached' })
      expect(errors).toEqual([])
    } finally {
      await page.close()
      await served.stop()
    }
  })
})
