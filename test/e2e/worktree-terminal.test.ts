import { realpathSync } from 'node:fs'
import { basename } from 'node:path'
import { describe, expect, it } from 'vitest'
import { screenshot, useBrowser } from '../support/browser'
import { gitRepo, runGit } from '../support/git-repo'
import { servedPage, type ServedPage } from '../support/served-page'
import { until } from '../support/until'

interface Shown {
  projectId: string
  id: string
  lines: string[]
}

/** Every terminal's project, id and text lines, as the page holds them. */
function terminals(ui: ServedPage): Promise<Shown[]> {
  return ui.page.evaluate<Shown[]>(`(() => {
    const info = window.hotaruInspect.terminals()
    const text = window.hotaruInspect.terminalText()
    return info.map((t, i) => ({ projectId: t.projectId, id: t.id, lines: text[i].split('\\n') }))
  })()`)
}

/** The tabs of the terminal panel: "name · where" as shown. */
async function tabLabels(ui: ServedPage): Promise<string[]> {
  const tabs = ui.view().getByTestId('terminal-tab')
  const labels: string[] = []
  for (const tab of await tabs.all()) {
    labels.push(`${await tab.locator('.terminal-tab-name').textContent()} · ${await tab.getByTestId('terminal-tab-where').textContent()}`)
  }
  return labels
}

/** Types `pwd -P` into the terminal shown and waits for a terminal (other than `known`) to print `path` on a line of its own. */
async function pwdPrints(ui: ServedPage, path: string, known: Shown[] = []): Promise<Shown> {
  await ui.view().locator('[data-testid="terminal-view"]:not(.hidden) .xterm').click()
  await ui.page.keyboard.type('pwd -P')
  await ui.page.keyboard.press('Enter')
  let found: Shown | undefined
  await until(async () => {
    found = (await terminals(ui)).find((t) => t.lines.includes(path) && !known.some((k) => k.projectId === t.projectId && k.id === t.id))
    return found !== undefined
  }, `a terminal printing ${path}`)
  return found as Shown
}

describe('terminals of worktree chats in Chromium (hotaru serve)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('while the tab shows a worktree chat, a new terminal runs in the worktree; the main folder terminal stays where it was; removal closes it', { timeout: 180_000 }, async () => {
    const repo = gitRepo({ 'README.md': '# Repo\n' })
    const ui = await servedPage(shared)
    const { page } = ui
    try {
      await ui.openProject(repo)
      const folder = basename(repo)

      // A terminal in the main folder first.
      await page.keyboard.press('Control+Shift+Backquote')
      await ui.view().getByTestId('terminal-tab').first().waitFor()
      const main = await pwdPrints(ui, realpathSync(repo))
      expect(await tabLabels(ui)).toEqual([`bash · ${folder}`])

      // New session in a new worktree: the tab shows its chat.
      await ui.chat().getByRole('button', { name: 'New session' }).click()
      await page.getByRole('menuitem', { name: 'New session in a new worktree…' }).click()
      const dialog = page.getByRole('dialog', { name: 'New session in a new worktree' })
      await dialog.getByLabel('Worktree name').fill('feature')
      await dialog.getByRole('button', { name: 'Create worktree' }).click()
      await ui.chat().getByTestId('worktree-bar').waitFor()
      const worktreePath = runGit(repo, ['worktree', 'list', '--porcelain'])
        .split('\n')
        .filter((line) => line.startsWith('worktree '))
        .map((line) => line.slice('worktree '.length))
        .find((path) => path.endsWith('/feature'))
      expect(worktreePath).toBeDefined()
      const worktreeReal = realpathSync(worktreePath as string)

      // "New terminal" now starts in the worktree, and its tab says so.
      await ui.view().getByTestId('new-terminal').click()
      await until(async () => (await ui.view().getByTestId('terminal-tab').count()) === 2, 'a second terminal tab')
      const inWorktree = await pwdPrints(ui, worktreeReal)
      expect(inWorktree.projectId).not.toBe(main.projectId)
      expect(await tabLabels(ui)).toEqual([`bash · ${folder}`, 'bash · feature'])
      await screenshot(page, 'worktree-terminal-01-in-worktree')

      // The first terminal still runs in the main folder.
      await ui.view().getByTestId('terminal-tab').first().click()
      await page.keyboard.type('echo main-$((40+2))')
      await page.keyboard.press('Enter')
      await until(async () => (await terminals(ui)).find((t) => t.projectId === main.projectId && t.id === main.id)?.lines.includes('main-42') ?? false, 'the main terminal answering')

      // After a reload both come back, each labelled with where it runs.
      await page.reload()
      await page.getByText('Connected').waitFor()
      await until(async () => (await tabLabels(ui).catch(() => [])).length === 2, 'both terminals restored')
      expect((await tabLabels(ui)).sort()).toEqual([`bash · ${folder}`, 'bash · feature'].sort())
      const restored = await terminals(ui)
      expect(restored.find((t) => t.projectId === inWorktree.projectId)?.lines).toContain(worktreeReal)

      // Removing the worktree ends its terminal and closes its tab; the main folder's keeps running.
      const bar = ui.chat().getByTestId('worktree-bar')
      await bar.getByRole('button', { name: 'Remove worktree feature' }).click()
      await page.getByRole('dialog', { name: 'Remove worktree feature' }).getByRole('button', { name: 'Remove' }).click()
      await until(async () => (await ui.chat().getByTestId('worktree-bar').count()) === 0, 'back in the main folder')
      await until(async () => (await tabLabels(ui)).length === 1, 'the worktree terminal closed')
      expect(await tabLabels(ui)).toEqual([`bash · ${folder}`])

      // Back on the main folder's chat, a new terminal starts in the main folder again.
      await page.keyboard.press('Control+Shift+Backquote')
      await until(async () => (await ui.view().getByTestId('terminal-tab').count()) === 2, 'a new terminal tab')
      const again = await pwdPrints(ui, realpathSync(repo), [main])
      expect(again.projectId).toBe(main.projectId)
      expect(again.id).not.toBe(main.id)
      await screenshot(page, 'worktree-terminal-02-main-again')
      expect(ui.errors.join('\n')).toBe('')
    } finally {
      await ui.close()
    }
  })
})
