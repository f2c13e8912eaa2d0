import { describe, expect, it } from 'vitest'
import { screenshot, useBrowser } from '../support/browser'
import { servedPage } from '../support/served-page'
import { tempDir } from '../support/temp'
import { until } from '../support/until'

describe('background processes in the status bar (hotaru serve + fake LLM)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('lists a command the agent started in the background with its output, and Stop ends it', { timeout: 120_000 }, async () => {
    // The user's own config allows bash, so no ask comes in between.
    const served = await servedPage(shared, { userConfig: { permission: { bash: 'allow' } }, viewport: { width: 1400, height: 900 } })
    const { page, errors, chat } = served
    try {
      await served.openProject(tempDir('hotaru-e2e-proc-'))
      expect(await page.getByTestId('processes-button').count()).toBe(0)

      shared.fake.enqueue(
        { toolCalls: [{ name: 'bash', args: { command: 'echo dev server listening; sleep 300', description: 'Start the dev server', background: true } }] },
        { text: 'It runs.' },
      )
      const input = chat().getByTestId('chat-input')
      await input.fill('start the dev server')
      await input.press('Enter')
      await chat().getByText('It runs.').waitFor({ timeout: 30_000 })

      const button = page.getByRole('button', { name: 'Background processes (1 running)' })
      await button.waitFor()
      await button.click()
      const panel = page.getByRole('dialog', { name: 'Background processes' })
      const row = panel.getByRole('listitem').filter({ hasText: 'Start the dev server' })
      expect(await row.innerText()).toContain('running')
      await row.getByRole('button', { name: 'Output' }).click()
      await until(async () => (await row.innerText()).includes('dev server listening'), 'the output is shown', 10_000)
      await screenshot(page, 'processes-01-running')

      await row.getByRole('button', { name: 'Stop' }).click()
      await until(async () => (await row.getAttribute('data-status')) === 'killed', 'the process is stopped', 15_000)
      expect(await row.innerText()).toContain('stopped')
      await page.getByRole('button', { name: 'Background processes (0 running)' }).waitFor()
      await screenshot(page, 'processes-02-stopped')
      expect(errors).toEqual([])
    } catch (error) {
      await screenshot(page, 'processes-failure').catch(() => undefined)
      console.error('page errors:', errors, '\nserve stderr:', served.served.stderr().slice(-3000))
      throw error
    } finally {
      await served.close()
    }
  })
})
