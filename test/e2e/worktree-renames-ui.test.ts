import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { screenshot, useBrowser } from '../support/browser'
import { gitRepo } from '../support/git-repo'
import { servedPage } from '../support/served-page'
import { until } from '../support/until'

const UTIL = Array.from({ length: 12 }, (_, i) => `export const v${i} = ${i}`).join('\n') + '\n'

describe('renamed files of a worktree in Chromium (hotaru serve + fake LLM)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('Changes and the merge preview show "old → new", with the diff from the old content; the merge moves the file', { timeout: 180_000 }, async () => {
    const repo = gitRepo({ 'util.ts': UTIL })
    const ui = await servedPage(shared, { userConfig: { permission: { bash: 'allow' } } })
    const { page } = ui
    try {
      await ui.openProject(repo)
      await ui.chat().getByRole('button', { name: 'New session' }).click()
      await page.getByRole('menuitem', { name: 'New session in a new worktree…' }).click()
      const dialog = page.getByRole('dialog', { name: 'New session in a new worktree' })
      await dialog.getByLabel('Worktree name').fill('mv')
      await dialog.getByRole('button', { name: 'Create worktree' }).click()
      const bar = ui.chat().getByTestId('worktree-bar')
      await bar.waitFor()

      shared.fake.enqueue(
        { toolCalls: [{ name: 'bash', args: { command: "mkdir lib && git mv util.ts lib/util.ts && sed -i 's/v3 = 3/v3 = 33/' lib/util.ts", description: 'move util' } }] },
        { text: 'Moved util.' },
      )
      const input = ui.chat().getByTestId('chat-input')
      await input.fill('RENAME: move util into lib')
      await input.press('Enter')
      await ui.chat().getByText('Moved util.').waitFor({ timeout: 60_000 })
      await until(async () => (await bar.getByTestId('worktree-changes-count').innerText()) === '1 file changed', 'one file changed', 30_000)

      await bar.getByRole('button', { name: 'Changes of worktree mv' }).click()
      const changes = page.getByRole('dialog', { name: 'Changes in worktree mv' })
      const row = changes.locator('[data-testid="changes-file"][data-path="lib/util.ts"]')
      await row.waitFor()
      expect(await row.getAttribute('data-from')).toBe('util.ts')
      expect(await row.innerText()).toMatch(/renamed util\.ts → lib\/util\.ts, \d+% similar/)
      // The diff is against the old path's content: one line changed, not a whole new file.
      await until(async () => (await changes.getByTestId('worktree-file-diff').innerText()).replace(/\u00a0/g, ' ').includes('v3 = 33'), 'rename diff shown')
      expect(await changes.getByTestId('worktree-file-diff').innerText()).toContain('base: util.ts')
      await screenshot(page, 'worktree-rename-changes')

      await changes.getByRole('button', { name: 'Merge…' }).click()
      const merge = page.getByRole('dialog', { name: 'Merge worktree mv into the main tree' })
      const planned = merge.locator('[data-testid="changes-file"][data-path="lib/util.ts"]')
      await planned.waitFor()
      expect(await planned.innerText()).toContain('renamed util.ts → lib/util.ts')
      expect(await merge.locator('[data-testid="changes-file"][data-path="util.ts"]').count()).toBe(0)
      await merge.getByRole('button', { name: 'Merge', exact: true }).click()
      await merge.getByTestId('merge-result').waitFor()
      expect(await merge.getByTestId('merge-result').innerText()).toContain('(1 renamed)')
      expect(existsSync(join(repo, 'util.ts'))).toBe(false)
      expect(readFileSync(join(repo, 'lib/util.ts'), 'utf8')).toContain('v3 = 33')
      await screenshot(page, 'worktree-rename-merged')
      expect(ui.errors.join('\n')).toBe('')
    } finally {
      await ui.close()
    }
  })
})
