import { describe, expect, it } from 'vitest'
import type { Locator } from 'playwright-core'
import type { FakeTurn, RecordedRequest } from '../fixtures/fake-llm'
import { screenshot, useBrowser } from '../support/browser'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'
import { until } from '../support/until'

const words = (word: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${word}${i} `)

/** Answers by what the request is about, so two sessions asking at once each get their own script. */
function route(request: RecordedRequest): FakeTurn {
  const body = JSON.stringify(request.body)
  if (body.includes('tool_result')) return { text: 'Checked, gamma is fine.' }
  if (body.includes('GAMMA')) return { text: words('gamma', 25), dripMs: 60, toolCalls: [{ name: 'bash', args: { command: 'touch gamma-ok', description: 'Check gamma' } }] }
  if (body.includes('BETA')) return { text: [...words('beta', 50), 'beta-done'], dripMs: 100 }
  return { text: [...words('alpha', 70), 'alpha-done'], dripMs: 100 }
}

async function send(input: Locator, text: string): Promise<void> {
  await input.fill(text)
  await input.press('Enter')
}

describe('parallel sessions in Chromium (hotaru serve + fake LLM)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('two sessions of one project stream at once, the Activity view lists them, an ask from a tab not shown raises a notice that opens it', { timeout: 180_000 }, async () => {
    const project = writeTree(tempDir('hotaru-e2e-parallel-'), { 'README.md': '# Parallel\n' })
    const other = writeTree(tempDir('hotaru-e2e-other-'), { 'notes.txt': 'other\n' })
    const ui = await servedPage(shared)
    const { page } = ui
    try {
      await ui.openProject(project)
      shared.fake.enqueue(route, route, route, route, route)

      // Session one starts a long answer; a new session starts its own while the first still streams.
      await send(ui.chat().getByTestId('chat-input'), 'ALPHA: tell a long story')
      await until(async () => (await ui.chat().getByTestId('assistant-message').first().innerText()).includes('alpha3'), 'alpha streaming')
      await ui.chat().getByRole('button', { name: 'New session' }).click()
      await page.getByRole('menuitem', { name: 'New session in this folder' }).click()
      await ui.chat().getByTestId('chat-empty').waitFor()
      await send(ui.chat().getByTestId('chat-input'), 'BETA: another story')
      await until(async () => (await ui.chat().getByTestId('assistant-message').first().innerText()).includes('beta2'), 'beta streaming')

      // Both run: the tab counts two, the session list badges both as streaming.
      const tab = page.getByRole('tablist', { name: 'Projects' }).getByRole('tab', { selected: true })
      expect(await tab.getByTestId('tab-running').innerText()).toBe('2')
      await ui.chat().getByRole('button', { name: 'Sessions' }).click()
      const list = ui.chat().getByRole('listbox', { name: 'Sessions' })
      await until(async () => (await list.locator('[data-testid="session-badge"][data-badge="streaming"]').count()) === 2, 'two streaming badges')
      expect(await list.getByText('streaming').count()).toBe(2)
      await screenshot(page, 'parallel-00-two-streaming')

      // The Activity view (status bar) lists both with what they do now.
      await page.getByTestId('activity-button').click()
      const activity = page.getByRole('dialog', { name: 'Activity' })
      await until(async () => (await activity.getByTestId('activity-row').count()) === 2, 'two rows in Activity')
      expect(await activity.getByText('streaming text').count()).toBe(2)
      await activity.getByText('ALPHA: tell a long story').waitFor()
      await screenshot(page, 'parallel-01-activity')
      // Stop ends one session's turn; the other streams on.
      await activity.getByRole('button', { name: 'Stop BETA: another story' }).click()
      await until(async () => (await activity.getByTestId('activity-row').count()) === 1, 'one left running')
      // A click opens that session.
      await activity.getByTestId('activity-row').filter({ hasText: 'ALPHA: tell a long story' }).click()
      expect(await activity.isVisible()).toBe(false)
      await until(async () => (await ui.chat().getByTestId('chat-title').innerText()) === 'ALPHA: tell a long story', 'alpha opened')

      // Both finish, each with its whole text: a session not on screen kept streaming.
      await ui.chat().getByText('alpha-done').waitFor({ timeout: 60_000 })
      await until(async () => (await tab.getByTestId('tab-running').count()) === 0, 'nothing running', 60_000)
      await ui.chat().getByRole('button', { name: 'Sessions' }).click()
      await list.getByRole('option', { name: /BETA: another story/ }).click()
      await until(async () => (await ui.chat().getByTestId('assistant-message').first().innerText()).includes('beta2'), 'beta transcript')
      expect(await ui.chat().getByText('beta-done').count()).toBe(0)
      expect(await ui.chat().getByText('alpha0').count()).toBe(0)

      // A turn that will ask runs in this tab; the user goes to another project meanwhile.
      await send(ui.chat().getByTestId('chat-input'), 'GAMMA: check it')
      await ui.openProject(other)
      const notice = page.getByTestId('ask-notice')
      await notice.waitFor({ timeout: 30_000 })
      expect(await notice.innerText()).toContain('BETA: another story')
      expect(await notice.innerText()).toContain('asks permission: touch gamma-ok')
      await page.getByTestId('activity-button').click()
      await activity.locator('[data-testid="activity-row"][data-badge="waiting"]').waitFor()
      expect(await activity.getByText('waiting for permission: touch gamma-ok').count()).toBe(1)
      await screenshot(page, 'parallel-02-ask-notice')
      await page.keyboard.press('Escape')

      // "Open" goes to the tab and the session, where the ask waits; answering it ends the notice.
      await notice.getByRole('button', { name: 'Open' }).click()
      await until(async () => (await ui.chat().getByTestId('chat-title').innerText()) === 'BETA: another story', 'beta session opened')
      const ask = ui.chat().getByTestId('permission-dialog')
      await ask.waitFor()
      const once = ask.getByTestId('permission-once')
      await until(async () => await once.isEnabled(), 'permission armed')
      await once.click()
      await ui.chat().getByText('Checked, gamma is fine.').waitFor()
      expect(await notice.count()).toBe(0)
      expect(ui.errors).toEqual([])
    } finally {
      await ui.close()
    }
  })
})
