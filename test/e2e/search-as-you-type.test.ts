import { describe, expect, it } from 'vitest'
import { screenshot, useBrowser } from '../support/browser'
import { until } from '../support/until'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'

describe('find in files from the keyboard (Chromium through serve)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('searches as you type, ↓ walks into the results, and Enter on a result shows its file’s inactive tab at the line', { timeout: 120_000 }, async () => {
    const project = writeTree(tempDir('hotaru-e2e-search-keys-'), {
      'a.ts': 'export const a = 1\n// the needle lives here\n',
      'b.ts': 'export const b = 2\n',
    })
    const ui = await servedPage(shared)
    const { page, errors } = ui
    try {
      await ui.openProject(project)
      const tree = ui.view().getByTestId('file-tree')
      await tree.locator('[data-path="a.ts"]').click()
      await ui.view().locator('[data-testid="code-editor"][data-path="a.ts"]').waitFor()
      await tree.locator('[data-path="b.ts"]').click()
      await ui.view().locator('[data-testid="code-editor"][data-path="b.ts"]').waitFor()
      const tabA = ui.view().locator('.editor-tab[data-path="a.ts"]')
      expect(await tabA.getAttribute('aria-selected')).toBe('false')

      await page.keyboard.press('Control+Shift+F')
      const search = page.getByRole('region', { name: 'Find in files' })
      const box = search.getByRole('textbox', { name: 'Search' })
      await box.waitFor()
      await box.pressSequentially('needle')
      // No Enter: the results come once typing pauses.
      await search.getByText('1 result in 1 file').waitFor()
      await screenshot(page, 'search-keys-01-results-as-typed')

      await box.press('ArrowDown')
      const head = search.locator('button.search-file-head')
      await until(async () => await head.evaluate((el) => el === el.ownerDocument.activeElement), 'file row focused')
      await page.keyboard.press('ArrowDown')
      const line = search.getByRole('button', { name: /needle lives here/ })
      await until(async () => await line.evaluate((el) => el === el.ownerDocument.activeElement), 'result row focused')
      await page.keyboard.press('ArrowUp')
      await page.keyboard.press('ArrowUp')
      await until(async () => await box.evaluate((el) => el === el.ownerDocument.activeElement), 'back in the search box')
      await page.keyboard.press('ArrowDown')
      await page.keyboard.press('ArrowDown')
      await page.keyboard.press('Enter')

      await ui.view().locator('[data-testid="code-editor"][data-path="a.ts"]').waitFor()
      await until(async () => (await tabA.getAttribute('aria-selected')) === 'true', 'a.ts tab active')
      await screenshot(page, 'search-keys-02-result-opened-inactive-tab')
      expect(errors).toEqual([])
    } finally {
      await ui.close()
    }
  })
})
