import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startStaticSite, PREVIEW_SITE } from '../fixtures/preview-site/server'
import { screenshot, useBrowser } from '../support/browser'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'
import { until } from '../support/until'

describe('the Preview pane (hotaru serve in Chromium)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('shows the dev server page with its console error, reloads on a file change, goes back, sizes to a phone and sends other sites to a new tab', { timeout: 120_000 }, async () => {
    const project = writeTree(tempDir('hotaru-e2e-preview-'), PREVIEW_SITE)
    const site = await startStaticSite(project)
    const served = await servedPage(shared, { viewport: { width: 1600, height: 900 } })
    const { page, errors } = served
    try {
      // The UI frames nothing but this server's preview origin.
      const ui = await fetch(served.served.url)
      const csp = ui.headers.get('content-security-policy') ?? ''
      const port = new URL(served.served.url).port
      expect(csp).toContain(`frame-src http://*.localhost:${port};`)
      expect(csp).toContain("script-src 'self';")

      await served.openProject(project)
      await page.getByTestId('preview-toggle').click()
      const pane = page.getByTestId('preview-pane')
      await pane.waitFor()
      const frame = page.frameLocator('[data-testid="preview-frame"]')

      // Start: the folder's index.html is served by the built-in static server (it runs no code of the restricted folder).
      await pane.getByTestId('preview-server').click()
      await frame.locator('#greeting').waitFor()
      expect(await pane.getByTestId('preview-server').innerText()).toBe('Stop')
      await pane.getByTestId('preview-server').click()
      await until(async () => (await pane.getByTestId('preview-server').innerText()) === 'Start', 'the server stops', 10_000)

      // The address bar: a dev server the user runs elsewhere.
      const address = pane.getByTestId('preview-address')
      await address.fill(`127.0.0.1:${site.port}`)
      await address.press('Enter')

      await until(async () => (await pane.getByTestId('preview-frame').getAttribute('src')) === `http://p${site.port}.localhost:${new URL(served.served.url).port}/`, 'the typed address loads', 10_000)
      await frame.locator('#greeting').waitFor()
      expect(await frame.locator('#greeting').innerText()).toBe('Hello from the fixture')
      const status = pane.getByTestId('preview-status')
      await until(async () => (await status.innerText()) === 'Fixture shop', 'the page title is shown', 10_000)
      expect(await address.inputValue()).toBe(site.url)
      // The frame loads the page through the preview origin, not the dev server's port directly.
      const src = await pane.getByTestId('preview-frame').getAttribute('src')
      expect(src).toBe(`http://p${site.port}.localhost:${port}/`)

      const toggle = pane.getByTestId('preview-console-toggle')
      await until(async () => (await toggle.innerText()).includes('⨯ 1'), 'the console error is counted', 10_000)
      await toggle.click()
      const entries = pane.getByTestId('preview-console-entry')
      expect(await entries.first().innerText()).toContain('fixture: price is undefined')
      expect(await entries.first().getAttribute('data-level')).toBe('error')
      await screenshot(page, 'preview-01-page-and-console')

      // Saving a file of the project reloads the page.
      writeFileSync(join(project, 'index.html'), PREVIEW_SITE['index.html']!.replace('Hello from the fixture', 'Hello after the edit'))
      await until(async () => (await frame.locator('#greeting').innerText().catch(() => '')) === 'Hello after the edit', 'the page reloads after the edit', 20_000)

      // Without auto-reload, the Reload button shows the next change.
      await pane.getByRole('button', { name: 'Auto-reload' }).click()
      writeFileSync(join(project, 'index.html'), PREVIEW_SITE['index.html']!.replace('Hello from the fixture', 'Hello after reload'))
      await pane.getByRole('button', { name: 'Reload', exact: true }).click()
      await until(async () => (await frame.locator('#greeting').innerText().catch(() => '')) === 'Hello after reload', 'Reload shows the change', 20_000)
      await screenshot(page, 'preview-02-reloaded')

      // A link of the page's own site stays in the pane; Back returns.
      await frame.locator('#about').click()
      await frame.locator('#about-title').waitFor()
      await until(async () => (await address.inputValue()) === `${site.url}about.html`, 'the address follows the page', 10_000)
      const back = pane.getByRole('button', { name: 'Back' })
      await until(async () => back.isEnabled(), 'Back is enabled', 10_000)
      await back.click()
      await frame.locator('#greeting').waitFor()

      // Device preset: the page is laid out 390 px wide.
      await pane.getByTestId('preview-device').selectOption('phone')
      const box = await pane.getByTestId('preview-device-box').boundingBox()
      expect(box?.width).toBe(390)
      await pane.getByRole('button', { name: 'Reload', exact: true }).click()
      await until(async () => (await frame.locator('#width').innerText().catch(() => '')) === 'width 390', 'the page is 390 px wide', 20_000)
      await screenshot(page, 'preview-03-phone')

      // A link to another site opens a browser tab; the pane keeps the project's page. (The other site is answered here: no network.)
      await page.context().route(/^https?:\/\/example\.invalid\//, (route) => route.fulfill({ contentType: 'text/plain', body: 'another site' }))
      const popup = page.context().waitForEvent('page')
      await frame.locator('#docs').click()
      expect((await popup).url()).toBe('http://example.invalid/docs')
      await (await popup).close()
      expect(await frame.locator('#greeting').isVisible()).toBe(true)

      // So does an address of another site typed into the bar.
      const typed = page.context().waitForEvent('page')
      await address.fill('example.invalid/page')
      await address.press('Enter')
      expect((await typed).url()).toBe('https://example.invalid/page')
      await (await typed).close()
      await until(async () => (await address.inputValue()).startsWith(site.url), 'the address bar shows the page again', 10_000)

      // Closing the pane unloads the page; opening it again reloads the last address.
      await pane.getByRole('button', { name: 'Close preview' }).click()
      expect(await page.getByTestId('preview-frame').count()).toBe(0)
      await page.keyboard.press('Control+Alt+KeyP')
      await frame.locator('#greeting').waitFor()
      // The fixture's own console errors are expected; nothing else may fail.
      expect(errors.filter((e) => !e.includes('fixture: price is undefined'))).toEqual([])
    } catch (error) {
      await screenshot(page, 'preview-failure').catch(() => undefined)
      console.error('page errors:', errors, '\nserve stderr:', served.served.stderr().slice(-3000))
      throw error
    } finally {
      await served.close()
      await site.close()
    }
  })
})
