import { describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { screenshot, useBrowser } from '../support/browser'
import { until } from '../support/until'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'

const MATH = ['// math helpers', 'export function add(a: number, b: number) {', '  return a + b', '}', '', 'export const two = add(1, 1)', ''].join('\n')

/** Selects whole lines `from`..`to` of the editor from the keyboard. */
async function selectLines(page: Page, editor: Locator, from: number, to: number): Promise<void> {
  await editor.locator('.view-lines').click()
  await page.keyboard.press('Control+Home')
  for (let i = 1; i < from; i++) await page.keyboard.press('ArrowDown')
  for (let i = from; i <= to; i++) await page.keyboard.press('Shift+ArrowDown')
}

describe('the editor gives the agent context (Chromium through serve)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('adds a selection to the chat with Ctrl+L, explains from the context menu, edits inline with Ctrl+K, and attaches @-mentioned files', { timeout: 180_000 }, async () => {
    const project = writeTree(tempDir('hotaru-e2e-editor-agent-'), { 'src/math.ts': MATH, 'README.md': '# Math\n\nAdds numbers.\n' })
    const ui = await servedPage(shared, { userConfig: { permission: { edit: 'allow' } } })
    const { page, errors } = ui
    const lastRequest = (): string => JSON.stringify(shared.fake.requests.at(-1)?.body ?? {})
    try {
      await ui.openProject(project)
      const tree = ui.view().getByTestId('file-tree')
      await tree.getByText('src').click()
      await tree.locator('[data-path="src/math.ts"]').click()
      const editor = ui.view().locator('[data-testid="code-editor"][data-path="src/math.ts"]')
      await until(async () => (await editor.locator('.view-lines').innerText()).includes('helpers'), 'file in the editor')

      // Ctrl+L with lines 2-4 selected: a file:lines chip in the composer, which takes focus.
      await selectLines(page, editor, 2, 4)
      await page.keyboard.press('Control+l')
      const chip = ui.chat().getByTestId('context-chip')
      await chip.waitFor()
      expect(await chip.getAttribute('data-kind')).toBe('selection')
      expect(await chip.innerText()).toContain('src/math.ts:2-4')
      await until(async () => (await page.evaluate('document.activeElement?.dataset?.testid')) === 'chat-input', 'composer focused')
      await screenshot(page, 'editor-agent-01-selection-chip')
      shared.fake.enqueue({ text: 'It adds two numbers.' })
      await page.keyboard.type('What does this do?')
      await page.keyboard.press('Enter')
      await ui.chat().getByText('It adds two numbers.').waitFor()
      // The model got the selection's text with its place; the chat shows it as a chip, not as raw text.
      expect(lastRequest()).toContain('<selection path=\\"src/math.ts\\" lines=\\"2-4\\">\\nexport function add(a: number, b: number) {\\n  return a + b\\n}')
      const sent = ui.chat().getByTestId('user-message').last()
      expect(await sent.getByTestId('message-context').innerText()).toBe('src/math.ts:2-4')
      expect(await sent.innerText()).not.toContain('return a + b')
      expect(await chip.count()).toBe(0)

      // The context menu's "Explain Selection" runs a turn on the selection.
      shared.fake.enqueue({ text: 'This line calls add.' })
      await selectLines(page, editor, 6, 6)
      await editor.locator('.view-lines').click({ button: 'right', position: { x: 60, y: 110 } })
      const explain = page.getByRole('menuitem', { name: 'Explain Selection' })
      await explain.waitFor()
      await screenshot(page, 'editor-agent-02-context-menu')
      await explain.click()
      await ui.chat().getByText('This line calls add.').waitFor()
      expect(lastRequest()).toContain('Explain src/math.ts:6')
      expect(lastRequest()).toContain('export const two = add(1, 1)')

      // Ctrl+K opens an inline prompt above the selection; its turn edits the file, and the change shows inline.
      shared.fake.enqueue(
        { toolCalls: [{ name: 'read', args: { filePath: 'src/math.ts' } }] },
        { toolCalls: [{ name: 'edit', args: { filePath: 'src/math.ts', oldString: '  return a + b', newString: '  return b + a' } }] },
        { text: 'Swapped the operands.' },
      )
      await selectLines(page, editor, 3, 3)
      await page.keyboard.press('Control+k')
      const prompt = editor.getByTestId('inline-edit-prompt')
      await prompt.waitFor()
      await until(async () => (await page.evaluate('document.activeElement?.tagName')) === 'INPUT', 'prompt focused')
      await page.keyboard.type('swap the operands')
      await screenshot(page, 'editor-agent-03-inline-prompt')
      await page.keyboard.press('Enter')
      await prompt.waitFor({ state: 'detached' })
      await ui.chat().getByText('Swapped the operands.').waitFor()
      expect(JSON.stringify(shared.fake.requests.at(-3)?.body ?? {})).toContain('Edit src/math.ts:3: swap the operands')
      await editor.getByTestId('inline-review').waitFor()
      await screenshot(page, 'editor-agent-04-inline-edit-proposed')

      // @ completes a file and attaches its content as a chip.
      shared.fake.enqueue({ text: 'The readme says it adds numbers.' })
      const input = ui.chat().getByTestId('chat-input')
      await input.pressSequentially('Summarise @READ')
      await until(async () => (await ui.chat().getByTestId('mention-suggestions').innerText()).includes('README.md'), 'file suggestion')
      await input.press('Tab')
      const fileChip = ui.chat().locator('[data-testid="context-chip"][data-kind="file"]')
      await until(async () => (await fileChip.getAttribute('data-state')) === 'ready', 'file read')
      await screenshot(page, 'editor-agent-05-mention-chip')
      await input.press('Enter')
      await ui.chat().getByText('The readme says it adds numbers.').waitFor()
      expect(lastRequest()).toContain('<file path=\\"README.md\\">\\n# Math\\n\\nAdds numbers.\\n</file>')
      expect(errors).toEqual([])
    } finally {
      await ui.close()
    }
  })
})
