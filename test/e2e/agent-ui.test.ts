import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { screenshot, useBrowser } from '../support/browser'
import { until } from '../support/until'
import { BIN } from '../support/cli'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'

const CONFIG_BEFORE = Array.from({ length: 20 }, (_, i) => `export const option${i} = ${i}`).join('\n') + '\n'
const CONFIG_AFTER = CONFIG_BEFORE.replace('option2 = 2', 'option2 = 200').replace('option15 = 15', 'option15 = 1500')

const chat = (page: Page): Locator => page.locator('[data-testid="project-view"][data-active="true"] [data-testid="chat-panel"]')

async function send(page: Page, text: string): Promise<void> {
  const input = chat(page).getByTestId('chat-input')
  await input.fill(text)
  await input.press('Enter')
}

/** The permission card ignores clicks for a moment after it appears (an Enter meant for the input must not approve). */
async function clickWhenArmed(button: Locator): Promise<void> {
  await until(async () => await button.isEnabled(), 'permission buttons armed', 5_000)
  await button.click()
}

describe('agent UI in Chromium (hotaru serve + fake LLM)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('streams, asks, runs tools, shows diffs, stops, queues, nests subagents and lists sessions', { timeout: 180_000 }, async () => {
    const project = writeTree(tempDir('hotaru-e2e-agent-'), {
      'src/app.ts': 'export const answer = 42\n',
      'README.md': '# Agent test\n',
      'src/config.ts': CONFIG_BEFORE,
    })
    const ui = await servedPage(shared)
    const { page, served, errors, env } = ui
    try {
      await ui.openProject(project)

      // 1. Text streams in as markdown (a code block with a copy button), then the turn's usage shows.
      const words = 'Here is **the plan** for `src/app.ts`:\n\n- read the file\n- change the answer\n\n'.match(/\S+\s*/g) ?? []
      shared.fake.enqueue({ text: [...words, '```ts\n', 'export const answer = 43\n', '```\n'], dripMs: 120, usage: { input: 1200, output: 80 } })
      // `@` completes project files (fuzzy); Tab takes the suggestion.
      const input = chat(page).getByTestId('chat-input')
      await input.pressSequentially('Plan the change to @apts')
      const mentions = chat(page).getByTestId('mention-suggestions')
      await until(async () => (await mentions.innerText()).includes('src/app.ts'), 'file suggestion')
      await screenshot(page, 'agent-ui-00-mention')
      await input.press('Tab')
      expect(await input.inputValue()).toBe('Plan the change to @src/app.ts ')
      await input.pressSequentially('please')
      await input.press('Enter')
      const first = chat(page).getByTestId('assistant-message').first()
      await until(async () => (await first.getAttribute('data-complete')) === 'false' && (await first.innerText()).includes('plan'), 'text streaming in')
      await screenshot(page, 'agent-ui-01-streaming')
      await chat(page).locator('[data-testid="assistant-message"][data-complete="true"]').first().waitFor()
      await first.locator('strong', { hasText: 'the plan' }).waitFor()
      await first.locator('.md-code .md-copy').waitFor()
      expect((await first.locator('.md-code code').innerText()).replace(/\u00a0/g, ' ')).toContain('export const answer = 43')
      await first.getByTestId('turn-usage').waitFor()
      await chat(page).getByTestId('context-meter').waitFor()
      await screenshot(page, 'agent-ui-02-markdown')

      // 2. A bash call that writes asks first (read-only commands alone would run unasked): each analysed command
      // is listed; "once" runs it and the card shows the output.
      shared.fake.enqueue(
        { text: 'Running it.', toolCalls: [{ name: 'bash', args: { command: 'touch checked && echo hotaru-ok && ls src', description: 'Check the project' } }] },
        { text: 'The command worked.' },
      )
      await send(page, 'Run a check')
      const ask = chat(page).getByTestId('permission-dialog')
      await ask.waitFor()
      expect(await ask.getAttribute('data-permission')).toBe('bash')
      const patterns = await ask.getByTestId('permission-patterns').locator('code').allInnerTexts()
      expect(patterns).toEqual(['touch checked', 'echo hotaru-ok', 'ls src'])
      expect((await ask.getByTestId('permission-always').innerText()).length).toBeGreaterThan(0)
      await until(async () => (await page.evaluate('document.activeElement?.dataset?.testid')) === 'permission-dialog', 'ask takes focus')
      await until(async () => (await page.locator('.tab .status-dot.waiting').count()) > 0, 'tab dot waiting')
      await screenshot(page, 'agent-ui-03-permission')
      // Keyboard: Enter allows once (after the short arming delay).
      await until(async () => await ask.getByTestId('permission-once').isEnabled(), 'armed')
      await page.keyboard.press('Enter')
      const bash = chat(page).locator('[data-testid="tool-card"][data-tool="bash"]')
      await chat(page).locator('[data-testid="tool-card"][data-tool="bash"][data-status="completed"]').waitFor()
      await until(async () => (await bash.getByTestId('bash-output').innerText()).includes('hotaru-ok'), 'bash output in the card')
      expect(await bash.getByTestId('bash-output').innerText()).toContain('app.ts')
      await chat(page).getByText('The command worked.').waitFor()
      await screenshot(page, 'agent-ui-04-bash-card')

      // 3. An edit: the ask shows the diff, "always" remembers it, and the card shows a Monaco diff.
      shared.fake.enqueue(
        { toolCalls: [{ name: 'read', args: { filePath: 'src/app.ts' } }] },
        { toolCalls: [{ name: 'edit', args: { filePath: 'src/app.ts', oldString: 'answer = 42', newString: 'answer = 43' } }] },
        { text: 'Changed the answer to 43.' },
      )
      await send(page, 'Make it 43')
      await chat(page).locator('[data-testid="permission-dialog"][data-permission="edit"]').waitFor()
      await chat(page).getByTestId('permission-diff').waitFor()
      expect(await chat(page).getByTestId('permission-diff').innerText()).toContain('+export const answer = 43')
      await screenshot(page, 'agent-ui-05-edit-ask')
      await chat(page).getByTestId('permission-scope').selectOption('session')
      await clickWhenArmed(chat(page).getByTestId('permission-always-button'))
      // The finished edit is a compact chip (the diff lives in the editor, not the chat column).
      const edit = chat(page).locator('[data-testid="edit-chip"][data-path="src/app.ts"]')
      await edit.waitFor()
      expect(await edit.textContent()).toBe('Editedsrc/app.ts+1 −1')
      expect(await chat(page).getByTestId('diff-view').count()).toBe(0)
      expect(readFileSync(join(project, 'src/app.ts'), 'utf8')).toBe('export const answer = 43\n')
      await chat(page).getByText('Changed the answer to 43.').waitFor()
      await screenshot(page, 'agent-ui-06-edit-diff')

      // 3b. Turn review: a turn changed two places of a file; rejecting one hunk reverts it on disk.
      shared.fake.enqueue(
        { toolCalls: [{ name: 'read', args: { filePath: 'src/config.ts' } }] },
        { toolCalls: [{ name: 'write', args: { filePath: 'src/config.ts', content: CONFIG_AFTER } }] },
        { text: 'Updated two options.' },
      )
      await send(page, 'Update the options')
      await chat(page).getByText('Updated two options.').waitFor()
      const review = chat(page).getByTestId('review-turn').last()
      await review.waitFor()
      await review.click()
      const changes = page.getByTestId('changes-view')
      await changes.locator('[data-testid="changes-file"][data-path="src/config.ts"]').waitFor()
      const hunks = changes.getByTestId('hunk')
      await until(async () => (await hunks.count()) === 2, 'two hunks')
      await changes.getByTestId('diff-view').getByText(/[1-9]\d* changes?/).waitFor()
      // The hunk actions sit inline in the diff editor, above each hunk.
      await changes.getByTestId('diff-view').getByRole('button', { name: 'Reject hunk 2 of 2' }).click()
      // A rejected hunk is reverted on disk and leaves the diff.
      await until(async () => (await hunks.count()) === 1, 'rejected hunk gone from the diff')
      await changes.getByRole('button', { name: 'Accept hunk 1 of 2' }).click()
      await until(async () => (await hunks.nth(0).getAttribute('data-state')) === 'accepted', 'hunk accepted')
      await changes.getByText('1 of 1 file reviewed').waitFor()
      expect(readFileSync(join(project, 'src/config.ts'), 'utf8')).toBe(CONFIG_BEFORE.replace('option2 = 2', 'option2 = 200'))
      await screenshot(page, 'agent-ui-06b-turn-review')
      await page.keyboard.press('Escape')
      await until(async () => (await changes.count()) === 0, 'review closed')

      // 4. A slow turn: a message sent meanwhile is queued; Stop ends the turn and the queued one runs.
      shared.fake.enqueue({ text: Array.from({ length: 300 }, (_, i) => `word${i} `), dripMs: 40 }, { text: 'Answer to the queued message.' })
      await send(page, 'Write a long essay')
      await chat(page).getByTestId('stop-button').waitFor()
      // The rejected hunk reached the model with this message.
      expect(JSON.stringify(shared.fake.requests.at(-1)?.body)).toContain('option15 = 1500')
      expect(JSON.stringify(shared.fake.requests.at(-1)?.body)).toContain('rejected')
      await until(async () => (await chat(page).getByTestId('assistant-message').last().innerText()).includes('word3'), 'slow text started')
      await send(page, 'And then this')
      const queued = chat(page).locator('[data-testid="queued-message"][data-queued="true"]')
      await queued.waitFor()
      await screenshot(page, 'agent-ui-07-queued')
      await chat(page).getByTestId('stop-button').click()
      await chat(page).getByTestId('turn-stopped').waitFor()
      await chat(page).getByText('Answer to the queued message.').waitFor()
      await until(async () => (await queued.count()) === 0, 'queued message delivered')
      expect(await chat(page).getByTestId('user-message').last().innerText()).toContain('And then this')
      await screenshot(page, 'agent-ui-08-stopped')

      // 5. A subagent run is nested in its task card, with its own tool calls.
      shared.fake.enqueue(
        { toolCalls: [{ name: 'task', args: { description: 'Find the answer', prompt: 'Where is the answer defined?', subagent_type: 'explore' } }] },
        { toolCalls: [{ name: 'grep', args: { pattern: 'answer' } }] },
        { text: 'It is in src/app.ts.' },
        { text: 'The explore agent found it in src/app.ts.' },
      )
      await send(page, 'Where is the answer?')
      const task = chat(page).locator('[data-testid="tool-card"][data-tool="task"]')
      const run = task.getByTestId('subagent-run')
      await run.waitFor()
      expect(await run.getAttribute('data-agent')).toBe('explore')
      await chat(page).getByText('The explore agent found it in src/app.ts.').waitFor()
      await until(async () => (await run.getAttribute('data-session-id')) !== '', 'child session found')
      await run.locator('.subagent-head').click()
      const nested = run.getByTestId('subagent-body')
      await nested.locator('[data-testid="tool-card"][data-tool="grep"][data-status="completed"]').waitFor()
      await nested.getByText('It is in src/app.ts.').waitFor()
      await screenshot(page, 'agent-ui-09-subagent')

      // 6. The session list shows the session (newest first), searchable; a new one can be deleted.
      await chat(page).getByTestId('new-session').click()
      await page.getByRole('menuitem', { name: 'New session in this folder' }).click()
      await chat(page).getByTestId('chat-empty').waitFor()
      await chat(page).getByTestId('sessions-toggle').click()
      const items = chat(page).getByTestId('session-item')
      await until(async () => (await items.count()) === 2, 'two sessions listed')
      expect(await items.nth(1).innerText()).toContain('Plan the change')
      await screenshot(page, 'agent-ui-10-sessions')
      await chat(page).getByTestId('session-search').fill('plan change')
      await until(async () => (await items.count()) === 1, 'search narrows the list')
      await chat(page).getByTestId('session-search').fill('')
      await items.first().hover()
      await items.first().getByTestId('session-delete').click()
      await page.getByTestId('confirm-ok').click()
      await until(async () => (await items.count()) === 1, 'session deleted')
      await items.first().click()
      await chat(page).getByText('The explore agent found it in src/app.ts.').waitFor()
      await screenshot(page, 'agent-ui-10b-reopened')

      // 6b. Timeline: restore the code to before "Make it 43" through the preview, undo it, fork a session.
      await chat(page).getByTestId('timeline-toggle').click()
      const before43 = chat(page).locator('[data-testid="checkpoint"][data-trigger="message"]', { hasText: 'Make it 43' })
      await before43.waitFor()
      await screenshot(page, 'agent-ui-13-timeline')
      await before43.click()
      await before43.getByTestId('checkpoint-restore').click()
      const preview = page.getByTestId('restore-preview')
      await preview.getByTestId('restore-writes').waitFor()
      expect(await preview.getByTestId('restore-writes').innerText()).toContain('src/app.ts')
      await screenshot(page, 'agent-ui-14-restore-preview')
      await page.getByTestId('restore-apply').click()
      await chat(page).getByTestId('restore-banner').waitFor()
      expect(readFileSync(join(project, 'src/app.ts'), 'utf8')).toBe('export const answer = 42\n')
      await screenshot(page, 'agent-ui-15-restored')
      await chat(page).getByTestId('restore-undo').click()
      await until(() => readFileSync(join(project, 'src/app.ts'), 'utf8') === 'export const answer = 43\n', 'restore undone')
      await until(async () => (await chat(page).getByTestId('restore-banner').count()) === 0, 'banner gone')
      const beforeQuestion = chat(page).locator('[data-testid="checkpoint"][data-trigger="message"]', { hasText: 'Where is the answer?' })
      await beforeQuestion.click()
      await beforeQuestion.getByTestId('checkpoint-fork').click()
      await until(async () => (await chat(page).getByTestId('chat-title').innerText()).includes('(fork)'), 'forked session shown')
      await chat(page).getByText('Answer to the queued message.').waitFor()
      expect(await chat(page).getByText('Where is the answer?').count()).toBe(0)
      await screenshot(page, 'agent-ui-16-forked')

      // 7. Settings: from the palette; the theme switches.
      await page.keyboard.press('Control+Shift+P')
      await page.getByPlaceholder('Type a command').fill('open settings')
      await page.keyboard.press('Enter')
      const settings = page.getByTestId('settings-dialog')
      await settings.waitFor()
      await settings.getByTestId('theme-dark').check()
      expect(await page.evaluate('document.documentElement.dataset.theme')).toBe('dark')
      await settings.getByTestId('settings-nav-mcp').click()
      await settings.getByTestId('settings-mcp').waitFor()
      await settings.getByTestId('settings-nav-providers').click()
      await until(async () => (await settings.locator('[data-testid="provider"][data-provider="anthropic"]').getAttribute('data-key-source')) === 'env', 'anthropic key from env')
      await settings.getByTestId('settings-nav-models').click()
      await screenshot(page, 'agent-ui-11-settings')
      await page.keyboard.press('Escape')
      await screenshot(page, 'agent-ui-12-dark')

      expect(errors).toEqual([])
    } catch (error) {
      await screenshot(page, 'agent-ui-failure').catch(() => undefined)
      console.error('page errors:', errors, '\nserve stderr:', served.stderr().slice(-3000))
      console.error(execFileSync(process.execPath, [BIN, 'checkpoints', 'list', '--dir', project], { env: { ...process.env, ...env }, encoding: 'utf8' }))
      throw error
    } finally {
      await ui.close()
    }
  })
})
