/**
 * Memory of the Preview pane (headless Chromium against `hotaru serve`, the built app): the UI page's JS heap and
 * the browser's total memory (PSS of all its processes, from /proc) before the pane opens, with the pane showing
 * a small static page (its own renderer process: the preview origin is another site), and after it closed.
 * Prints progress on stderr and one JSON object as the last line of stdout. Needs `npm run build` first.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { PREVIEW_SITE, startStaticSite } from '../test/fixtures/preview-site/server'
import { launchBrowser } from '../test/support/browser'
import { startServe } from '../test/support/cli'

const tempDir = (prefix: string): string => mkdtempSync(join(tmpdir(), prefix))
function writeTree(root: string, files: Record<string, string>): string {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text)
  return root
}
const log = (...args: unknown[]): void => console.error('[bench:preview-pane]', ...args)

/** Memory (PSS) of every Chromium process (the browser and its children), in bytes. */
function chromiumRss(): { bytes: number; processes: number } {
  let bytes = 0
  let processes = 0
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(join('/proc', pid, 'cmdline'), 'utf8')
      if (!cmdline.includes('chromium') || !cmdline.includes('playwright')) continue
      // Proportional set size: shared pages are split between the processes that map them, not counted in each.
      const rss = /Pss:\s+(\d+) kB/.exec(readFileSync(join('/proc', pid, 'smaps_rollup'), 'utf8'))
      if (!rss) continue
      bytes += Number(rss[1]) * 1024
      processes += 1
    } catch (error) {
      // A process that ended between the listing and the read is simply not counted.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ESRCH') throw error
    }
  }
  return { bytes, processes }
}

async function uiHeap(page: Page): Promise<number> {
  const session = await page.context().newCDPSession(page)
  await session.send('Performance.enable')
  await session.send('HeapProfiler.collectGarbage')
  const { metrics } = await session.send('Performance.getMetrics')
  await session.detach()
  return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0
}

async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(1500)
}

async function main(): Promise<void> {
  const project = writeTree(tempDir('hotaru-bench-preview-'), PREVIEW_SITE)
  const site = await startStaticSite(project)
  const home = tempDir('hotaru-bench-home-')
  const served = await startServe(['--port', '0', '--dir', project], { HOTARU_DATA_DIR: tempDir('hotaru-bench-data-'), HOME: home, XDG_CONFIG_HOME: join(home, '.config') })
  const { browser, close } = await launchBrowser()
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 900 } })
    await page.goto(served.url)
    await page.getByTestId('preview-toggle').waitFor()
    await settle(page)
    const before = { heap: await uiHeap(page), ...chromiumRss() }
    log('before', before)
    await page.getByTestId('preview-toggle').click()
    const address = page.getByTestId('preview-address')
    await address.fill(`127.0.0.1:${site.port}`)
    await address.press('Enter')
    await page.frameLocator('[data-testid="preview-frame"]').locator('#greeting').waitFor()
    await settle(page)
    const open = { heap: await uiHeap(page), ...chromiumRss() }
    log('open', open)
    await page.getByRole('button', { name: 'Close preview' }).click()
    await settle(page)
    const closed = { heap: await uiHeap(page), ...chromiumRss() }
    log('closed', closed)
    console.log(
      JSON.stringify({
        bench: 'preview-pane',
        uiHeapBytes: { before: before.heap, open: open.heap, closed: closed.heap, paneDelta: open.heap - before.heap },
        browserPssBytes: { before: before.bytes, open: open.bytes, closed: closed.bytes, paneDelta: open.bytes - before.bytes, closedDelta: closed.bytes - before.bytes },
        browserProcesses: { before: before.processes, open: open.processes, closed: closed.processes },
      }),
    )
  } finally {
    await close()
    await served.stop()
    await site.close()
  }
}

await main()
