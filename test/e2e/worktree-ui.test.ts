import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Locator } from 'playwright-core'
import { screenshot, useBrowser } from '../support/browser'
import { gitRepo } from '../support/git-repo'
import { servedPage, type ServedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'
import { until } from '../support/until'

const A_BEFORE = 'export const a = 1\n'
const A_WORKTREE = 'export const a = 2 // from the worktree\n'
const A_USER = 'export const a = 3 // the user\n'

async function send(ui: ServedPage, text: string): Promise<void> {
  const input = ui.chat().getByTestId('chat-input')
  await input.fill(text)
  await input.press('Enter')
}

/** New session (+) → "in a new worktree…": its dialog. */
async function newWorktreeDialog(ui: ServedPage): Promise<Locator> {
  await ui.chat().getByRole('button', { name: 'New session' }).click()
  await ui.page.getByRole('menuitem', { name: 'New session in a new worktree…' }).click()
  return ui.page.getByRole('dialog', { name: 'New session in a new worktree' })
}

describe('worktree sessions in Chromium (hotaru serve + fake LLM)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('a session in a new worktree edits its copy; the merge preview lists the conflict first; apply, undo, apply all, remove', { timeout: 240_000 }, async () => {
    const repo = gitRepo({ 'src/a.ts': A_BEFORE, 'src/b.ts': 'export const b = 1\n', 'README.md': '# Repo\n' })
    // Edits are allowed by the user's own config (a folder's own config allows nothing until trusted).
    const ui = await servedPage(shared, { userConfig: { permission: { edit: 'allow' } } })
    const { page } = ui
    try {
      await ui.openProject(repo)

      // New session → in a new worktree, named by the user.
      const dialog = await newWorktreeDialog(ui)
      await dialog.getByLabel('Worktree name').fill('bad name')
      await dialog.getByText(/letters, digits/).waitFor()
      await dialog.getByLabel('Worktree name').fill('feature')
      await screenshot(page, 'worktree-00-new')
      await dialog.getByRole('button', { name: 'Create worktree' }).click()
      const bar = ui.chat().getByTestId('worktree-bar')
      await bar.waitFor()
      expect(await bar.innerText()).toContain('hotaru/feature')
      // Its own ports, which its commands get as HOTARU_PORT / HOTARU_PORTS.
      expect(await bar.getByTestId('worktree-ports').innerText()).toMatch(/^ports (\d+)–(\d+)$/)
      await ui.chat().getByTestId('chat-empty').waitFor()

      // The agent edits the worktree's copy; the main tree does not change.
      shared.fake.enqueue(
        { toolCalls: [{ name: 'read', args: { filePath: 'src/a.ts' } }] },
        {
          toolCalls: [
            { name: 'write', args: { filePath: 'src/a.ts', content: A_WORKTREE } },
            { name: 'write', args: { filePath: 'src/new.ts', content: 'export const added = true\n' } },
          ],
        },
        { text: [...Array.from({ length: 30 }, (_, i) => `step${i} `), 'Done in the worktree.'], dripMs: 100 },
      )
      await send(ui, 'WT: change a and add a file')
      // While it streams, Activity names the tab and the worktree it runs in.
      await page.getByTestId('activity-button').click()
      const activity = page.getByRole('dialog', { name: 'Activity' })
      await activity.getByTestId('activity-row').getByText(/· feature$/).waitFor({ timeout: 30_000 })
      await page.keyboard.press('Escape')
      await ui.waitForChat('Done in the worktree.')
      expect(readFileSync(join(repo, 'src/a.ts'), 'utf8')).toBe(A_BEFORE)
      expect(existsSync(join(repo, 'src/new.ts'))).toBe(false)
      await until(async () => (await bar.getByTestId('worktree-changes-count').innerText()) === '2 files changed', 'two files changed', 30_000)

      // A reload comes back to the worktree's session.
      await page.reload()
      await page.getByText('Connected').waitFor()
      await bar.waitFor()
      await ui.chat().getByText('Done in the worktree.').waitFor()

      // The user edits the same file in the main tree meanwhile: a conflict.
      writeFileSync(join(repo, 'src/a.ts'), A_USER)

      // The session list groups by folder; the worktree's idle session shows its unmerged changes.
      await ui.chat().getByRole('button', { name: 'Sessions' }).click()
      const group = ui.chat().locator('[data-testid="session-group"][data-worktree="feature"]')
      await group.getByText('WT: change a and add a file').waitFor()
      await group.locator('[data-testid="session-badge"][data-badge="unmerged"]').waitFor()
      expect(await ui.chat().locator('[data-testid="session-group"][data-worktree=""]').getByText('This folder').count()).toBe(1)
      await screenshot(page, 'worktree-01-grouped')
      await group.getByRole('option', { name: /WT: change a/ }).click()

      // Remove is refused while changes are unmerged (the user keeps them).
      await bar.getByRole('button', { name: 'Remove worktree feature' }).click()
      await page.getByRole('dialog', { name: 'Remove worktree feature' }).getByRole('button', { name: 'Remove' }).click()
      const refusal = page.getByRole('dialog', { name: 'Worktree feature has unmerged changes' })
      await refusal.getByText('2 files changed in it are not merged back').waitFor()
      await refusal.getByRole('button', { name: 'Cancel' }).click()
      await bar.waitFor()

      // Changes: the worktree's files against its base, in the Monaco diff.
      await bar.getByRole('button', { name: 'Changes of worktree feature' }).click()
      const changes = page.getByRole('dialog', { name: 'Changes in worktree feature' })
      await changes.locator('[data-testid="changes-file"][data-path="src/new.ts"]').waitFor()
      await changes.locator('[data-testid="changes-file"][data-path="src/a.ts"]').click()
      await until(async () => (await changes.getByTestId('worktree-file-diff').innerText()).replace(/\u00a0/g, ' ').includes('from the worktree'), 'worktree diff shown')
      await screenshot(page, 'worktree-02-changes')

      // Merge…: the conflict comes first with both changes; nothing is written yet.
      await changes.getByRole('button', { name: 'Merge…' }).click()
      const merge = page.getByRole('dialog', { name: 'Merge worktree feature into the main tree' })
      await merge.getByText('Conflicts (1)').waitFor()
      const options = merge.getByRole('listbox', { name: 'Files to merge' }).getByTestId('changes-file')
      expect(await options.first().getAttribute('data-path')).toBe('src/a.ts')
      const conflict = merge.getByTestId('merge-conflict')
      await until(async () => (await conflict.locator('[data-side="main"]').innerText()).replace(/\u00a0/g, ' ').includes('the user'), 'main side of the conflict')
      await until(async () => (await conflict.locator('[data-side="worktree"]').innerText()).replace(/\u00a0/g, ' ').includes('from the worktree'), 'worktree side of the conflict')
      expect(readFileSync(join(repo, 'src/a.ts'), 'utf8')).toBe(A_USER)
      await screenshot(page, 'worktree-03-merge-preview')

      // A conflict opens in the diff view (worktree left, main tree right), and back.
      await conflict.getByRole('button', { name: 'Open in the diff view' }).click()
      const full = page.getByRole('dialog', { name: 'Conflict: src/a.ts' })
      await full.getByTestId('conflict-diff').waitFor()
      await screenshot(page, 'worktree-04-conflict-diff')
      await full.getByRole('button', { name: 'Back to the merge' }).click()

      // Merge, keeping the user's version where unresolved: the new file lands, the user's edit stays.
      await merge.getByRole('button', { name: 'Merge, keeping yours where unresolved' }).click()
      const result = merge.getByTestId('merge-result')
      await result.waitFor()
      expect(await result.innerText()).toContain('1 file written')
      expect(await result.innerText()).toContain('src/a.ts')
      expect(readFileSync(join(repo, 'src/new.ts'), 'utf8')).toBe('export const added = true\n')
      expect(readFileSync(join(repo, 'src/a.ts'), 'utf8')).toBe(A_USER)
      await screenshot(page, 'worktree-05-merged')
      // Undo puts the main tree back.
      await result.getByRole('button', { name: 'Undo merge' }).click()
      await result.getByText('The merge was undone').waitFor()
      expect(existsSync(join(repo, 'src/new.ts'))).toBe(false)
      expect(readFileSync(join(repo, 'src/a.ts'), 'utf8')).toBe(A_USER)
      await page.keyboard.press('Escape')

      // The worktree's version of the conflicting file, chosen for it, then merge.
      await bar.getByRole('button', { name: 'Merge worktree feature' }).click()
      await merge.getByTestId('merge-resolution').getByRole('button', { name: "Take the worktree's version" }).click()
      await merge.locator('[data-path="src/a.ts"]').getByText("resolved: the worktree's version").waitFor()
      await merge.getByRole('button', { name: 'Merge', exact: true }).click()
      await merge.getByTestId('merge-result').waitFor()
      expect(readFileSync(join(repo, 'src/a.ts'), 'utf8')).toBe(A_WORKTREE)
      expect(existsSync(join(repo, 'src/new.ts'))).toBe(true)
      await page.keyboard.press('Escape')
      await until(async () => (await bar.getByTestId('worktree-changes-count').innerText()) === 'merged', 'worktree marked merged', 30_000)

      // A worktree session that asks while the tab shows the main folder raises a notice that opens it.
      shared.fake.enqueue(
        { text: Array.from({ length: 20 }, (_, i) => `look${i} `), dripMs: 100, toolCalls: [{ name: 'bash', args: { command: 'rm -f wt-ok', description: 'Check' } }] },
        { text: 'Echoed in the worktree.' },
      )
      await send(ui, 'WT: check with bash')
      await bar.getByRole('button', { name: 'Main folder' }).click()
      await ui.chat().getByTestId('worktree-bar').waitFor({ state: 'detached' })
      const notice = page.getByTestId('ask-notice')
      await notice.waitFor({ timeout: 30_000 })
      expect(await notice.innerText()).toContain('· feature')
      await notice.getByRole('button', { name: 'Open' }).click()
      await bar.waitFor()
      const once = ui.chat().getByTestId('permission-dialog').getByTestId('permission-once')
      await until(async () => await once.isEnabled(), 'permission armed')
      await once.click()
      await ui.chat().getByText('Echoed in the worktree.').waitFor()

      // Merged: Remove goes through; nothing is left in git or on disk.
      await bar.getByRole('button', { name: 'Remove worktree feature' }).click()
      await page.getByRole('dialog', { name: 'Remove worktree feature' }).getByRole('button', { name: 'Remove' }).click()
      await until(async () => (await ui.chat().getByTestId('worktree-bar').count()) === 0, 'back in the main folder')
      const list = execFileSync('git', ['worktree', 'list', '--porcelain'], { cwd: repo, encoding: 'utf8' })
      expect(list.match(/^worktree /gm)).toHaveLength(1)
      expect(execFileSync('git', ['branch', '--list', 'hotaru/*'], { cwd: repo, encoding: 'utf8' }).trim()).toBe('')
      expect(ui.errors.join('\n')).toBe('')
    } finally {
      await ui.close()
    }
  })

  it('a folder without git gets a copy: no branch to pick or keep, merged back and removed the same way', { timeout: 120_000 }, async () => {
    const folder = writeTree(tempDir('hotaru-e2e-plain-'), { 'notes.md': '# Notes\n' })
    const ui = await servedPage(shared, { userConfig: { permission: { edit: 'allow' } } })
    const { page } = ui
    try {
      await ui.openProject(folder)
      const dialog = await newWorktreeDialog(ui)
      expect(await dialog.getByLabel('Start from').count()).toBe(0)
      await dialog.getByRole('button', { name: 'Create worktree' }).click()
      const bar = ui.chat().getByTestId('worktree-bar')
      await bar.waitFor()
      const name = (await bar.getAttribute('data-worktree')) as string
      expect(name.length).toBeGreaterThan(0)

      shared.fake.enqueue({ toolCalls: [{ name: 'write', args: { filePath: 'todo.md', content: '- ship it\n' } }] }, { text: 'Wrote the list.' })
      await send(ui, 'COPY: write a todo list')
      await ui.waitForChat('Wrote the list.')
      expect(existsSync(join(folder, 'todo.md'))).toBe(false)
      await until(async () => (await bar.getByTestId('worktree-changes-count').innerText()) === '1 file changed', 'one file changed', 30_000)

      await bar.getByRole('button', { name: `Merge worktree ${name}` }).click()
      const merge = page.getByRole('dialog', { name: `Merge worktree ${name} into the main tree` })
      await merge.locator('[data-testid="changes-file"][data-path="todo.md"]').waitFor()
      expect(await merge.getByRole('button', { name: 'Keep the branch' }).count()).toBe(0)
      await merge.getByRole('button', { name: 'Merge', exact: true }).click()
      await merge.getByTestId('merge-result').waitFor()
      expect(readFileSync(join(folder, 'todo.md'), 'utf8')).toBe('- ship it\n')
      await screenshot(page, 'worktree-06-copy-merged')
      await page.keyboard.press('Escape')

      await until(async () => (await bar.getByTestId('worktree-changes-count').innerText()) === 'merged', 'copy marked merged', 30_000)
      await bar.getByRole('button', { name: `Remove worktree ${name}` }).click()
      await page.getByRole('dialog', { name: `Remove worktree ${name}` }).getByRole('button', { name: 'Remove' }).click()
      await until(async () => (await ui.chat().getByTestId('worktree-bar').count()) === 0, 'back in the main folder')
      expect(ui.errors.join('\n')).toBe('')
    } finally {
      await ui.close()
    }
  })
})
