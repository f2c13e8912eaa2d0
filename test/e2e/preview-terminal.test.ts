import { describe, expect, it } from 'vitest'
import { screenshot, useBrowser } from '../support/browser'
import { runHotaru } from '../support/cli'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'
import { until } from '../support/until'

const SERVER = `require('node:http').createServer((req, res) => { console.log('served ' + req.url); res.end('<h1 id="hello">hello</h1>') }).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening on ' + process.env.PORT))\n`

describe('a dev server started from the Preview pane (hotaru serve in Chromium)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('shows its output in a terminal tab of its own, without a reload', { timeout: 120_000 }, async () => {
    const project = writeTree(tempDir('hotaru-e2e-preview-term-'), {
      'package.json': JSON.stringify({ name: 'site', private: true, scripts: { dev: 'node server.js' } }),
      'server.js': SERVER,
    })
    const dataDir = tempDir('hotaru-e2e-data-')
    // The folder's own script runs only once the folder is trusted.
    expect((await runHotaru(['trust', '--dir', project], { ...process.env, HOTARU_DATA_DIR: dataDir })).code).toBe(0)
    const served = await servedPage(shared, { env: { HOTARU_DATA_DIR: dataDir }, viewport: { width: 1600, height: 900 } })
    const { page, errors } = served
    try {
      await served.openProject(project)
      const terminals = served.view().getByTestId('terminal-panel').getByRole('tab')
      const before = await terminals.count()
      await page.getByTestId('preview-toggle').click()
      const pane = page.getByTestId('preview-pane')
      await pane.getByTestId('preview-server').click()
      await page.frameLocator('[data-testid="preview-frame"]').locator('#hello').waitFor({ timeout: 30_000 })
      // The dev server's terminal appeared without a reload, holding what it printed.
      await until(async () => (await terminals.count()) === before + 1, 'the dev server terminal tab shows up', 15_000)
      await screenshot(page, 'preview-terminal-01-dev-server-tab')
      await pane.getByTestId('preview-server').click()
      await until(async () => (await pane.getByTestId('preview-server').innerText()) === 'Start', 'the server stops', 15_000)
      expect(errors).toEqual([])
    } finally {
      await page.close()
      await served.served.stop()
    }
  })
})
