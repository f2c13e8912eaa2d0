import { realpathSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { PreviewConsoleEntry } from '@shared/schema/preview'
import { CdpDriver } from '../../../src/main/core/preview/cdp-driver'
import { startStaticServer, type StaticServer } from '../../../src/main/core/preview/static-server'
import { UrlPolicy } from '../../../src/main/core/preview/urls'
import { imageDimensions, sniffImageType } from '../../../src/main/core/images'
import { isAlive } from '../../../src/main/core/process/tree'
import { tempDir, writeTree } from '../../support/temp'
import { until } from '../../support/until'

const CHROMIUM = process.env.HOTARU_CHROMIUM ?? '/usr/bin/chromium'

const PAGE = `<!doctype html>
<html><body style="margin:0">
<h1 id="title">Counter</h1>
<button onclick="document.getElementById('title').textContent = 'Clicked ' + document.querySelector('input').value">Press me</button>
<label>Name <input id="name"></label>
<form onsubmit="event.preventDefault(); document.getElementById('title').textContent = 'Sent'"><input id="q" placeholder="Search"></form>
<div id="box" style="width:300px;height:120px;background:#c00"></div>
<script>
console.error('boom: broken widget')
console.log('hello', 42)
fetch('/missing.json')
</script>
</body></html>`

const opened: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close()
})

async function setUp(): Promise<{ driver: CdpDriver; server: StaticServer; entries: PreviewConsoleEntry[]; url: string }> {
  const root = realpathSync(writeTree(tempDir('hotaru-cdp-'), { 'index.html': PAGE, 'other.html': '<p>other</p>' }))
  const server = await startStaticServer(root, 0)
  opened.push(server)
  const policy = new UrlPolicy(() => ({ preview: server.port, block: null }))
  const entries: PreviewConsoleEntry[] = []
  const driver = await CdpDriver.launch(CHROMIUM, { onConsole: (entry) => entries.push(entry), allows: (url) => policy.allows(url) })
  opened.push(driver)
  const url = `http://127.0.0.1:${server.port}/`
  await driver.navigate(url)
  return { driver, server, entries, url }
}

describe('CdpDriver (headless system Chromium)', () => {
  it('reports console errors, logs and failed requests of the page', async () => {
    const { entries } = await setUp()
    await until(() => entries.some((e) => e.kind === 'request'), 'the 404 was reported')
    expect(entries).toContainEqual(expect.objectContaining({ kind: 'console', level: 'error', text: 'boom: broken widget' }))
    expect(entries).toContainEqual(expect.objectContaining({ kind: 'console', level: 'log', text: 'hello 42' }))
    expect(entries).toContainEqual(expect.objectContaining({ kind: 'request', level: 'error', text: expect.stringMatching(/^404 .*\/missing\.json$/) }))
  })

  it('takes a JPEG of the viewport scaled to the width asked, and of one element', async () => {
    const { driver, url } = await setUp()
    const shot = await driver.screenshot({ maxWidth: 640 })
    expect(sniffImageType(shot.data)).toBe('image/jpeg')
    expect(imageDimensions(shot.data, 'image/jpeg')).toEqual({ width: 640, height: 400 })
    expect(shot).toMatchObject({ width: 640, height: 400, url })
    const box = await driver.screenshot({ target: { selector: '#box' } })
    expect(imageDimensions(box.data, 'image/jpeg')).toEqual({ width: 300, height: 120 })
  })

  it('types into a field found by its label and clicks a button found by its text', async () => {
    const { driver } = await setUp()
    await driver.type({ text: 'Name' }, 'Ada')
    await driver.click({ text: 'Press me' })
    // Found by its new text: the click ran the button's handler with the typed value.
    await driver.screenshot({ target: { text: 'Clicked Ada' } })
    await driver.type({ selector: '#q' }, 'x', { submit: true })
    await driver.screenshot({ target: { text: 'Sent' } })
    await expect(driver.click({ text: 'No such button' })).rejects.toMatchObject({ name: 'PreviewNoElement' })
  })

  it('loads only URLs the preview allows, and closing ends the browser', async () => {
    const { driver, url } = await setUp()
    await driver.navigate(`${url}other.html`)
    expect(await driver.url()).toBe(`${url}other.html`)
    await expect(driver.navigate('http://example.com/')).rejects.toMatchObject({ name: 'PreviewUrlRefused' })
    await expect(driver.navigate('http://127.0.0.1:9/')).rejects.toMatchObject({ name: 'PreviewUrlRefused' })
    const pid = (driver as unknown as { child: { pid: number } }).child.pid
    expect((await driver.memory()).bytes).toBeGreaterThan(10 * 1024 * 1024)
    await driver.close()
    opened.splice(opened.indexOf(driver), 1)
    expect(isAlive(pid)).toBe(false)
  })
})
