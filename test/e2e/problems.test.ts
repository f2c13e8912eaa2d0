import { describe, expect, it } from 'vitest'
import { screenshot, useBrowser } from '../support/browser'
import { until } from '../support/until'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'
import { TS_FIXTURE } from '../integration/lsp/helpers'

describe('language server problems in Chromium (hotaru serve + fake LLM + typescript-language-server)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('an edit that breaks a type shows in the Problems panel, the status bar counts and the editor', { timeout: 400_000 }, async () => {
    // Edits are allowed by the user's own config: a folder's config allows nothing until it is trusted.
    const project = writeTree(tempDir('hotaru-e2e-lsp-'), TS_FIXTURE)
    const ui = await servedPage(shared, { userConfig: { permission: { edit: 'allow' } } })
    const { page, served, errors } = ui
    try {
      await ui.openProject(project)
      const view = ui.view()
      const counts = page.getByTestId('problem-counts')
      expect(await counts.getAttribute('data-errors')).toBe('0')

      shared.fake.enqueue(
        { toolCalls: [{ name: 'read', args: { filePath: 'src/main.ts' } }] },
        { toolCalls: [{ name: 'edit', args: { filePath: 'src/main.ts', oldString: 'add(1, 2)', newString: '"three"' } }] },
        { text: 'Changed the total.' },
      )
      const input = view.getByTestId('chat-input')
      await input.fill('make the total a word')
      await input.press('Enter')
      await view.getByText('Changed the total.').waitFor({ timeout: 120_000 })

      // The status bar counts the error; clicking it opens the Problems panel with the file and the TS code.
      await until(async () => (await counts.getAttribute('data-errors')) === '1', 'one error counted', 120_000)
      await counts.click()
      const panel = view.getByTestId('problems-panel')
      await panel.waitFor()
      const file = panel.locator('[data-testid="problems-file"][data-path="src/main.ts"]')
      await file.waitFor()
      const problem = file.getByTestId('problem')
      expect(await problem.innerText()).toMatch(/Type 'string' is not assignable to type 'number'\.\s+TS2322\s+\[2, 14\]/)
      await screenshot(page, 'problems-00-panel')

      // A problem opens its file; Monaco marks the error.
      await problem.click()
      const editor = view.getByTestId('code-editor')
      await until(async () => (await editor.getAttribute('data-path')) === 'src/main.ts', 'file opened', 120_000)
      await editor.locator('.squiggly-error').first().waitFor({ timeout: 60_000 })
      await screenshot(page, 'problems-01-marker')
      expect(errors).toEqual([])
    } catch (error) {
      console.error('serve stderr:', served.stderr().slice(-3000))
      throw error
    } finally {
      await ui.close()
    }
  })
})
