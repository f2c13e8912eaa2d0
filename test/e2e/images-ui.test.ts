import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { screenshot, useBrowser } from '../support/browser'
import { JPEG_40x30, pngImage } from '../support/images'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'
import { until } from '../support/until'

const SCREENSHOT = pngImage(64, 48)
const HUGE_SCREENSHOT = pngImage(3000, 2000)

type PageFile = { name: string; type: string; base64: string }

/** Page script: a DataTransfer holding the files (the tests' tsconfig has no DOM types, so scripts are text). */
const transferOf = (files: PageFile[]): string => `(() => {
  const data = new DataTransfer()
  for (const f of ${JSON.stringify(files)}) data.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.type }))
  return data
})()`

/** Pastes image files into the chat input the way the browser does for a copied screenshot. */
async function paste(page: Page, files: PageFile[]): Promise<void> {
  await page.evaluate(`(() => {
    const input = document.querySelector('[data-testid="project-view"][data-active="true"] [data-testid="chat-input"]')
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: ${transferOf(files)}, bubbles: true, cancelable: true }))
  })()`)
}

/** Drags image files from outside the page and drops them on the composer (events at its centre, as Chromium sends them). */
async function dropOnComposer(page: Page, files: PageFile[]): Promise<void> {
  await page.evaluate(`(() => {
    const data = ${transferOf(files)}
    const composer = document.querySelector('[data-testid="project-view"][data-active="true"] [data-testid="composer"]')
    const box = composer.getBoundingClientRect()
    const at = { clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 }
    for (const type of ['dragenter', 'dragover', 'drop']) composer.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true, ...at }))
  })()`)
}

interface AnthropicBody {
  model: string
  messages: Array<{ role: string; content: Array<{ type: string; text?: string; source?: { media_type: string; data: string } }> }>
}

const pngSize = (base64: string): { width: number; height: number } => {
  const bytes = Buffer.from(base64, 'base64')
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}

