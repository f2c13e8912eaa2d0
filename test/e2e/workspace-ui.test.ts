import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startServe, type Served } from '../support/cli'
import { screenshot, useBrowser, watchErrors } from '../support/browser'
import { until } from '../support/until'
import { tempDir, writeTree } from '../support/temp'

/** A process that ended is gone; a zombie (ended, not yet reaped by its new parent) counts as gone too. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false
    throw error
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return false
  }
}

function gitRepo(files: Record<string, string>): string {
  const root = writeTree(tempDir('hotaru-e2e-alpha-'), files)
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=e2e@example.com', '-c', 'user.name=e2e', ...args], { cwd: root, stdio: 'pipe' })
  git('init', '-q', '-b', 'main')
  git('add', '.')
  git('commit', '-qm', 'init')
  return root
}

const activeView = (page: Page) => page.locator('[data-testid="project-view"][data-active="true"]')

async function terminalText(page: Page): Promise<string> {
  // A string: the test runs in Node (no DOM types); the page reads the terminals' text (drawn on canvas).
  return page.evaluate<string>("(window.hotaruInspect?.terminalText() ?? []).join('\\n---\\n')")
}

async function openByPath(page: Page, path: string): Promise<void> {
  await page.getByRole('button', { name: 'Open a folder' }).click()
  await page.getByTestId('open-path-input').fill(path)
  await page.getByTestId('open-path-submit').click()
}

async function startTerminal(page: Page): Promise<number> {
  const before = await activeView(page).getByTestId('terminal-tab').count()
  await page.keyboard.press('Control+Shift+Backquote')
  await until(async () => (await activeView(page).getByTestId('terminal-tab').count()) > before, 'a terminal tab')
  const tab = activeView(page).getByTestId('terminal-tab').last()
  return Number(await tab.getAttribute('data-pid'))
}

async function typeInTerminal(page: Page, text: string): Promise<void> {
  await activeView(page).locator('[data-testid="terminal-view"]:not(.hidden) .xterm').click()
  await page.keyboard.type(text)
}

describe('workspace UI in Chromium (hotaru serve)', () => {
  const shared = useBrowser()

  it('tabs, live tree, editor save, terminals, closing and restoring', { timeout: 120_000 }, async () => {
    const dataDir = tempDir()
    const alpha = gitRepo({
      '.gitignore': 'dist/\n',
      'README.md': '# Alpha\n',
      'src/index.ts': 'export const answer = 42\n',
    })
    writeFileSync(join(alpha, 'README.md'), '# Alpha (changed)\n')
    const beta = writeTree(tempDir('hotaru-e2e-beta-'), { 'notes.txt': 'beta notes\n', 'lib/util.js': 'module.exports = 1\n' })
    const alphaName = alpha.split('/').at(-1) as string
    const betaName = beta.split('/').at(-1) as string
    const env = { HOTARU_DATA_DIR: dataDir, SHELL: '/bin/bash' }
    let served: Served = await startServe(['--port', '0'], env)
    const page = await shared.browser.newPage({ viewport: { width: 1400, height: 860 } })
    const errors = watchErrors(page)
    try {
      await page.goto(served.url)
      await page.getByText('Connected').waitFor()

      // Two projects as tabs; each shows its own tree.
      await page.getByTestId('open-path-input').fill(alpha)
      await page.getByTestId('open-path-submit').click()
      await activeView(page).getByTestId('file-tree').getByText('README.md').waitFor()
      await openByPath(page, beta)
      await activeView(page).getByTestId('file-tree').getByText('notes.txt').waitFor()
      expect(await page.getByRole('tab', { name: betaName }).getAttribute('aria-selected')).toBe('true')
      expect(await activeView(page).getByTestId('file-tree').getByText('README.md').count()).toBe(0)
      await page.getByRole('tab', { name: alphaName }).click()
      const tree = activeView(page).getByTestId('file-tree')
      await tree.getByText('README.md').waitFor()
      expect(await tree.locator('.tree-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')))).toEqual([
        'src',
        '.gitignore',
        'README.md',
      ])
      // git status colours: README.md is modified.
      await until(async () => ((await tree.locator('[data-path="README.md"]').getAttribute('class')) ?? '').includes('git-modified'), 'git colour')
      await screenshot(page, 'workspace-ui-01-two-tabs')

      // A file created on disk appears without a refresh.
      writeFileSync(join(alpha, 'created-on-disk.ts'), 'export const fromDisk = 1\n')
      await tree.locator('[data-path="created-on-disk.ts"]').waitFor()
      await screenshot(page, 'workspace-ui-02-file-appeared')

      // Open it in Monaco, edit, save with the keyboard, verify on disk.
      await tree.locator('[data-path="created-on-disk.ts"]').click()
      const editor = activeView(page).locator('[data-testid="code-editor"][data-path="created-on-disk.ts"]')
      await editor.locator('.view-line').first().waitFor()
      await until(
        async () => (await editor.locator('.view-lines').innerText()).replace(/\u00a0/g, ' ').includes('fromDisk'),
        'file text in the editor',
      )
      await editor.locator('.view-lines').click()
      await page.keyboard.press('Control+End')
      await page.keyboard.type('export const edited = true')
      // As in VS Code, Enter accepts a suggestion when the suggest widget is open (it may be, for `true`):
      // close it first, so Enter starts a new line.
      await page.keyboard.press('Escape')
      await page.keyboard.press('Enter')
      await activeView(page).locator('.editor-tab.dirty[data-path="created-on-disk.ts"]').waitFor()
      await screenshot(page, 'workspace-ui-03-editing')
      await page.keyboard.press('Control+S')
      await until(() => readFileSync(join(alpha, 'created-on-disk.ts'), 'utf8').includes('export const edited = true'), 'saved content on disk')
      await activeView(page).locator('.editor-tab:not(.dirty)[data-path="created-on-disk.ts"]').waitFor()
      expect(readFileSync(join(alpha, 'created-on-disk.ts'), 'utf8')).toBe('export const fromDisk = 1\nexport const edited = true\n')
      const editorText = async () => (await editor.locator('.view-lines').innerText()).replace(/\u00a0/g, ' ')

      // Changed on disk while clean: the editor follows. While dirty: the user is asked, and can compare.
      writeFileSync(join(alpha, 'created-on-disk.ts'), 'export const fromDisk = 2\n')
      await until(async () => (await editorText()).includes('fromDisk = 2'), 'editor follows the disk')
      await editor.locator('.view-lines').click()
      await page.keyboard.press('Control+End')
      await page.keyboard.type('// mine')
      await activeView(page).locator('.editor-tab.dirty[data-path="created-on-disk.ts"]').waitFor()
      writeFileSync(join(alpha, 'created-on-disk.ts'), 'export const fromDisk = 3\n')
      const banner = activeView(page).getByTestId('conflict-banner')
      await banner.waitFor()
      expect(await editorText()).toContain('// mine')
      await banner.getByRole('button', { name: 'Compare' }).click()
      const diff = activeView(page).getByTestId('diff-view')
      // The count comes from the diff worker: it proves the workers run under the CSP.
      await diff.getByText(/\d+ changes?/).waitFor()
      await screenshot(page, 'workspace-ui-03b-conflict-diff')
      await diff.getByTestId('diff-toggle').click()
      await activeView(page).getByRole('button', { name: 'Close diff' }).click()
      await banner.getByRole('button', { name: 'Reload from disk' }).click()
      await until(async () => (await editorText()).includes('fromDisk = 3') && !(await editorText()).includes('// mine'), 'reloaded from disk')
      await activeView(page).locator('.editor-tab:not(.dirty)[data-path="created-on-disk.ts"]').waitFor()

      // A terminal runs a command; its output is read back from the terminal.
      const firstPid = await startTerminal(page)
      expect(running(firstPid)).toBe(true)
      await typeInTerminal(page, 'echo "answer-$((6*7))"\n')
      await until(async () => (await terminalText(page)).includes('answer-42'), 'terminal output')
      await screenshot(page, 'workspace-ui-04-terminal')

      // The terminal survives a tab switch with its screen intact.
      await page.getByRole('tab', { name: betaName }).click()
      await activeView(page).getByTestId('file-tree').getByText('notes.txt').waitFor()
      await page.getByRole('tab', { name: alphaName }).click()
      expect(running(firstPid)).toBe(true)
      expect(await terminalText(page)).toContain('answer-42')

      // Restart the server: the tabs come back with their layout (open file, terminal panel).
      await page.waitForTimeout(600) // the layout is saved debounced
      await served.stop()
      await until(() => !running(firstPid), 'terminals end with the server')
      served = await startServe(['--port', '0'], env)
      await page.goto(served.url)
      await page.getByText('Connected').waitFor()
      await page.getByRole('tab', { name: alphaName }).waitFor()
      await page.getByRole('tab', { name: betaName }).waitFor()
      expect(await page.getByRole('tab').filter({ hasText: alphaName }).count()).toBe(1)
      await activeView(page).locator('.editor-tab[data-path="created-on-disk.ts"]').waitFor()
      await activeView(page).getByTestId('file-tree').locator('[data-path="created-on-disk.ts"]').waitFor()
      const restored = activeView(page).locator('[data-testid="code-editor"][data-path="created-on-disk.ts"] .view-lines')
      await until(async () => (await restored.innerText()).replace(/\u00a0/g, ' ').includes('fromDisk = 3'), 'restored editor content')
      await screenshot(page, 'workspace-ui-05-restored')

      // Closing a tab ends its terminals' processes.
      const pid = await startTerminal(page)
      await typeInTerminal(page, 'sleep 600 & echo "child=$!"\n')
      await until(async () => /child=\d+/.test(await terminalText(page)), 'background child pid')
      const child = Number(/child=(\d+)/.exec(await terminalText(page))?.[1])
      expect(running(pid) && running(child)).toBe(true)
      await page.getByRole('button', { name: `Close ${alphaName}` }).click()
      await until(async () => (await page.getByRole('tab', { name: alphaName }).count()) === 0, 'tab closed')
      await until(() => !running(pid) && !running(child), `pty ${pid} and its child ${child} gone`)
      await activeView(page).getByTestId('file-tree').getByText('notes.txt').waitFor()
      await screenshot(page, 'workspace-ui-06-closed')
      // While the server was down the page's reconnect attempts failed; that is expected, nothing else is.
      expect(errors.filter((e) => !/WebSocket connection .* failed: .*ERR_CONNECTION_REFUSED/.test(e))).toEqual([])
    } finally {
      await page.close()
      await served.stop()
    }
  })
})
