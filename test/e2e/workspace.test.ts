import { describe, expect, it } from 'vitest'
import { startServe, type Served } from '../support/cli'
import { screenshot, useBrowser, watchErrors } from '../support/browser'
import { tempDir, writeTree } from '../support/temp'

describe('workspace in the browser UI (hotaru serve + Chromium)', () => {
  const shared = useBrowser()

  it('opens a project, lists its files, and still knows it after a reload', async () => {
    const dataDir = tempDir()
    const project = writeTree(tempDir('hotaru-e2e-project-'), {
      '.gitignore': 'dist/\n',
      'README.md': '# Demo project\n',
      'src/index.ts': 'export const answer = 42\n',
      'dist/bundle.js': '',
    })
    const name = project.split('/').at(-1) as string
    const served: Served = await startServe(['--port', '0'], { HOTARU_DATA_DIR: dataDir })
    const page = await shared.browser.newPage()
    const errors = watchErrors(page)
    try {
      await page.goto(served.url)
      await page.getByTestId('welcome').waitFor()
      await page.getByText('Connected').waitFor()
      await screenshot(page, 'workspace-01-welcome')

      await page.getByTestId('open-path-input').fill(project)
      await page.getByTestId('open-path-submit').click()
      const tree = page.getByTestId('file-tree')
      await tree.getByText('README.md').waitFor()
      const rows = await tree.locator('.tree-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')))
      expect(rows).toEqual(['dist', 'src', '.gitignore', 'README.md'])
      expect(await tree.locator('[data-path="dist"]').getAttribute('class')).toContain('ignored')
      await tree.getByText('src').click()
      await tree.getByText('index.ts').click()
      const lines = page.locator('[data-testid="code-editor"][data-path="src/index.ts"] .view-lines')
      await lines.locator('.view-line').first().waitFor()
      expect((await lines.innerText()).replace(/\u00a0/g, ' ')).toContain('export const answer = 42')
      expect(await page.getByRole('tab', { name }).getAttribute('aria-selected')).toBe('true')
      await screenshot(page, 'workspace-02-project')

      // The token was moved out of the address bar; a reload still connects and restores the tab.
      expect(page.url()).not.toContain('token=')
      await page.reload()
      await page.getByTestId('file-tree').getByText('README.md').waitFor()
      await page.getByRole('button', { name: 'Open a folder' }).click()
      const recent = page.getByTestId('recent-list')
      await recent.getByText(name, { exact: true }).waitFor()
      expect(await recent.getByText(project).count()).toBe(1)
      await screenshot(page, 'workspace-03-recent-after-reload')
      expect(errors).toEqual([])
    } finally {
      await page.close()
      await served.stop()
    }
  })

  it('a page without the token shows that it is not authorized and reaches nothing', async () => {
    const served = await startServe(['--port', '0'], { HOTARU_DATA_DIR: tempDir() })
    const page = await shared.browser.newPage()
    try {
      const url = new URL(served.url)
      await page.goto(`${url.origin}/`)
      await page.getByTestId('connection-state').getByText(/token/).waitFor()
      await screenshot(page, 'workspace-04-unauthorized')
    } finally {
      await page.close()
      await served.stop()
    }
  })
})
