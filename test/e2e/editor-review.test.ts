import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Review } from '@shared/schema/review'
import { screenshot, useBrowser } from '../support/browser'
import { runHotaru } from '../support/cli'
import { until } from '../support/until'
import { servedPage, type ServedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'

const BEFORE = Array.from({ length: 20 }, (_, i) => `export const v${i + 1} = ${i + 1}`).join('\n') + '\n'
// Two blocks: line 2 becomes two lines, line 15 goes.
const AFTER = BEFORE.replace('export const v2 = 2\n', 'export const v2 = 200\nexport const v2b = 201\n').replace('export const v15 = 15\n', '')
const DEEP = 'src/features/settings/panels/permissions/rules/editor/RuleRowEditor.ts'

async function send(ui: ServedPage, text: string): Promise<void> {
  const input = ui.chat().getByTestId('chat-input')
  await input.fill(text)
  await input.press('Enter')
}

/** What `hotaru review show` says about the last turn, for the same data dir as the UI. */
async function cliReview(ui: ServedPage, project: string): Promise<Review> {
  const result = await runHotaru(['review', 'show', '--dir', project, '--json'], { ...process.env, ...ui.env })
  expect(result.stderr).toBe('')
  return (JSON.parse(result.stdout) as { review: Review }).review
}

describe('the agent’s edits in the editor and in the review (Chromium through serve)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('shows an edit as a chip, the change inline in the editor with Accept / Reject per block, and a bar above the composer', { timeout: 150_000 }, async () => {
    const project = writeTree(tempDir('hotaru-e2e-inline-'), { 'src/config.ts': BEFORE, 'src/other.ts': 'export const other = 1\n' })
    const ui = await servedPage(shared, { userConfig: { permission: { edit: 'allow' } }, viewport: { width: 1500, height: 900 } })
    const { page, errors } = ui
    try {
      await ui.openProject(project)
      shared.fake.enqueue(
        { toolCalls: [{ name: 'read', args: { filePath: 'src/config.ts' } }] },
        { toolCalls: [{ name: 'write', args: { filePath: 'src/config.ts', content: AFTER } }] },
        { text: 'Updated two options.' },
      )
      await send(ui, 'Update the options')
      await ui.chat().getByText('Updated two options.').waitFor()

      // Item 5: the edit is one compact chip; no diff editor and no language-server wait note in the chat.
      const chip = ui.chat().locator('[data-testid="edit-chip"][data-path="src/config.ts"]')
      await chip.waitFor()
      expect(await chip.textContent()).toBe('Editedsrc/config.ts+2 −2')
      expect(await ui.chat().getByTestId('diff-view').count()).toBe(0)
      expect(await ui.chat().getByText(/did not finish checking/).count()).toBe(0)
      const chipBox = await chip.boundingBox()
      expect(chipBox?.height ?? 999).toBeLessThan(40)

      // Item 4: the bar above the composer counts what waits for a decision.
      const bar = ui.chat().getByTestId('review-bar')
      await until(async () => (await bar.getByTestId('review-bar-count').innerText()) === '2 changes in 1 file to review', 'bar counts the changes')
      await screenshot(page, 'editor-review-01-chip-and-bar')

      // The chip opens the file; the editor shows both blocks inline, the removed line above where it was.
      await chip.click()
      const editor = ui.view().locator('[data-testid="code-editor"][data-path="src/config.ts"]')
      await editor.getByTestId('inline-review').waitFor()
      const blocks = editor.getByTestId('inline-hunk')
      await until(async () => (await blocks.count()) === 2, 'two blocks inline')
      await until(async () => (await editor.getByTestId('inline-removed').allInnerTexts()).some((t) => t.includes('export const v2 = 2')), 'removed line shown')
      expect(await editor.locator('.review-added-line').count()).toBeGreaterThanOrEqual(2)
      await screenshot(page, 'editor-review-02-inline-blocks')

      // Reject the second block: line 15 is back on disk, the block leaves the editor, the bar counts one.
      await editor.getByRole('button', { name: 'Reject change 2 of 2' }).click()
      await until(() => readFileSync(join(project, 'src/config.ts'), 'utf8').includes('export const v15 = 15\n'), 'block reverted on disk')
      await until(async () => (await blocks.count()) === 1, 'one block left')
      await until(async () => (await bar.getByTestId('review-bar-count').innerText()) === '1 change in 1 file to review', 'bar counts one')

      // "Next change" puts the cursor in the block; Ctrl+Enter accepts it.
      await bar.getByRole('button', { name: 'Next change' }).click()
      await until(async () => (await page.evaluate('document.activeElement?.closest(\'[data-testid="code-editor"]\') !== null')) === true, 'editor focused at the change')
      await page.keyboard.press('Control+Enter')
      await until(async () => (await bar.count()) === 0, 'nothing left to review')
      await until(async () => (await editor.getByTestId('inline-review').count()) === 0, 'inline review gone')
      expect(readFileSync(join(project, 'src/config.ts'), 'utf8')).toBe(AFTER.replace('export const v16', 'export const v15 = 15\nexport const v16'))
      await screenshot(page, 'editor-review-03-decided')

      // The CLI sees the same review: the first block accepted, the second rejected.
      const review = await cliReview(ui, project)
      expect(review.files.find((f) => f.path === 'src/config.ts')?.hunks.map((h) => h.decision)).toEqual(['accepted', 'rejected'])
      expect(errors).toEqual([])
    } finally {
      await ui.close()
    }
  })

  it('takes a rejected hunk out of the review diff and its counts, shows full paths, and works from the keyboard', { timeout: 150_000 }, async () => {
    const project = writeTree(tempDir('hotaru-e2e-review-keys-'), { [DEEP]: BEFORE })
    const ui = await servedPage(shared, { userConfig: { permission: { edit: 'allow' } }, viewport: { width: 1300, height: 860 } })
    const { page, errors } = ui
    try {
      await ui.openProject(project)
      shared.fake.enqueue(
        { toolCalls: [{ name: 'read', args: { filePath: DEEP } }] },
        { toolCalls: [{ name: 'write', args: { filePath: DEEP, content: AFTER } }] },
        { text: 'Changed the rules.' },
      )
      await send(ui, 'Change the rules')
      await ui.chat().getByText('Changed the rules.').waitFor()
      await ui.chat().getByTestId('review-turn').last().click()
      const changes = page.getByTestId('changes-view')
      const row = changes.locator(`[data-testid="changes-file"][data-path="${DEEP}"]`)
      await row.waitFor()
      // The file name stays whole; the folders give way in the middle.
      const name = row.locator('.middle-path-name')
      expect(await name.innerText()).toBe('RuleRowEditor.ts')
      const nameBox = await name.boundingBox()
      const rowBox = await row.boundingBox()
      expect(nameBox && rowBox && nameBox.x + nameBox.width <= rowBox.x + rowBox.width).toBe(true)
      expect(await row.locator('.middle-path').getAttribute('title')).toBe(DEEP)
      expect((await row.locator('.changes-counts').innerText()).replace(/\s+/g, ' ')).toBe('+2 −2')
      const hunks = changes.getByTestId('hunk')
      await until(async () => (await hunks.count()) === 2, 'two hunks')
      await screenshot(page, 'review-keys-01-full-path')

      // N focuses the first hunk, N again the second; R rejects it: it leaves the diff, counts drop.
      await page.keyboard.press('n')
      await until(async () => (await hunks.nth(0).getAttribute('aria-current')) === 'true', 'first hunk focused')
      await page.keyboard.press('n')
      await until(async () => (await hunks.nth(1).getAttribute('aria-current')) === 'true', 'second hunk focused')
      await page.keyboard.press('r')
      await until(async () => (await hunks.count()) === 1, 'rejected hunk gone from the diff')
      await until(async () => (await row.locator('.changes-counts').innerText()).replace(/\s+/g, ' ') === '+2 −1', 'counts updated')
      // The diff itself now has one change left.
      await changes.getByTestId('diff-view').getByText('1 change', { exact: true }).waitFor()
      expect(readFileSync(join(project, DEEP), 'utf8')).toContain('export const v15 = 15\n')
      // P goes back to the first; A accepts it.
      await page.keyboard.press('p')
      await until(async () => (await hunks.nth(0).getAttribute('aria-current')) === 'true', 'first hunk focused again')
      await page.keyboard.press('a')
      await changes.getByText('1 of 1 file reviewed').waitFor()
      await screenshot(page, 'review-keys-02-after-keys')
      const review = await cliReview(ui, project)
      expect(review.files[0]?.hunks.map((h) => h.decision)).toEqual(['accepted', 'rejected'])
      expect(errors).toEqual([])
    } finally {
      await ui.close()
    }
  })

  it('shows an edit waiting for approval in the editor, where Ctrl+Enter allows it and Reject refuses it', { timeout: 150_000 }, async () => {
    const project = writeTree(tempDir('hotaru-e2e-proposed-'), { 'src/config.ts': BEFORE })
    const ui = await servedPage(shared, { viewport: { width: 1500, height: 900 } })
    const { page, errors } = ui
    try {
      await ui.openProject(project)
      shared.fake.enqueue(
        { toolCalls: [{ name: 'read', args: { filePath: 'src/config.ts' } }] },
        { toolCalls: [{ name: 'edit', args: { filePath: 'src/config.ts', oldString: 'export const v3 = 3', newString: 'export const v3 = 300' } }] },
        { text: 'Raised v3.' },
      )
      await send(ui, 'Raise v3')
      const ask = ui.chat().locator('[data-testid="permission-dialog"][data-permission="edit"]')
      await ask.waitFor()
      // The ask opens the file with the proposed change in place.
      await ask.getByTestId('permission-show-in-editor').click()
      const editor = ui.view().locator('[data-testid="code-editor"][data-path="src/config.ts"]')
      const proposal = editor.getByTestId('proposed-edit')
      await proposal.waitFor()
      await until(async () => (await editor.getByTestId('proposed-added').innerText()).includes('export const v3 = 300'), 'added line shown')
      expect(await editor.locator('.proposed-removed-line').count()).toBe(1)
      expect(readFileSync(join(project, 'src/config.ts'), 'utf8')).toBe(BEFORE)
      await screenshot(page, 'proposed-01-in-editor')
      // Ctrl+Enter in the editor allows it: the file is written, the ask goes, the made change waits for review.
      await editor.locator('.view-lines').click()
      await page.keyboard.press('Control+Enter')
      await ui.chat().getByText('Raised v3.').waitFor()
      await until(() => readFileSync(join(project, 'src/config.ts'), 'utf8').includes('export const v3 = 300\n'), 'edit written')
      expect(await ask.count()).toBe(0)
      await until(async () => (await proposal.count()) === 0, 'proposal gone')
      await editor.getByTestId('inline-review').waitFor()

      // Reject on the editor's bar refuses the next one: nothing is written.
      shared.fake.enqueue({ toolCalls: [{ name: 'edit', args: { filePath: 'src/config.ts', oldString: 'export const v4 = 4', newString: 'export const v4 = 400' } }] })
      await send(ui, 'Raise v4')
      await proposal.waitFor()
      await proposal.getByRole('button', { name: 'Reject' }).click()
      await ui.chat().locator('[data-testid="tool-card"][data-tool="edit"][data-status="error"]').waitFor()
      await until(async () => (await proposal.count()) === 0 && (await ask.count()) === 0, 'ask answered')
      expect(readFileSync(join(project, 'src/config.ts'), 'utf8')).toContain('export const v4 = 4\n')
      await screenshot(page, 'proposed-02-rejected')
      expect(errors).toEqual([])
    } finally {
      await ui.close()
    }
  })
})
