import { describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { screenshot, useBrowser } from '../support/browser'
import { runHotaru } from '../support/cli'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'
import { until } from '../support/until'

const bell = (page: Page): Locator => page.getByRole('button', { name: /^Notices \(\d+\)$/ })

describe('notices area and failed hooks (hotaru serve + fake LLM)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('lists broken extension files with file and reason in the status bar, dismisses them for good, and shows a failed hook on the message', { timeout: 120_000 }, async () => {
    // The user's own config allows bash, so the call runs without an ask.
    const project = writeTree(tempDir('hotaru-e2e-notices-'), {
      '.hotaru/skills/broken/SKILL.md': '---\nname: broken\n---\nNo description above.\n',
      '.hotaru/skills/forms/SKILL.md': '---\nname: forms\ndescription: Use for: web forms, validation\n---\nValidate on blur.\n',
      'hotaru.json': JSON.stringify({
        hooks: {
          UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo lint server down >&2; exit 1' }] }],
          PostToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: 'echo formatter missing >&2; exit 5' }] }],
        },
      }),
    })
    const served = await servedPage(shared, { userConfig: { permission: { bash: 'allow' } }, viewport: { width: 1400, height: 900 } })
    const { page, errors, chat } = served
    try {
      // The folder's hooks run only once it is trusted.
      expect((await runHotaru(['trust', '--dir', project], served.env)).code).toBe(0)
      await served.openProject(project)
      expect(await bell(page).innerText()).toContain('0')

      shared.fake.enqueue({ toolCalls: [{ name: 'bash', args: { command: 'echo hi', description: 'Say hi' } }] }, { text: 'Done.' })
      const input = chat().getByTestId('chat-input')
      await input.fill('hello')
      await input.press('Enter')
      await chat().getByText('Done.').waitFor({ timeout: 30_000 })

      // The failed hook sits on the user's message it ran for; the turn went on.
      const hook = chat().getByTestId('user-message').getByRole('status')
      await hook.waitFor()
      expect(await hook.innerText()).toContain('UserPromptSubmit hook failed before this message was sent')
      expect(await hook.innerText()).toContain('exit code 1: lint server down')
      // The tool call's failed PostToolUse hook: a mark on the card, the details inside it (the latest card is open).
      const card = chat().locator('[data-testid="tool-card"][data-tool="bash"]')
      await card.getByTestId('tool-hook-failed').waitFor()
      expect(await card.getByRole('status').innerText()).toContain('PostToolUse hook failed after this call: echo formatter missing >&2; exit 5 — exit code 5: formatter missing')

      await until(async () => (await bell(page).getAttribute('aria-label')) === 'Notices (2)', 'two notices in the status bar', 20_000)
      await bell(page).click()
      const panel = page.getByRole('dialog', { name: 'Notices' })
      await panel.waitFor()
      const broken = panel.getByRole('listitem').filter({ hasText: '.hotaru/skills/broken/SKILL.md' })
      expect(await broken.innerText()).toContain('`description` is missing')
      const lenient = panel.getByRole('listitem').filter({ hasText: '.hotaru/skills/forms/SKILL.md' })
      expect(await lenient.innerText()).toContain('not valid YAML')
      await screenshot(page, 'notices-01-list')

      await broken.getByRole('button', { name: 'Dismiss notice' }).click()
      await until(async () => (await bell(page).getAttribute('aria-label')) === 'Notices (1)', 'one notice left', 10_000)
      expect(await panel.getByRole('listitem').count()).toBe(1)

      // Dismissed in core: a reload and the next turn (which reports the file again) keep it away.
      await page.reload()
      await page.getByText('Connected').waitFor()
      await chat().getByText('Done.').waitFor({ timeout: 30_000 })
      shared.fake.enqueue({ text: 'Again.' })
      await chat().getByTestId('chat-input').fill('again')
      await chat().getByTestId('chat-input').press('Enter')
      await chat().getByText('Again.').waitFor({ timeout: 30_000 })
      await until(async () => (await bell(page).getAttribute('aria-label')) === 'Notices (1)', 'still one notice after reload and a turn', 10_000)
      await bell(page).click()
      await page.getByRole('dialog', { name: 'Notices' }).getByRole('button', { name: 'Dismiss all' }).click()
      await until(async () => (await bell(page).getAttribute('aria-label')) === 'Notices (0)', 'no notices left', 10_000)
      expect(await page.getByRole('dialog', { name: 'Notices' }).innerText()).toContain('No notices.')
      await screenshot(page, 'notices-02-dismissed')
      expect(errors).toEqual([])
    } catch (error) {
      await screenshot(page, 'notices-failure').catch(() => undefined)
      console.error('page errors:', errors, '\nserve stderr:', served.served.stderr().slice(-3000))
      throw error
    } finally {
      await served.close()
    }
  })
})
