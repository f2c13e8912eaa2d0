import { renameSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { screenshot, useBrowser } from '../support/browser'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'

describe('a project whose folder goes away (hotaru serve)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('shows the tab as missing while the folder is renamed away, recovers when it is back, and locates it at a new path', { timeout: 120_000 }, async () => {
    const parent = tempDir('hotaru-e2e-missing-')
    const root = writeTree(join(parent, 'app'), { 'README.md': '# app\n', 'src/main.ts': 'export {}\n' })
    const other = writeTree(join(parent, 'other'), { 'a.txt': 'a\n' })
    const served = await servedPage(shared, { viewport: { width: 1400, height: 900 } })
    const { page, errors, view, chat } = served
    const tab = page.locator('[role="tab"]', { hasText: /^app/ })
    const panel = page.getByTestId('missing-project')
    try {
      await served.openProject(other)
      await served.openProject(root)
      await view().getByText('README.md').waitFor()

      renameSync(root, join(parent, 'app-moved'))
      await panel.waitFor({ timeout: 20_000 })
      expect(await panel.innerText()).toContain(`The folder ${root} is no longer there`)
      expect(await tab.getAttribute('data-missing')).toBe('true')
      expect(await tab.locator('.codicon-warning').count()).toBe(1)
      expect(await chat().getByTestId('chat-input').isDisabled()).toBe(true)
      await screenshot(page, 'missing-project-01-missing')

      renameSync(join(parent, 'app-moved'), root)
      await panel.waitFor({ state: 'detached', timeout: 20_000 })
      expect(await tab.getAttribute('data-missing')).toBe('false')
      expect(await chat().getByTestId('chat-input').isDisabled()).toBe(false)
      await view().getByText('README.md').waitFor()
      await screenshot(page, 'missing-project-02-recovered')

      // Moved for good: Locate… asks for the new path (no native dialog in a browser) and keeps the tab's place.
      const moved = join(parent, 'app-moved')
      renameSync(root, moved)
      await panel.waitFor({ timeout: 20_000 })
      await panel.getByRole('button', { name: 'Locate…' }).click()
      const input = page.getByTestId('open-path-dialog-input')
      await input.fill(moved)
      await page.getByTestId('open-path-dialog').getByRole('button', { name: 'Locate' }).click()
      const located = page.locator('[role="tab"]', { hasText: /^app-moved/ })
      await located.waitFor()
      await panel.waitFor({ state: 'detached' })
      expect(await page.locator('[role="tab"] .tab-name').allInnerTexts()).toEqual(['other', 'app-moved'])
      expect(await located.getAttribute('aria-selected')).toBe('true')
      await view().getByText('README.md').waitFor()
      await screenshot(page, 'missing-project-03-located')
      expect(errors).toEqual([])
    } catch (error) {
      await screenshot(page, 'missing-project-failure').catch(() => undefined)
      console.error('page errors:', errors, '\nserve stderr:', served.served.stderr().slice(-3000))
      throw error
    } finally {
      await served.close()
    }
  })
})
