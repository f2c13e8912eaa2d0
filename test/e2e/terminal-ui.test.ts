import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startServe } from '../support/cli'
import { screenshot, useBrowser, watchErrors } from '../support/browser'
import { until } from '../support/until'
import { tempDir, writeTree } from '../support/temp'

const activeView = (page: Page) => page.locator('[data-testid="project-view"][data-active="true"]')

/** Each terminal's text, wrapped rows joined into their lines (the page reads what xterm holds). */
function terminalText(page: Page): Promise<string> {
  return page.evaluate<string>("(window.hotaruInspect?.terminalText() ?? []).join('\\n---\\n')")
}

function terminalGrid(page: Page): Promise<{ cols: number; rows: number }> {
  return page.evaluate<{ cols: number; rows: number }>(
    '(() => { const t = window.hotaruInspect.terminals()[0]; return { cols: t.cols, rows: t.rows } })()',
  )
}

describe('terminal in Chromium (hotaru serve)', () => {
  const shared = useBrowser()

  /** `hotaru serve` of `project` and a connected page. */
  async function servedProject(project: string) {
    const served = await startServe(['--port', '0', '--dir', project], { HOTARU_DATA_DIR: tempDir(), SHELL: '/bin/bash' })
    const page = await shared.browser.newPage({ viewport: { width: 1400, height: 860 } })
    const errors = watchErrors(page)
    try {
      await page.goto(served.url)
      await page.getByText('Connected').waitFor()
    } catch (error) {
      await page.close()
      await served.stop()
      throw error
    }
    return { served, page, errors }
  }

  /** Opens the panel's first terminal, once the project is on screen, and waits for the shell's prompt. */
  async function openTerminal(page: Page): Promise<void> {
    // The shortcut belongs to the project's view: pressed before it is shown, it does nothing.
    await activeView(page).getByTestId('file-tree').waitFor()
    await page.keyboard.press('Control+Shift+Backquote')
    await page.getByRole('tablist', { name: 'Terminals' }).getByRole('tab').first().waitFor()
    await until(async () => /[$#]/.test(await terminalText(page)), 'a shell prompt')
  }

  it('a long line typed at one width reads the same after a reload at another width', { timeout: 120_000 }, async () => {
    const project = writeTree(tempDir('hotaru-e2e-term-'), { 'README.md': '# Term\n' })
    const { served, page, errors } = await servedProject(project)
    try {
      await activeView(page).getByTestId('file-tree').getByText('README.md').waitFor()
      await openTerminal(page)
      const wide = await terminalGrid(page)

      // Longer than two rows of the wide terminal: the shell's line editor wraps it at that width.
      const words = Array.from({ length: 70 }, (_, i) => `w${String(i).padStart(3, '0')}`).join('-')
      expect(words.length).toBeGreaterThan(2 * wide.cols)
      await activeView(page).locator('[data-testid="terminal-view"]:not(.hidden) .xterm').click()
      await page.keyboard.type(`echo ${words}`)
      await page.keyboard.press('Enter')
      await until(async () => (await terminalText(page)).split('\n').includes(words), 'the echoed line')
      await screenshot(page, 'terminal-01-long-line-wide')
      await page.waitForTimeout(600) // the layout (terminal panel open) is saved debounced

      // Reload in a much narrower window: the terminal comes back at the new width.
      await page.setViewportSize({ width: 760, height: 860 })
      await page.reload()
      await page.getByText('Connected').waitFor()
      await page.getByRole('tablist', { name: 'Terminals' }).getByRole('tab').first().waitFor()
      await until(async () => (await terminalGrid(page)).cols < wide.cols / 1.5, 'the terminal fitted to the narrow window')
      await until(async () => (await terminalText(page)).split('\n').includes(words), 'the echoed line after the reload')
      const lines = (await terminalText(page)).split('\n')
      // The command line reads as typed (prompt, then the whole command), not overwritten by its own wrapping.
      const command = lines.find((line) => line.includes(`echo w000`))
      expect(command).toBeDefined()
      expect(command?.endsWith(`echo ${words}`)).toBe(true)
      expect(lines.filter((line) => line === words)).toHaveLength(1)
      await screenshot(page, 'terminal-02-long-line-after-narrow-reload')

      // The shell itself runs at the new width.
      await activeView(page).locator('[data-testid="terminal-view"]:not(.hidden) .xterm').click()
      await page.keyboard.type('echo "cols=$(tput cols)"')
      await page.keyboard.press('Enter')
      const narrow = await terminalGrid(page)
      await until(async () => (await terminalText(page)).includes(`cols=${narrow.cols}`), `the shell sees ${narrow.cols} columns`)
      expect(errors).toEqual([])
    } finally {
      await page.close()
      await served.stop()
    }
  })

  it('a large output arrives whole and in order, multibyte characters across frame boundaries intact', { timeout: 120_000 }, async () => {
    // ~8 MB of numbered lines mixing 2-, 3- and 4-byte UTF-8 characters: many binary frames,
    // the pty's reads split characters anywhere, and xterm holds the last 10 000 lines.
    const count = 120_000
    const line = (i: number) => `${String(i).padStart(6, '0')} grün 日本語 🎉 ${'.'.repeat(i % 23)}|`
    const body = Array.from({ length: count }, (_, i) => line(i)).join('\n') + '\n'
    const project = writeTree(tempDir('hotaru-e2e-term-big-'), { 'big.txt': body })
    const { served, page, errors } = await servedProject(project)
    try {
      await openTerminal(page)
      await activeView(page).locator('[data-testid="terminal-view"]:not(.hidden) .xterm').click()
      await page.keyboard.type('clear; cat big.txt; echo END-""OF-CAT')
      await page.keyboard.press('Enter')
      await until(async () => (await terminalText(page)).includes('END-OF-CAT'), 'the end of the output', 90_000)
      const lines = (await terminalText(page)).split('\n')
      const last = lines.indexOf(line(count - 1))
      expect(last).toBeGreaterThan(5000)
      const tail = lines.slice(last - 5000, last + 1)
      expect(tail).toEqual(Array.from({ length: 5001 }, (_, i) => line(count - 5001 + i)))
      const counters = () =>
        page.evaluate<{ received: number; processed: number }>(
          '(() => { const t = window.hotaruInspect.terminals()[0]; return { received: t.received, processed: t.processed } })()',
        )
      // Everything received is parsed, counted in characters as the core counts them.
      await until(async () => {
        const { received, processed } = await counters()
        return processed === received
      }, 'xterm to parse all it received')
      expect((await counters()).received).toBeGreaterThan(body.length)
      expect(errors).toEqual([])
    } finally {
      await page.close()
      await served.stop()
    }
  })
})
