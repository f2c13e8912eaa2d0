import { describe, expect, it } from 'vitest'
import { screenshot, useBrowser } from '../support/browser'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'

describe('the model picker without keys for every provider, in Chromium (hotaru serve)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('lists the models it can use, and one "add a key" entry per provider without a key that opens its key field', { timeout: 120_000 }, async () => {
    const project = writeTree(tempDir('hotaru-e2e-picker-'), { 'a.txt': 'a\n' })
    // Anthropic has a key (servedPage sets one); OpenAI has none.
    const ui = await servedPage(shared, { env: { OPENAI_API_KEY: '' } })
    const { page } = ui
    try {
      await ui.openProject(project)
      const picker = ui.chat().getByRole('combobox', { name: 'Model' })
      await picker.locator('optgroup[label="anthropic"] option').first().waitFor({ state: 'attached' })
      const texts = await picker.locator('option').allInnerTexts()
      expect(texts.some((t) => t.includes('no key'))).toBe(false)
      const setups = await picker.locator('optgroup[label="Needs an API key"] option').allInnerTexts()
      expect(setups.some((t) => /^openai: \d+ models? — add a key…$/.test(t))).toBe(true)
      // Far fewer entries than one per model of every provider.
      expect(setups.length).toBeLessThan(texts.length)
      const before = await picker.inputValue()
      await screenshot(page, 'model-picker-00')

      await picker.selectOption({ label: setups.find((t) => t.startsWith('openai:')) ?? '' })
      const settings = page.getByTestId('settings-dialog')
      await settings.getByLabel('OpenAI API key').waitFor()
      expect(await page.evaluate('document.activeElement?.getAttribute("aria-label") ?? null')).toBe('OpenAI API key')
      await settings.getByRole('button', { name: 'Done' }).click()
      expect(await picker.inputValue()).toBe(before)
      expect(ui.errors.join('\n')).toBe('')
    } finally {
      await ui.close()
    }
  })
})
