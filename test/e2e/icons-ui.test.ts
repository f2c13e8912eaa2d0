import { describe, expect, it } from 'vitest'
import { screenshot, useBrowser } from '../support/browser'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'

/** Characters the interface used to draw icons with (⑂ has no glyph in common Linux fonts). */
const GLYPHS = /[☰↺⋯⚙⑂■✎✕⨯⚠▾▸]/

describe('icons in Chromium (hotaru serve)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('draws the interface with codicons and shows file-type icons in the tree, the editor tabs and Quick Open', { timeout: 120_000 }, async () => {
    const project = writeTree(tempDir('hotaru-e2e-icons-'), {
      'src/main.ts': 'export const main = 1\n',
      'README.md': '# Icons\n',
      'package.json': '{"name":"icons"}\n',
      'run.sh': 'echo hi\n',
      'notes': 'plain\n',
    })
    const ui = await servedPage(shared)
    const { page } = ui
    try {
      await ui.openProject(project)
      const header = ui.chat().locator('.chat-header')
      // The header's buttons are codicons, named for screen readers, with no glyph characters left.
      for (const [name, icon] of [
        ['Sessions', 'menu'],
        ['New session', 'add'],
        ['Settings', 'settings-gear'],
      ] as const) {
        expect(await header.getByRole('button', { name }).locator(`.codicon-${icon}`).count()).toBe(1)
      }
      expect(await header.innerText()).not.toMatch(GLYPHS)
      expect(await page.getByTestId('problem-counts').locator('.codicon-error').count()).toBe(1)

      const tree = ui.view().getByTestId('file-tree')
      await tree.locator('[data-path="README.md"]').waitFor()
      const iconOf = (path: string) => tree.locator(`[data-path="${path}"] .file-icon`).getAttribute('data-icon')
      expect(await iconOf('src')).toBe('folder')
      expect(await iconOf('README.md')).toBe('markdown')
      expect(await iconOf('package.json')).toBe('package')
      expect(await iconOf('run.sh')).toBe('terminal')
      expect(await iconOf('notes')).toBe('file')
      // Icons are drawn from the codicon font: the glyph has a width (a missing font would leave an empty box of 0).
      const width = await tree.locator('[data-path="README.md"] .file-icon .codicon').evaluate((el) => el.getBoundingClientRect().width)
      expect(width).toBeGreaterThan(8)
      await tree.locator('[data-path="src"]').click()
      expect(await iconOf('src')).toBe('folder-opened')
      await tree.locator('[data-path="src/main.ts"]').click()
      const tab = ui.view().locator('.editor-tab[data-path="src/main.ts"]')
      await tab.waitFor()
      expect(await tab.locator('.file-icon').getAttribute('data-icon')).toBe('file-code')
      expect(await tab.locator('.tab-close .codicon-close').count()).toBe(1)
      await screenshot(page, 'icons-00-tree-and-tabs')

      await page.locator('body').click({ position: { x: 5, y: 5 } })
      await page.keyboard.press('Control+P')
      const quick = page.getByRole('dialog', { name: 'Go to file' })
      await quick.getByRole('combobox', { name: 'File name' }).fill('pack')
      const option = quick.getByRole('option', { name: 'package.json' })
      await option.waitFor()
      expect(await option.locator('.file-icon').getAttribute('data-icon')).toBe('package')
      await screenshot(page, 'icons-01-quick-open')
      await page.keyboard.press('Escape')
      expect(ui.errors.join('\n')).toBe('')
    } finally {
      await ui.close()
    }
  })
})
