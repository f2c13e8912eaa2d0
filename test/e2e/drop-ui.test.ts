import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { screenshot, useBrowser, watchErrors } from '../support/browser'
import { startServe, type Served } from '../support/cli'
import { tempDir, writeTree } from '../support/temp'

describe('dropping a folder on the page in Chromium', () => {
  const shared = useBrowser()

  it('suggests the recent project with the dropped folder’s name, and opens it', { timeout: 120_000 }, async () => {
    const home = tempDir('hotaru-e2e-home-')
    const project = writeTree(tempDir('hotaru-e2e-drop-'), { 'README.md': '# dropped\n' })
    const name = basename(project)
    const env = { HOTARU_DATA_DIR: tempDir('hotaru-e2e-data-'), HOME: home, XDG_CONFIG_HOME: join(home, '.config'), SHELL: '/bin/bash' }
    const served: Served = await startServe(['--port', '0'], env)
    const page = await shared.browser.newPage({ viewport: { width: 1400, height: 860 } })
    const errors = watchErrors(page)
    try {
      await page.goto(served.url)
      await page.getByText('Connected').waitFor()
      // Opened once and closed: now a recent project.
      await page.getByTestId('open-path-input').fill(project)
      await page.getByTestId('open-path-submit').click()
      const tabs = page.getByRole('tablist', { name: 'Projects' })
      await tabs.getByRole('button', { name: `Close ${name}` }).click()
      await tabs.getByText(name).waitFor({ state: 'detached' })

      // The browser gives the page the dropped folder's name only.
      await page.evaluate(`(() => {
        const data = new DataTransfer()
        data.items.add(new File([''], ${JSON.stringify(name)}))
        for (const type of ['dragenter', 'dragover', 'drop']) window.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }))
      })()`)
      const dialog = page.getByRole('dialog', { name: 'Open Folder' })
      await dialog.getByText(`“${name}” has the name of a recent project, ${project}`).waitFor()
      expect(await dialog.getByLabel('Folder path').inputValue()).toBe(project)
      await screenshot(page, 'drop-01-recent-project-suggested')
      await dialog.getByRole('button', { name: 'Open' }).click()
      await tabs.getByText(name).waitFor()
      await page.getByText('README.md').first().waitFor()
      expect(errors).toEqual([])
    } finally {
      await page.close()
      await served.stop()
    }
  })
})
