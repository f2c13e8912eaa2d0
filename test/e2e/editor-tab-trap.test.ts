import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { screenshot, useBrowser } from '../support/browser'
import { until } from '../support/until'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'

/** Whether keyboard focus is inside the code editor. */
async function focusInEditor(page: Page): Promise<boolean> {
  return (await page.evaluate('document.activeElement?.closest(\'[data-testid="code-editor"]\') != null')) === true
}

describe('Tab does not trap focus in the editor (Chromium through serve)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('Esc then Tab leaves the editor, Ctrl+M makes Tab move focus until pressed again, Esc closing find keeps Tab in', { timeout: 120_000 }, async () => {
    const project = writeTree(tempDir('hotaru-e2e-tabtrap-'), { 'a.ts': 'export const a = 1\n' })
    const ui = await servedPage(shared)
    const { page, errors } = ui
    try {
      await ui.openProject(project)
      await ui.view().getByTestId('file-tree').locator('[data-path="a.ts"]').click()
      const editor = ui.view().locator('[data-testid="code-editor"][data-path="a.ts"]')
      const lines = editor.locator('.view-lines')
      await until(async () => (await lines.innerText()).includes('export'), 'file in the editor')
      await lines.click()
      await page.keyboard.press('Control+Home')

      // Tab alone is the editor's: it indents and focus stays.
      await page.keyboard.press('Tab')
      expect(await focusInEditor(page)).toBe(true)
      await until(async () => /^\s+export/.test(await lines.innerText()), 'Tab indented the line')

      // Esc with nothing open, then Tab: focus moves on.
      await page.keyboard.press('Escape')
      await page.keyboard.press('Tab')
      await until(async () => !(await focusInEditor(page)), 'Tab after Esc left the editor')
      await screenshot(page, 'tabtrap-01-esc-tab-left-editor')

      // The release is one-shot: back in the editor, Tab indents again.
      await lines.click()
      await page.keyboard.press('Control+Home')
      const before = await lines.innerText()
      await page.keyboard.press('Tab')
      expect(await focusInEditor(page)).toBe(true)
      await until(async () => (await lines.innerText()) !== before, 'Tab indented again')

      // An Esc that closes the find widget is the widget's: the next Tab stays in the editor.
      await page.keyboard.press('Control+f')
      await editor.locator('.find-widget.visible').waitFor()
      await page.keyboard.press('Escape')
      await editor.locator('.find-widget.visible').waitFor({ state: 'detached' })
      await until(() => focusInEditor(page), 'focus back in the editor after find closed')
      await page.keyboard.press('Tab')
      expect(await focusInEditor(page)).toBe(true)

      // Ctrl+M: Tab moves focus, every time, until Ctrl+M again.
      await page.keyboard.press('Control+m')
      await page.keyboard.press('Tab')
      await until(async () => !(await focusInEditor(page)), 'Tab left the editor with Ctrl+M on')
      await lines.click()
      await page.keyboard.press('Shift+Tab')
      await until(async () => !(await focusInEditor(page)), 'Shift+Tab left the editor with Ctrl+M on')
      await screenshot(page, 'tabtrap-02-ctrl-m-tab-moves-focus')
      await lines.click()
      await page.keyboard.press('Control+m')
      await page.keyboard.press('Tab')
      expect(await focusInEditor(page)).toBe(true)
      expect(errors).toEqual([])
    } finally {
      await ui.close()
    }
  })
})
