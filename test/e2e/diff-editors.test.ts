import { describe, expect, it } from 'vitest'
import type { Locator } from 'playwright-core'
import { screenshot, useBrowser } from '../support/browser'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'
import { until } from '../support/until'

/**
 * Monaco points one global hover factory at the services of the editor built last; an editor inside
 * a diff editor uses the diff editor's own services, which are disposed with it. A widget an open
 * editor builds afterwards (its suggest list) asked those disposed services for a hover and failed.
 */
describe('diff editors in Chromium (hotaru serve + fake LLM)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('an open editor still builds its suggest list after the review’s diff view was closed', { timeout: 90_000 }, async () => {
    const project = writeTree(tempDir('hotaru-e2e-diffs-'), {
      'src/app.ts': 'export const answer = 42\nexport const another = 1\n',
      'src/notes.ts': 'export const note = 1\n',
    })
    const ui = await servedPage(shared, { userConfig: { permission: { edit: 'allow' } } })
    const { page, errors } = ui
    try {
      await ui.openProject(project)
      // A file open in the editor, built before the diff editor.
      const tree = ui.view().getByTestId('file-tree')
      await tree.getByText('src').click()
      await tree.locator('[data-path="src/notes.ts"]').click()
      const editor: Locator = ui.view().locator('[data-testid="code-editor"][data-path="src/notes.ts"]')
      await until(async () => (await editor.locator('.view-lines').innerText()).includes('note'), 'the file in the editor')

      // A turn's edit shows its diff in the review; closing the review disposes that diff editor.
      shared.fake.enqueue(
        { toolCalls: [{ name: 'read', args: { filePath: 'src/app.ts' } }] },
        { toolCalls: [{ name: 'edit', args: { filePath: 'src/app.ts', oldString: 'answer = 42', newString: 'answer = 43' } }] },
        { text: 'Changed the answer to 43.' },
      )
      const input = ui.chat().getByTestId('chat-input')
      await input.fill('Make it 43')
      await input.press('Enter')
      await ui.chat().getByText('Changed the answer to 43.').waitFor()
      await ui.chat().getByTestId('review-turn').last().click()
      const changes = page.getByTestId('changes-view')
      await changes.getByTestId('diff-view').getByText(/[1-9]\d* changes?/).waitFor()
      await page.keyboard.press('Escape')
      await changes.getByTestId('diff-view').waitFor({ state: 'detached' })

      // The editor builds its suggest list now, for the first time.
      await editor.locator('.view-lines').click()
      await page.keyboard.press('Control+End')
      await page.keyboard.type('export const x = no')
      await page.keyboard.press('Control+Space')
      await editor.locator('.suggest-widget').waitFor({ state: 'attached' })
      await screenshot(page, 'diff-editors-01-suggest-after-diff')
      await page.keyboard.press('Escape')
      expect(errors).toEqual([])
    } finally {
      await ui.close()
    }
  })
})
