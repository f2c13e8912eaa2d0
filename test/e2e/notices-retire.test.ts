import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { screenshot, useBrowser, watchErrors } from '../support/browser'
import { startServe, type Served } from '../support/cli'
import { tempDir, writeTree } from '../support/temp'
import { until } from '../support/until'

describe('notices that retire themselves, in Chromium (hotaru serve)', () => {
  const shared = useBrowser()

  it('the restricted-mode notice goes once the folder is trusted, and the notices panel stays inside the window', { timeout: 120_000 }, async () => {
    const home = tempDir('hotaru-e2e-home-')
    const repo = writeTree(tempDir('hotaru-e2e-retire-'), { 'hotaru.json': JSON.stringify({ permission: { bash: 'allow' } }), 'a.txt': 'a\n' })
    const env = { HOTARU_DATA_DIR: tempDir('hotaru-e2e-data-'), HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ANTHROPIC_API_KEY: 'k' }
    const served: Served = await startServe(['--port', '0'], env)
    const page = await shared.browser.newPage({ viewport: { width: 720, height: 700 } })
    const errors = watchErrors(page)
    try {
      await page.goto(served.url)
      await page.getByText('Connected').waitFor()
      await page.getByTestId('open-path-input').fill(repo)
      await page.getByTestId('open-path-submit').click()
      const prompt = page.getByTestId('trust-prompt')
      await prompt.waitFor()
      await prompt.getByTestId('trust-stay-restricted').click()
      await prompt.waitFor({ state: 'detached' })

      const bell = page.getByRole('button', { name: /^Notices \(\d+\)$/ })
      await until(async () => (await bell.getAttribute('aria-label')) !== 'Notices (0)', 'the restricted notice counted', 30_000)
      await bell.click()
      const panel = page.getByRole('dialog', { name: 'Notices' })
      await panel.getByText(/Restricted mode/).waitFor()
      const box = await panel.boundingBox()
      expect(box).not.toBeNull()
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(720)
      expect(box?.x ?? -1).toBeGreaterThanOrEqual(0)
      await screenshot(page, 'notices-retire-00-restricted')
      await page.keyboard.press('Escape')

      // Trusted from Settings: the notice retires without a dismiss.
      await page.locator('[data-testid="project-view"][data-active="true"] [data-testid="restricted-badge"]').click()
      const section = page.getByTestId('settings-trust')
      await section.getByTestId('trust-toggle').click()
      await until(async () => (await section.getByTestId('trust-current').getAttribute('data-trusted')) === 'true', 'trusted in settings')
      await page.getByTestId('settings-dialog').getByRole('button', { name: 'Done' }).click()
      await until(async () => (await bell.getAttribute('aria-label')) === 'Notices (0)', 'the restricted notice retired', 30_000)
      await screenshot(page, 'notices-retire-01-trusted')
      expect(errors).toEqual([])
    } finally {
      await page.close()
      await served.stop()
    }
  })
})
