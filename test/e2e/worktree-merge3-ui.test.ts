import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { screenshot, useBrowser } from '../support/browser'
import { gitRepo } from '../support/git-repo'
import { servedPage } from '../support/served-page'
import { tempDir } from '../support/temp'
import { until } from '../support/until'

const BASE = Array.from({ length: 20 }, (_, i) => `export const v${i + 1} = ${i + 1}\n`).join('')

function edit(text: string, changes: Record<number, string>): string {
  return text
    .split('\n')
    .map((line, i) => changes[i + 1] ?? line)
    .join('\n')
}

/** `git merge-file` run by hand on the same three versions: what git itself makes of them. */
function gitMerged(current: string, base: string, incoming: string): string {
  const dir = tempDir('hotaru-e2e-merge-')
  for (const [name, text] of Object.entries({ current, base, incoming })) writeFileSync(join(dir, name), text)
  return execFileSync('git', ['merge-file', '-p', 'current', 'base', 'incoming'], { cwd: dir, encoding: 'utf8' })
}

describe('three-way worktree merge in Chromium (hotaru serve + fake LLM)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('merges non-overlapping changes of one file cleanly, resolves a true conflict in the merge editor, and keeps the editor tabs', { timeout: 240_000 }, async () => {
    const repo = gitRepo({ 'src/a.ts': BASE, 'src/b.ts': BASE, 'README.md': '# Repo\n' })
    const ui = await servedPage(shared, { userConfig: { permission: { edit: 'allow' } } })
    const { page } = ui
    try {
      await ui.openProject(repo)
      // The user has a file open in the editor before starting a worktree session.
      const tree = ui.view().getByTestId('file-tree')
      await tree.locator('[data-path="README.md"]').click()
      await ui.view().locator('.editor-tab[data-path="README.md"]').waitFor()

      await ui.chat().getByRole('button', { name: 'New session' }).click()
      await page.getByRole('menuitem', { name: 'New session in a new worktree…' }).click()
      const dialog = page.getByRole('dialog', { name: 'New session in a new worktree' })
      await dialog.getByLabel('Worktree name').fill('feature')
      await dialog.getByRole('button', { name: 'Create worktree' }).click()
      const bar = ui.chat().getByTestId('worktree-bar')
      await bar.waitFor()
      // The worktree's folder opens with the same tabs (its copy of README.md).
      await ui.view().locator('.editor-tab[data-path="README.md"]').waitFor()
      await screenshot(page, 'merge3-00-tabs-kept')

      // The agent changes hunks 1 and 2 of a.ts and of b.ts.
      const aWorktree = edit(BASE, { 2: 'export const v2 = 200 // fixed', 18: 'export const v18 = 1800 // agent' })
      const bWorktree = edit(BASE, { 2: 'export const v2 = 2 // agent', 18: 'export const v18 = 18 // agent' })
      shared.fake.enqueue(
        { toolCalls: [{ name: 'read', args: { filePath: 'src/a.ts' } }, { name: 'read', args: { filePath: 'src/b.ts' } }] },
        {
          toolCalls: [
            { name: 'write', args: { filePath: 'src/a.ts', content: aWorktree } },
            { name: 'write', args: { filePath: 'src/b.ts', content: bWorktree } },
          ],
        },
        { text: 'Both files changed.' },
      )
      const input = ui.chat().getByTestId('chat-input')
      await input.fill('WT: change a and b')
      await input.press('Enter')
      await ui.chat().getByText('Both files changed.').waitFor({ timeout: 60_000 })

      // Meanwhile the main tree got the same fix of hunk 1 of a.ts, and its own edits of b.ts: line 2 (overlapping) and line 10 (not).
      const aMain = edit(BASE, { 2: 'export const v2 = 200 // fixed' })
      const bMain = edit(BASE, { 2: 'export const v2 = 2 // user', 10: 'export const v10 = 10 // user' })
      writeFileSync(join(repo, 'src/a.ts'), aMain)
      writeFileSync(join(repo, 'src/b.ts'), bMain)

      await bar.getByRole('button', { name: 'Merge worktree feature' }).click()
      const merge = page.getByRole('dialog', { name: 'Merge worktree feature into the main tree' })
      await merge.getByText('Conflicts (1)').waitFor()
      await merge.getByText('Merged with your changes (1)').waitFor()
      const files = merge.getByRole('listbox', { name: 'Files to merge' })
      expect(await files.getByTestId('changes-file').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')))).toEqual(['src/b.ts', 'src/a.ts'])
      // The clean merge shows what it writes into the main tree.
      await files.locator('[data-path="src/a.ts"]').click()
      const mergedDiff = merge.locator('[data-testid="worktree-file-diff"][data-side="merged"]')
      await until(async () => (await mergedDiff.innerText()).replace(/\u00a0/g, ' ').includes('1800 // agent'), 'merged diff shown')
      await screenshot(page, 'merge3-01-preview')
      // With a conflict open, the merge waits for it.
      expect(await merge.getByRole('button', { name: 'Merge', exact: true }).isDisabled()).toBe(true)

      await files.locator('[data-path="src/b.ts"]').click()
      const resolve = merge.getByTestId('merge-resolution')
      await resolve.getByText('1 overlapping change').waitFor()
      await resolve.getByRole('button', { name: 'Resolve in the merge editor' }).click()

      // The merge editor: incoming and current above, the result below with the conflict marked.
      const editor = page.getByRole('dialog', { name: 'Merge src/b.ts' })
      const result = editor.getByTestId('merge-pane-result')
      await until(async () => (await result.innerText()).replace(/\u00a0/g, ' ').includes('<<<<<<< main tree (conflict 1)'), 'conflict marked in the result')
      await until(async () => (await editor.getByTestId('merge-pane-incoming').innerText()).replace(/\u00a0/g, ' ').includes('// agent'), 'incoming pane')
      await until(async () => (await editor.getByTestId('merge-pane-current').innerText()).replace(/\u00a0/g, ' ').includes('// user'), 'current pane')
      // The line 10 edit of the user and the line 18 edit of the agent are merged already.
      expect((await result.innerText()).replace(/\u00a0/g, ' ')).toContain('v10 = 10 // user')
      expect(await editor.getByTestId('merge-editor-status').innerText()).toBe('1 of 1 conflict left')
      expect(await editor.getByRole('button', { name: 'Use this result' }).isDisabled()).toBe(true)
      expect(await editor.locator('.merge-line-incoming').count()).toBeGreaterThan(0)
      await screenshot(page, 'merge3-02-merge-editor')
      await editor.getByTestId('merge-conflict-row').getByRole('button', { name: 'Accept both' }).click()
      await editor.getByText('All conflicts resolved').waitFor()
      await until(async () => !(await result.innerText()).includes('<<<<<<<'), 'markers gone')
      await screenshot(page, 'merge3-03-resolved')
      await editor.getByRole('button', { name: 'Use this result' }).click()

      await merge.locator('[data-path="src/b.ts"]').getByText('resolved in the merge editor').waitFor()
      await merge.getByRole('button', { name: 'Merge', exact: true }).click()
      await merge.getByTestId('merge-result').waitFor()
      expect(await merge.getByTestId('merge-result').innerText()).toContain('1 combined with your changes')
      await screenshot(page, 'merge3-04-merged')

      expect(readFileSync(join(repo, 'src/a.ts'), 'utf8')).toBe(gitMerged(aMain, BASE, aWorktree))
      expect(readFileSync(join(repo, 'src/a.ts'), 'utf8')).toBe(edit(BASE, { 2: 'export const v2 = 200 // fixed', 18: 'export const v18 = 1800 // agent' }))
      expect(readFileSync(join(repo, 'src/b.ts'), 'utf8')).toBe(
        edit(BASE, { 2: 'export const v2 = 2 // user\nexport const v2 = 2 // agent', 10: 'export const v10 = 10 // user', 18: 'export const v18 = 18 // agent' }),
      )
      await page.keyboard.press('Escape')
      await until(async () => (await bar.getByTestId('worktree-changes-count').innerText()) === 'merged', 'worktree marked merged', 30_000)
      expect(ui.errors.join('\n')).toBe('')
    } finally {
      await ui.close()
    }
  })
})
