import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { screenshot, useBrowser } from '../support/browser'
import { gitRepo, runGit } from '../support/git-repo'
import { servedPage } from '../support/served-page'

describe('the file tree and @-mentions follow the worktree shown (hotaru serve)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('while a worktree chat is shown the tree lists its own files and @ offers them; the main folder comes back with its chat', { timeout: 180_000 }, async () => {
    const repo = gitRepo({ 'README.md': '# Repo\n', 'main-only.txt': 'main\n' })
    runGit(repo, ['rm', '--quiet', '--cached', 'main-only.txt'])
    runGit(repo, ['commit', '--quiet', '-m', 'untrack main-only'])
    const ui = await servedPage(shared)
    const { page, errors } = ui
    const head = () => ui.view().getByTestId('sidebar-head')
    const row = (path: string) => ui.view().locator(`[data-testid="file-tree"] [data-path="${path}"]`)
    try {
      await ui.openProject(repo)
      await row('main-only.txt').waitFor()
      // A file open in the main folder's editor before the worktree is shown.
      await row('main-only.txt').click()
      const mainEditor = ui.view().locator('[data-testid="code-editor"][data-path="main-only.txt"]')
      // Monaco can take seconds to show a file on a busy machine; expect.poll gives up after 1 s unless told.
      await expect.poll(() => mainEditor.innerText(), { timeout: 30_000 }).toMatch(/main/)

      await ui.chat().getByRole('button', { name: 'New session' }).click()
      await page.getByRole('menuitem', { name: 'New session in a new worktree…' }).click()
      const dialog = page.getByRole('dialog', { name: 'New session in a new worktree' })
      await dialog.getByLabel('Worktree name').fill('feature')
      await dialog.getByRole('button', { name: 'Create worktree' }).click()
      const bar = ui.chat().getByTestId('worktree-bar')
      await bar.waitFor()
      const worktree = runGit(repo, ['worktree', 'list', '--porcelain'])
        .split('\n')
        .filter((line) => line.startsWith('worktree '))
        .map((line) => line.slice('worktree '.length))
        .find((path) => path.endsWith('/feature'))
      expect(worktree).toBeDefined()
      writeFileSync(join(worktree as string, 'only-in-worktree.txt'), 'from the worktree\n')

      // The tree names the worktree and its branch, and lists the worktree's files, not the main folder's.
      await expect.poll(() => head().getAttribute('data-worktree'), { timeout: 30_000 }).toBe('feature')
      expect(await head().textContent()).toContain('feature')
      // The branch arrives with the worktree list, which may come after the folder.
      await expect.poll(() => head().textContent(), { timeout: 30_000 }).toContain('hotaru/feature')
      await row('only-in-worktree.txt').waitFor({ timeout: 30_000 })
      expect(await row('main-only.txt').count()).toBe(0)
      expect(await mainEditor.count()).toBe(0)
      await screenshot(page, 'worktree-folder-01-tree')

      // @ completes the worktree's file and inserts its path.
      const input = ui.chat().getByTestId('chat-input')
      await input.fill('Look at @only-in')
      const option = ui.chat().getByTestId('mention-suggestions').getByRole('option').filter({ hasText: 'only-in-worktree.txt' })
      await option.waitFor({ timeout: 30_000 })
      await screenshot(page, 'worktree-folder-02-mention')
      await option.click()
      expect(await input.inputValue()).toBe('Look at @only-in-worktree.txt ')
      await input.fill('')

      // Quick Open finds it too, and opens the worktree's copy in the editor.
      await page.locator('body').click({ position: { x: 5, y: 5 } })
      await page.keyboard.press('Control+P')
      const quick = page.getByRole('dialog', { name: 'Go to file' })
      await quick.getByRole('combobox', { name: 'File name' }).fill('onlyin')
      await quick.getByRole('option', { name: 'only-in-worktree.txt' }).waitFor()
      await page.keyboard.press('Enter')
      const editor = ui.view().locator('[data-testid="code-editor"][data-path="only-in-worktree.txt"]')
      await editor.waitFor()
      await expect.poll(() => editor.innerText(), { timeout: 30_000 }).toMatch(/from\sthe\sworktree/)
      await expect.poll(() => page.title(), { timeout: 30_000 }).toMatch(/^only-in-worktree\.txt — /)

      // Back on the main folder: its own files again, and @ no longer offers the worktree's.
      await bar.getByRole('button', { name: 'Main folder' }).click()
      await bar.waitFor({ state: 'detached' })
      await row('main-only.txt').waitFor()
      expect(await head().getAttribute('data-worktree')).toBe('')
      expect(await head().textContent()).not.toContain('feature')
      expect(await row('only-in-worktree.txt').count()).toBe(0)
      expect(await editor.count()).toBe(0)
      await expect.poll(() => mainEditor.innerText(), { timeout: 30_000 }).toMatch(/main/)
      await input.fill('Look at @main-on')
      await ui.chat().getByTestId('mention-suggestions').getByRole('option').filter({ hasText: 'main-only.txt' }).waitFor({ timeout: 30_000 })
      await input.fill('Look at @only-in')
      await ui.chat().getByTestId('mention-suggestions').waitFor()
      expect(await ui.chat().getByTestId('mention-suggestions').getByRole('option').filter({ hasText: 'only-in-worktree.txt' }).count()).toBe(0)
      await screenshot(page, 'worktree-folder-03-main')
      expect(errors).toEqual([])
    } catch (error) {
      await screenshot(page, 'worktree-folder-failure').catch(() => undefined)
      throw error
    } finally {
      await ui.close()
    }
  })
})
