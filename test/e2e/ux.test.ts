import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { screenshot, useBrowser } from '../support/browser'
import { until } from '../support/until'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'

const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n'
const TEN_AFTER = TEN.replace('line 1\n', 'LINE ONE\n').replace('line 10\n', 'LINE TEN\n')

const chat = (page: Page): Locator => page.locator('[data-testid="project-view"][data-active="true"] [data-testid="chat-panel"]')

async function send(page: Page, text: string): Promise<void> {
  const input = chat(page).getByRole('textbox').last()
  await input.fill(text)
  await input.press('Enter')
}

describe('desktop UX in Chromium: review, timeline, quick open, find in files, connection', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('reviews a turn in core, keeps the review across reloads, tells the model, and finds files', { timeout: 180_000 }, async () => {
    const project = writeTree(tempDir('hotaru-e2e-ux-'), {
      'a.txt': TEN,
      'docs/guide.md': '# Guide\n\nThe needle is here.\n',
      'src/deep/target.ts': 'export const target = 1\n',
    })
    const ui = await servedPage(shared, { env: { HOTARU_CONFIG_CONTENT: JSON.stringify({ permission: { edit: 'allow' } }) }, viewport: { width: 1400, height: 860 } })
    const { page, served, errors } = ui
    try {
      await ui.openProject(project)

      // At 1400 px the composer's controls fit: nothing is cut off at the panel's edge.
      const panel = await chat(page).boundingBox()
      for (const control of [chat(page).getByRole('button', { name: 'Send' }), chat(page).getByRole('combobox', { name: 'Model' })]) {
        const box = await control.boundingBox()
        expect(box && panel && box.x + box.width <= panel.x + panel.width + 0.5).toBe(true)
        expect(box?.width ?? 0).toBeGreaterThan(40)
      }
      // The window title names the project.
      await expect.poll(() => page.title()).toMatch(/^hotaru-e2e-ux-\w+ — Hotaru$/)

      // A turn creates a file and changes two far-apart lines of another.
      shared.fake.enqueue(
        { toolCalls: [{ name: 'write', args: { filePath: 'new.txt', content: 'x\ny\nz\n' } }, { name: 'read', args: { filePath: 'a.txt' } }] },
        { toolCalls: [{ name: 'write', args: { filePath: 'a.txt', content: TEN_AFTER } }] },
        { text: 'Done with both files.' },
      )
      await send(page, 'Change the files')
      await chat(page).getByText('Done with both files.').waitFor()
      // The new file's chip counts only added lines (no phantom deleted line 1).
      const newCard = chat(page).locator('[data-testid="edit-chip"][data-path="new.txt"]')
      expect(await newCard.textContent()).toBe('Creatednew.txt+3 −0')
      await screenshot(page, 'ux-00-new-file-card')
      await chat(page).getByRole('button', { name: /Review changes · 2 files/ }).click()
      const review = page.getByRole('dialog', { name: 'Changes in this turn' })
      await review.getByText('0 of 2 files reviewed').waitFor()

      // Rejecting the new file deletes it (no empty file left behind).
      await review.getByRole('option', { name: /^new\.txt/ }).click()
      await review.getByRole('button', { name: 'Reject file new.txt' }).click()
      await until(() => !existsSync(join(project, 'new.txt')), 'new file deleted')
      await review.getByText('1 of 2 files reviewed').waitFor()

      // Per-hunk actions sit inline in the diff editor.
      await review.getByRole('option', { name: /^a\.txt/ }).click()
      await review.getByRole('button', { name: 'Accept hunk 1 of 2' }).click()
      await review.getByRole('button', { name: 'Reject hunk 2 of 2' }).click()
      await review.getByText('2 of 2 files reviewed').waitFor()
      expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe(TEN.replace('line 1\n', 'LINE ONE\n'))
      await screenshot(page, 'ux-01-review-inline-hunks')
      await page.keyboard.press('Escape')

      // The review lives in core: after a reload it is still complete.
      await page.reload()
      await page.getByText('Connected').waitFor()
      await chat(page).getByText('Done with both files.').waitFor()
      await chat(page).getByRole('button', { name: /Review changes/ }).click()
      await page.getByRole('dialog', { name: 'Changes in this turn' }).getByText('2 of 2 files reviewed').waitFor()
      await screenshot(page, 'ux-02-review-after-reload')
      await page.keyboard.press('Escape')

      // The next message carries the review note, from core.
      shared.fake.enqueue({ text: 'Noted.' })
      await send(page, 'Thanks')
      await chat(page).getByText('Noted.').waitFor()
      const body = JSON.stringify(shared.fake.requests.at(-1)?.body)
      expect(body).toContain('Review note')
      expect(body).toContain('new.txt')
      expect(body).toContain('+LINE TEN')

      // Timeline: rows name files and where the tree is; the selection stays on its checkpoint across a restore.
      await chat(page).getByRole('button', { name: 'Checkpoints' }).click()
      const timeline = chat(page).getByRole('listbox', { name: 'Checkpoints' })
      await timeline.getByText('you are here').waitFor()
      const beforeChange = timeline.getByRole('option').filter({ hasText: 'Change the files' })
      await beforeChange.click()
      await expect.poll(() => beforeChange.getAttribute('aria-selected')).toBe('true')
      expect(await timeline.getByRole('option').filter({ hasText: 'a.txt' }).count()).toBeGreaterThan(0)
      await screenshot(page, 'ux-03-timeline')
      await beforeChange.getByRole('button', { name: 'Restore…' }).click()
      const restore = page.getByRole('dialog', { name: /^Restore: Before your message/ })
      await restore.getByTestId('restore-target').getByText('Change the files').waitFor()
      await screenshot(page, 'ux-04-restore-names-checkpoint')
      await restore.getByRole('button', { name: 'Restore', exact: true }).click()
      await until(() => readFileSync(join(project, 'a.txt'), 'utf8') === TEN, 'restored')
      await timeline.getByRole('option').filter({ hasText: 'Before a restore' }).first().waitFor()
      // A row was added on top; the same checkpoint is still the selected one, and it is where the tree is now.
      await expect.poll(() => beforeChange.getAttribute('aria-selected')).toBe('true')
      await expect.poll(() => beforeChange.getAttribute('aria-current')).toBe('step')
      await screenshot(page, 'ux-05-timeline-after-restore')

      // Quick Open: Ctrl+P (not the print dialog), fuzzy, Enter opens.
      await page.locator('body').click({ position: { x: 5, y: 5 } })
      await page.keyboard.press('Control+P')
      const quick = page.getByRole('dialog', { name: 'Go to file' })
      await quick.getByRole('combobox', { name: 'File name' }).fill('trgt')
      await quick.getByRole('option', { name: 'src/deep/target.ts' }).waitFor()
      await screenshot(page, 'ux-06-quick-open')
      await page.keyboard.press('Enter')
      await page.locator('[data-testid="code-editor"][data-path="src/deep/target.ts"]').waitFor()
      await expect.poll(() => page.title()).toMatch(/^target\.ts — hotaru-e2e-ux-\w+ — Hotaru$/)

      // Find in files: streamed results by file; a click opens the file at the line.
      await page.keyboard.press('Control+Shift+F')
      const search = page.getByRole('region', { name: 'Find in files' })
      await search.getByRole('textbox', { name: 'Search' }).fill('needle')
      await search.getByRole('textbox', { name: 'Search' }).press('Enter')
      await search.getByText('1 result in 1 file').waitFor()
      await search.getByRole('button', { name: /needle is here/ }).click()
      await page.locator('[data-testid="code-editor"][data-path="docs/guide.md"]').waitFor()
      await search.getByRole('button', { name: 'Use regular expression' }).click()
      await search.getByRole('textbox', { name: 'Search' }).fill('ne+dle|target')
      await search.getByRole('textbox', { name: 'Search' }).press('Enter')
      await search.getByText('2 results in 2 files').waitFor()
      await screenshot(page, 'ux-07-find-in-files')

      // Settings → Permissions: rules with their layer; a project rule (“Ask first” by default) is written to .hotaru/hotaru.jsonc.
      await page.getByRole('button', { name: 'Settings' }).first().click()
      const settings = page.getByRole('dialog', { name: 'Settings' })
      await settings.getByRole('button', { name: 'Permissions' }).click()
      const rulesTable = settings.getByRole('table', { name: 'Rules in effect' })
      await rulesTable.getByText('environment').first().waitFor()
      const addRule = settings.getByRole('form', { name: 'Add a rule' })
      await addRule.getByRole('textbox', { name: 'Pattern' }).fill('git status*')
      await addRule.getByRole('button', { name: 'Add rule' }).click()
      await rulesTable.getByRole('button', { name: 'Delete rule: Running commands — git status* (This project)' }).waitFor()
      expect(JSON.parse(readFileSync(join(project, '.hotaru', 'hotaru.jsonc'), 'utf8'))).toEqual({ permission: { bash: { 'git status*': 'ask' } } })
      await screenshot(page, 'ux-10-permissions')
      // MCP servers: Refresh re-reads the config; the add form is there.
      await settings.getByRole('button', { name: 'MCP servers' }).click()
      await settings.getByRole('form', { name: 'Add an MCP server' }).waitFor()
      await settings.getByRole('button', { name: 'Refresh' }).click()
      await screenshot(page, 'ux-11-mcp-settings')
      await page.keyboard.press('Escape')

      // Without the token: a blocking notice that says why.
      const stranger = await shared.browser.newPage({ viewport: { width: 1000, height: 700 } })
      await stranger.goto(served.url.replace(/\?token=.*/, ''))
      await stranger.getByRole('alertdialog', { name: 'Not connected' }).waitFor()
      await screenshot(stranger, 'ux-08-no-token')
      await stranger.close()

      // The server goes away: blocking "Disconnected — reconnecting…".
      await served.stop()
      await page.getByRole('alertdialog', { name: 'Disconnected — reconnecting…' }).waitFor()
      await screenshot(page, 'ux-09-disconnected')
      expect(errors.filter((e) => !e.includes('WebSocket') && !e.includes('ERR_CONNECTION_REFUSED'))).toEqual([])
    } catch (error) {
      await screenshot(page, 'ux-failure').catch(() => undefined)
      console.error('page errors:', errors, '\nserve stderr:', served.stderr().slice(-3000))
      throw error
    } finally {
      await ui.close()
    }
  })
})