describe('images in the composer in Chromium (hotaru serve + fake LLM)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('pastes, drops and picks images, shows thumbnails, sends image blocks and shows them in the chat', { timeout: 180_000 }, async () => {
    const ui = await servedPage(shared)
    const { page, errors } = ui
    try {
      await ui.openProject(writeTree(tempDir('hotaru-e2e-images-'), { 'README.md': '# images\n' }))
      const composer = ui.chat().getByTestId('composer')

      // Pasted and dropped images show as thumbnails; a dropped image does not open the "open a folder" prompt.
      await paste(page, [{ name: 'image.png', type: 'image/png', base64: SCREENSHOT.toString('base64') }])
      await dropOnComposer(page, [{ name: 'photo.jpg', type: 'image/jpeg', base64: JPEG_40x30.toString('base64') }])
      await until(async () => (await composer.getByTestId('composer-image').count()) === 2, 'two thumbnails')
      expect(await page.getByTestId('drop-overlay').count()).toBe(0)
      expect(await page.getByTestId('open-path-input').isVisible()).toBe(false)
      // The attach button's picker adds the third; removing it takes it off again.
      await composer.getByTestId('image-file-input').setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: HUGE_SCREENSHOT })
      await until(async () => (await composer.getByTestId('composer-image').count()) === 3, 'three thumbnails')
      await screenshot(page, 'images-01-composer-thumbnails')
      await composer.getByRole('button', { name: 'View photo.jpg' }).click()
      await page.getByTestId('image-viewer').waitFor()
      await page.keyboard.press('Escape')
      await page.getByTestId('image-viewer').waitFor({ state: 'detached' })

      shared.fake.enqueue({ text: 'A grey screenshot, a red photo and a big grey picture.' })
      const input = ui.chat().getByTestId('chat-input')
      await input.fill('what are these?')
      await input.press('Enter')
      await ui.chat().locator('[data-testid="assistant-message"][data-complete="true"]').waitFor()
      expect(await composer.getByTestId('composer-image').count()).toBe(0)

      // On the wire: three image blocks ahead of the text; the 3000×2000 one scaled to a long edge of 1568 px.
      const request = shared.fake.requests.filter((r) => r.api === 'anthropic').at(-1)
      expect(request?.status).toBe(200)
      const content = (request?.body as AnthropicBody).messages[0]?.content ?? []
      const images = content.filter((b) => b.type === 'image')
      expect(images.map((b) => b.source?.media_type)).toEqual(['image/png', 'image/jpeg', 'image/png'])
      expect(images[0]?.source?.data).toBe(SCREENSHOT.toString('base64'))
      expect(images[1]?.source?.data).toBe(JPEG_40x30.toString('base64'))
      expect(pngSize(images[2]?.source?.data ?? '')).toEqual({ width: 1568, height: 1045 })
      expect(content.findIndex((b) => b.type === 'text' && b.text?.includes('what are these?'))).toBeGreaterThan(2)

      // The sent message shows its thumbnails; the big one opens at its original size.
      const sent = ui.chat().getByTestId('user-message').first()
      await until(async () => (await sent.locator('[data-testid="message-image"] img').count()) === 3, 'message thumbnails')
      await sent.getByRole('button', { name: 'View huge.png' }).click()
      const viewer = page.getByTestId('image-viewer')
      await viewer.locator('img').waitFor()
      await until(async () => (await viewer.locator('img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)) === 3000, 'original shown')
      await screenshot(page, 'images-02-viewer')
      await page.keyboard.press('Escape')

      // After a reload (a `serve` reconnect) the images are still there.
      await page.reload()
      await page.getByText('Connected').waitFor()
      await until(async () => (await ui.chat().locator('[data-testid="user-message"] [data-testid="message-image"] img').count()) === 3, 'thumbnails after reload')
      expect(errors).toEqual([])
    } finally {
      await ui.close()
    }
  })

  it('keeps the images when the model takes none, and sends them once a vision model is picked', { timeout: 120_000 }, async () => {
    const ui = await servedPage(shared, { env: { DEEPSEEK_API_KEY: 'test-key' } })
    const { page, errors } = ui
    try {
      await ui.openProject(writeTree(tempDir('hotaru-e2e-images-'), { 'README.md': '# images\n' }))
      const composer = ui.chat().getByTestId('composer')
      await composer.getByTestId('model-picker').selectOption('deepseek/deepseek-chat')
      await paste(page, [{ name: 'image.png', type: 'image/png', base64: SCREENSHOT.toString('base64') }])
      await composer.getByTestId('composer-image').waitFor()
      await ui.chat().getByTestId('chat-input').fill('what is this?')
      const alert = composer.getByTestId('composer-no-vision')
      await alert.waitFor()
      expect(await alert.innerText()).toContain('deepseek/deepseek-chat does not accept images')
      expect(await composer.getByTestId('send-button').isDisabled()).toBe(true)
      const before = shared.fake.requests.length
      await ui.chat().getByTestId('chat-input').press('Enter')
      await screenshot(page, 'images-03-no-vision')
      expect(shared.fake.requests.length).toBe(before)
      expect(await composer.getByTestId('composer-image').count()).toBe(1)

      await composer.getByTestId('model-picker').selectOption('anthropic/claude-sonnet-4-6')
      await alert.waitFor({ state: 'detached' })
      shared.fake.enqueue({ text: 'A grey square.' })
      await composer.getByTestId('send-button').click()
      await ui.chat().locator('[data-testid="assistant-message"][data-complete="true"]').waitFor()
      const body = shared.fake.requests.filter((r) => r.api === 'anthropic').at(-1)?.body as AnthropicBody
      expect(body.model).toBe('claude-sonnet-4-6')
      expect(body.messages[0]?.content.filter((b) => b.type === 'image')).toHaveLength(1)
      expect(errors).toEqual([])
    } finally {
      await ui.close()
    }
  })
})
