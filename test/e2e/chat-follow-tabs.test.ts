import { describe, expect, it } from 'vitest'
import type { Locator } from 'playwright-core'
import { screenshot, useBrowser } from '../support/browser'
import { until } from '../support/until'
import { servedPage, type ServedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'

/** How far the chat's scroller is from its bottom, in pixels. */
async function distanceFromBottom(ui: ServedPage): Promise<number> {
  return ui.chat().getByTestId('message-list').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)
}

const LONG = Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1} of the plan, long enough to take a line of the chat.`).join('\n\n')

describe('the chat follows the agent, the status bar keeps one counter, Ctrl+W closes the editor tab (Chromium through serve)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('stays at the bottom through a permission ask to the final answer, and shows a message sent while scrolled up', { timeout: 120_000 }, async () => {
    const project = writeTree(tempDir('hotaru-e2e-follow-'), { 'README.md': '# follow\n' })
    const ui = await servedPage(shared, { viewport: { width: 1300, height: 760 } })
    const { page, errors } = ui
    try {
      await ui.openProject(project)
      shared.fake.enqueue(
        { text: LONG, toolCalls: [{ name: 'bash', args: { command: 'touch made-by-agent && echo done', description: 'Make a file' } }] },
        { text: `${LONG}\n\nThe final answer is here.` },
      )
      const input = ui.chat().getByTestId('chat-input')
      await input.fill('Plan and run')
      await input.press('Enter')
      const ask = ui.chat().getByTestId('permission-dialog')
      await ask.waitFor()
      await until(async () => await ask.getByTestId('permission-once').isEnabled(), 'armed')
      await ask.getByTestId('permission-once').click()
      await ui.chat().getByText('The final answer is here.').waitFor()
      await ui.chat().getByTestId('review-turn').or(ui.chat().getByTestId('turn-usage')).first().waitFor()
      // The turn ended with nobody scrolling: the answer and the turn's footer are in view.
      await until(async () => (await distanceFromBottom(ui)) < 4, 'chat pinned to the bottom at the end of the turn')
      await screenshot(page, 'follow-01-bottom-after-prompted-turn')

      // Scrolled up, the chat stays where the user put it; a "jump to latest" control appears.
      await ui.chat().getByTestId('message-list').hover()
      for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -600)
      await ui.chat().getByRole('button', { name: 'Scroll to the latest message' }).waitFor()
      expect(await distanceFromBottom(ui)).toBeGreaterThan(400)
      // A message sent from there is brought into view with the answer to it.
      shared.fake.enqueue({ text: 'Short reply.' })
      await input.fill('One more thing')
      await input.press('Enter')
      await ui.chat().getByText('Short reply.').waitFor()
      await until(async () => (await distanceFromBottom(ui)) < 4, 'sent message and its answer in view')
      await screenshot(page, 'follow-02-sent-while-scrolled-up')
      expect(errors).toEqual([])
    } finally {
      await ui.close()
    }
  })

  it('keeps one problems counter and one notices button after many tab switches, and Ctrl+W closes the editor tab only', { timeout: 120_000 }, async () => {
    const first = writeTree(tempDir('hotaru-e2e-tabs-a-'), { 'a.ts': 'export const a = 1\n' })
    const second = writeTree(tempDir('hotaru-e2e-tabs-b-'), { 'b.ts': 'export const b = 2\n' })
    const ui = await servedPage(shared)
    const { page, errors } = ui
    try {
      await ui.openProject(first)
      await ui.openProject(second)
      const tabs: Locator = page.getByTestId('project-tabs').locator('[role="tab"][data-project-id]')
      expect(await tabs.count()).toBe(2)
      for (let i = 0; i < 12; i++) {
        await tabs.nth(i % 2).click()
        await page.locator(`[data-testid="project-view"][data-active="true"]`).waitFor()
      }
      const bar = page.getByTestId('statusbar')
      expect(await bar.getByTestId('problem-counts').count()).toBe(1)
      expect(await bar.getByTestId('notices-button').count()).toBe(1)
      await screenshot(page, 'tabs-01-one-counter-after-switches')

      // Ctrl+W in the editor closes the editor tab; the project tab stays.
      await tabs.nth(1).click()
      const tree = ui.view().getByTestId('file-tree')
      await tree.locator('[data-path="b.ts"]').click()
      const editor = ui.view().locator('[data-testid="code-editor"][data-path="b.ts"]')
      await until(async () => (await editor.locator('.view-lines').innerText()).includes('export'), 'file in the editor')
      await editor.locator('.view-lines').click()
      await page.keyboard.press('Control+w')
      await ui.view().locator('.editor-tab[data-path="b.ts"]').waitFor({ state: 'detached' })
      expect(await tabs.count()).toBe(2)
      await screenshot(page, 'tabs-02-ctrl-w-closed-editor-tab')
      expect(errors).toEqual([])
    } finally {
      await ui.close()
    }
  })
})
