import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { screenshot, useBrowser } from '../support/browser'
import { until } from '../support/until'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'

const A = 'export const greeting = "hello"\n'
const B = 'export const name = "world"\n'

/** Presses Tab until the element with `testId` has the focus (a keyboard user's way to a button). */
async function tabTo(page: Page, testId: string, max = 15): Promise<void> {
  for (let i = 0; i < max; i++) {
    if ((await page.evaluate('document.activeElement?.dataset?.testid')) === testId) return
    await page.keyboard.press('Tab')
  }
  throw new Error(`Tab never reached ${testId}`)
}

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await locator.boundingBox()
  if (!b) throw new Error('not on screen')
  return b
}

describe('the checkpoint timeline beside the chat, and the composer’s buttons (Chromium through serve)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('says what each step did, restores from a row or a message with the exact files, and selects one row', { timeout: 240_000 }, async () => {
    const project = writeTree(tempDir('hotaru-e2e-timeline-'), { 'src/a.ts': A, 'src/b.ts': B })
    const ui = await servedPage(shared, { userConfig: { permission: { edit: 'allow', bash: 'allow' } }, viewport: { width: 1500, height: 900 } })
    const { page, errors } = ui
    const chat = ui.chat()
    const send = async (text: string): Promise<void> => {
      const input = chat.getByTestId('chat-input')
      await input.fill(text)
      await input.press('Enter')
    }
    /** The turn is over (its checkpoints are recorded) when Stop goes. */
    const idle = (): Promise<void> => until(async () => (await chat.getByTestId('stop-button').count()) === 0, 'turn ended')
    try {
      await ui.openProject(project)
      // A turn that edits two files and runs a command, then a second one that edits one of them again.
      shared.fake.enqueue(
        {
          toolCalls: [
            { name: 'read', args: { filePath: 'src/a.ts' } },
            { name: 'read', args: { filePath: 'src/b.ts' } },
          ],
        },
        {
          // A command in the step with the edits: its row names both. (It writes nothing, so the row does not
          // depend on how soon the file watch reports a command's writes.)
          toolCalls: [
            { name: 'edit', args: { filePath: 'src/a.ts', oldString: '"hello"', newString: '"hi"' } },
            { name: 'edit', args: { filePath: 'src/b.ts', oldString: '"world"', newString: '"there"\nexport const extra = 1' } },
            { name: 'bash', args: { command: 'git --version', description: 'Check git' } },
          ],
        },
        { toolCalls: [{ name: 'write', args: { filePath: 'notes.md', content: 'built\n' } }] },
        { text: 'Greeting renamed and built.' },
      )
      await send('Rename the greeting')
      await ui.waitForChat('Greeting renamed and built.')
      await idle()
      shared.fake.enqueue({ toolCalls: [{ name: 'edit', args: { filePath: 'src/a.ts', oldString: '"hi"', newString: '"HI"' } }] }, { text: 'Shouted.' })
      await send('Now shout it')
      await ui.waitForChat('Shouted.')
      await idle()
      const afterFirst = { a: 'export const greeting = "hi"\n', b: 'export const name = "there"\nexport const extra = 1\n' }
      expect(readFileSync(join(project, 'src/a.ts'), 'utf8')).toBe('export const greeting = "HI"\n')

      // Keyboard: the header's Checkpoints button opens the timeline above the conversation, focused.
      await chat.getByTestId('timeline-toggle').focus()
      await page.keyboard.press('Enter')
      const timeline = chat.getByRole('listbox', { name: 'Checkpoints' })
      await timeline.waitFor()
      expect(await page.evaluate('document.activeElement?.getAttribute("role")')).toBe('listbox')
      const rows = timeline.getByRole('option')
      await until(async () => (await rows.count()) === 5, 'five checkpoints listed')
      const titles = await chat.getByTestId('checkpoint-title').allInnerTexts()
      expect(titles).toEqual([
        'Edited src/a.ts +1 −1',
        'Before your message “Now shout it”',
        'Created notes.md +1',
        'Ran `git --version` · Edited 2 files +3 −2',
        'Before your message “Rename the greeting”',
      ])
      expect(await rows.nth(3).innerText()).toContain('a.ts +1 −1, b.ts +2 −1')
      expect(await chat.innerText()).not.toMatch(/After (a )?tool step|no file changes/)
      // The conversation stays in view below the timeline.
      const pane = await box(chat.getByTestId('timeline'))
      const list = await box(chat.getByTestId('message-list'))
      expect(list.y).toBeGreaterThanOrEqual(pane.y + pane.height - 1)
      expect(list.height).toBeGreaterThan(150)
      await chat.getByText('Greeting renamed and built.').waitFor()
      await screenshot(page, 'timeline-01-beside-chat')

      // ↓↓↓↓ to "Before your message “Rename the greeting”", R: the preview names exactly what the restore does.
      for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown')
      const beforeFirst = rows.filter({ hasText: 'Before your message “Rename the greeting”' })
      await until(async () => (await beforeFirst.getAttribute('aria-selected')) === 'true', 'first message checkpoint selected')
      await page.keyboard.press('r')
      const dialog = page.getByRole('dialog', { name: /^Restore: Before your message “Rename the greeting”/ })
      await dialog.waitFor()
      const preview = dialog.getByTestId('restore-preview')
      await preview.getByTestId('restore-summary').waitFor()
      expect(await preview.getByTestId('restore-summary').innerText()).toBe('Rewrites 2 files and deletes 1 file.')
      expect((await preview.getByTestId('restore-writes').getByRole('listitem').allInnerTexts()).sort()).toEqual(['src/a.ts', 'src/b.ts'])
      expect(await preview.getByTestId('restore-deletes').getByRole('listitem').allInnerTexts()).toEqual(['notes.md'])
      expect(await dialog.innerText()).not.toContain('no file changes')
      await screenshot(page, 'timeline-02-restore-preview')
      await tabTo(page, 'restore-apply')
      await page.keyboard.press('Enter')
      const read = (path: string): string => (existsSync(join(project, path)) ? readFileSync(join(project, path), 'utf8') : '(none)')
      await chat.getByTestId('restore-banner').waitFor()
      expect([read('src/a.ts'), read('src/b.ts'), read('notes.md')]).toEqual([A, B, '(none)'])
      // One row is selected, and it is the restored point, where "you are here" is.
      await rows.filter({ hasText: 'Before a restore' }).first().waitFor()
      await until(async () => (await timeline.locator('[aria-selected="true"]').count()) === 1, 'one selected row')
      expect(await beforeFirst.getAttribute('aria-selected')).toBe('true')
      await until(async () => (await beforeFirst.getAttribute('aria-current')) === 'step', 'you are here on the restored row')
      expect(await timeline.locator('[aria-current="step"]').count()).toBe(1)
      expect(await timeline.locator('.checkpoint.active').count()).toBe(1)
      await screenshot(page, 'timeline-03-after-restore-one-selected')

      // Esc closes the timeline and gives the focus back to its button.
      await timeline.focus()
      await page.keyboard.press('Escape')
      await until(async () => (await chat.getByTestId('timeline').count()) === 0, 'timeline closed')
      expect(await page.evaluate('document.activeElement?.dataset?.testid')).toBe('timeline-toggle')

      // "Restore to here" on the second message, from the keyboard: the state from before it (the first turn's work).
      await chat.getByTestId('restore-banner').getByRole('button', { name: 'Dismiss' }).click()
      const second = chat.getByTestId('user-message').filter({ hasText: 'Now shout it' })
      const restoreHere = second.getByTestId('restore-to-here')
      // Hidden until the pointer or the focus is on the message; a tab stop like any button.
      expect(await restoreHere.evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).opacity)).toBe('0')
      expect(await restoreHere.evaluate((el) => el.tabIndex)).toBe(0)
      await restoreHere.focus()
      await until(async () => (await restoreHere.evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).opacity)) === '1', 'shown while focused')
      expect(await chat.getByTestId('user-message').filter({ hasText: 'Rename the greeting' }).getByTestId('restore-to-here').count()).toBe(1)
      await screenshot(page, 'timeline-04-restore-to-here-on-message')
      await page.keyboard.press('Enter')
      const fromMessage = page.getByRole('dialog', { name: /^Restore: Before your message “Now shout it”/ })
      await fromMessage.getByTestId('restore-summary').waitFor()
      expect(await fromMessage.getByTestId('restore-summary').innerText()).toBe('Rewrites 2 files and recreates 1 file.')
      expect(await fromMessage.getByTestId('restore-creates').getByRole('listitem').allInnerTexts()).toEqual(['notes.md'])
      await screenshot(page, 'timeline-05-restore-to-here-preview')
      await tabTo(page, 'restore-apply')
      await page.keyboard.press('Enter')
      await chat.getByTestId('restore-banner').waitFor()
      expect([read('src/a.ts'), read('src/b.ts'), read('notes.md')]).toEqual([afterFirst.a, afterFirst.b, 'built\n'])
      await chat.getByTestId('timeline-toggle').click()
      const beforeSecond = rows.filter({ hasText: 'Before your message “Now shout it”' })
      await until(async () => (await beforeSecond.getAttribute('aria-selected')) === 'true', 'the message’s checkpoint selected')
      expect(await timeline.locator('[aria-selected="true"]').count()).toBe(1)
      expect(await beforeSecond.getAttribute('aria-current')).toBe('step')
      await screenshot(page, 'timeline-06-restored-from-message')
      await page.keyboard.press('Escape')

      expect(errors).toEqual([])
    } catch (error) {
      await screenshot(page, 'timeline-failure').catch(() => undefined)
      console.error(await page.locator('body').innerText().catch(() => ''), ui.served.stderr().slice(-3000))
      throw error
    } finally {
      await ui.close()
    }
  })

  it('keeps Stop and Queue side by side on the composer bar\'s first row in a narrow chat while a turn runs', { timeout: 120_000 }, async () => {
    const project = writeTree(tempDir('hotaru-e2e-queue-'), { 'README.md': '# queue\n' })
    // A 1000 px window leaves the chat column about 280 px.
    const ui = await servedPage(shared, { viewport: { width: 1000, height: 800 } })
    const { page, errors } = ui
    const chat = ui.chat()
    try {
      await ui.openProject(project)
      shared.fake.enqueue({ text: Array.from({ length: 400 }, (_, i) => `word${i} `), dripMs: 300 })
      const input = chat.getByTestId('chat-input')
      await input.fill('Take your time')
      await input.press('Enter')
      const stop = chat.getByTestId('stop-button')
      await stop.waitFor()
      await input.fill('Queued meanwhile')
      const queue = chat.getByTestId('send-button')
      await until(async () => (await queue.innerText()) === 'Queue', 'Queue shown while the turn runs')
      const composer = await box(chat.getByTestId('composer'))
      expect(composer.width).toBeLessThan(360)
      const inputBox = await box(input)
      const agent = await box(chat.locator('.composer-bar .picker-agent'))
      const stopBox = await box(stop)
      const queueBox = await box(queue)
      // Side by side, inside the composer, on the row right under the input (the pickers' first row), not a line of their own.
      expect(Math.abs(stopBox.y - queueBox.y)).toBeLessThan(2)
      expect(queueBox.x).toBeGreaterThan(stopBox.x)
      expect(queueBox.x + queueBox.width).toBeLessThanOrEqual(composer.x + composer.width)
      expect(queueBox.y).toBeGreaterThan(inputBox.y + inputBox.height)
      expect(queueBox.y).toBeLessThan(agent.y + agent.height)
      expect(queueBox.height).toBeLessThan(30)
      expect(await stop.getAttribute('aria-label')).toBe('Stop')
      await screenshot(page, 'timeline-07-narrow-composer-queue')
      await stop.click()
      await chat.getByTestId('turn-stopped').waitFor()
      expect(errors).toEqual([])
    } finally {
      await ui.close()
    }
  })
})
