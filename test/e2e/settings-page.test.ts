import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { screenshot, useBrowser } from '../support/browser'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'
import { until } from '../support/until'

/** What a screen reader would call the focused element, near enough: its aria-label or text, else its test id. */
async function focused(page: Page): Promise<string> {
  // A string: the test is compiled without the DOM's types.
  return page.evaluate(`(() => {
    const el = document.activeElement
    if (!el || el === document.body) return ''
    return (el.getAttribute('aria-label') ?? (el.textContent?.trim() || el.getAttribute('data-testid')) ?? '').trim()
  })()`) as Promise<string>
}

/** Presses Tab until the focused element is `name` (keyboard only, as a user without a mouse would). */
async function tabTo(page: Page, name: string | RegExp, max = 150): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab')
    const label = await focused(page)
    if (typeof name === 'string' ? label === name : name.test(label)) return
  }
  throw new Error(`Tab never reached ${String(name)} (last: ${await focused(page)})`)
}

async function typeSearch(page: Page, text: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search settings' }).focus()
  await page.keyboard.press('Control+A')
  await page.keyboard.type(text)
}

const readJson = (file: string): unknown => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined)

describe('settings page in Chromium (hotaru serve + fake LLM)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('searches, edits and deletes a permission rule the runtime obeys, switches the sandbox, all from the keyboard', { timeout: 180_000 }, async () => {
    const ui = await servedPage(shared, { viewport: { width: 1400, height: 900 } })
    const { page, errors } = ui
    const project = writeTree(tempDir('hotaru-e2e-settings-'), { 'a.txt': 'keep me\n' })
    const projectFile = join(project, '.hotaru', 'hotaru.jsonc')
    const userFile = join(ui.env.HOME as string, '.config', 'hotaru', 'hotaru.jsonc')
    const settings = page.getByRole('dialog', { name: 'Settings' })
    const nav = settings.getByRole('navigation', { name: 'Settings sections' })
    const navLabels = async (): Promise<string[]> => (await nav.getByRole('button').allInnerTexts()).map((t) => t.trim())
    const groups = (): Promise<string[]> => settings.locator('tbody[data-permission]').evaluateAll((els) => els.map((e) => e.getAttribute('data-permission') ?? ''))
    try {
      await ui.openProject(project)

      // Ctrl+, opens the page over the whole window, the cursor in the search box.
      await page.keyboard.press('Control+Comma')
      await settings.waitFor()
      expect(await focused(page)).toBe('Search settings')
      // A late focus on the composer behind does not take the keys away from the page.
      await page.evaluate(`document.querySelector('[data-testid="chat-input"]').focus()`)
      expect(await focused(page)).toBe('Search settings')
      const box = await settings.boundingBox()
      expect(box).toMatchObject({ x: 0, y: 0, width: 1400, height: 900 })
      await screenshot(page, 'settings-page-01-open')

      // Search by a plain label: only Permissions remains, narrowed to that one kind of action.
      await page.keyboard.type('repeating')
      await settings.getByRole('table', { name: 'Rules in effect' }).getByText('Repeating the same tool call').waitFor()
      expect(await navLabels()).toEqual(['Permissions'])
      expect(await groups()).toEqual(['doom_loop'])
      await screenshot(page, 'settings-page-02-search')
      // By a config key (shown nowhere) and by a word of a description.
      await typeSearch(page, 'bash_unsandboxed')
      await until(async () => (await groups()).join() === 'bash_unsandboxed', 'search by key')
      expect(await settings.getByTestId('settings-content').innerText()).toContain('Commands outside the sandbox')
      await typeSearch(page, 'bubblewrap')
      await settings.getByTestId('settings-section-sandbox').waitFor()
      expect(await navLabels()).toEqual(['Sandbox'])
      await typeSearch(page, 'no such setting')
      await settings.getByTestId('settings-no-match').waitFor()
      // The first Escape clears the search and stays.
      await page.keyboard.press('Escape')
      await until(async () => (await navLabels()).length === 8, 'every section back')
      expect(await settings.isVisible()).toBe(true)

      // Keyboard: Tab to the sections, arrows move between them.
      await tabTo(page, 'Appearance')
      await page.keyboard.press('ArrowDown')
      await page.keyboard.press('ArrowDown')
      expect(await focused(page)).toBe('Permissions')
      expect(await nav.getByRole('button', { name: 'Permissions' }).getAttribute('aria-current')).toBe('page')
      const rules = settings.getByRole('table', { name: 'Rules in effect' })
      await rules.waitFor()
      const shown = await settings.getByTestId('settings-content').innerText()
      for (const label of ['Running commands', 'Changing files', 'Repeating the same tool call', 'Commands outside the sandbox', 'Ask first']) expect(shown).toContain(label)
      expect(shown).not.toMatch(/doom_loop|bash_unsandboxed|external_directory|sandbox_network|hotaru\.json\b/)
      // This folder is not trusted: its own settings may only narrow, so "Allow" is not offered for it.
      await settings.getByTestId('permissions-untrusted').waitFor()
      expect(await settings.getByRole('form', { name: 'Add a rule' }).getByRole('combobox', { name: 'Action' }).locator('option[value="allow"]').isDisabled()).toBe(true)

      // Every control is reachable with Tab, and Tab wraps around inside the page.
      await page.getByRole('searchbox', { name: 'Search settings' }).focus()
      const seen: string[] = []
      for (let i = 0; i < 200; i++) {
        await page.keyboard.press('Tab')
        const label = await focused(page)
        if (label === 'Search settings') break
        seen.push(label)
      }
      for (const name of ['Done', 'Appearance', 'Permissions', 'Sandbox', 'Shortcuts', 'Applies to', 'Kind', 'Pattern', 'Action', 'Add rule']) expect(seen).toContain(name)
      expect(seen.some((l) => l.startsWith('Action for Running commands — Anything'))).toBe(true)

      // Add a project rule with the keyboard: block `rm *`.
      await tabTo(page, 'Pattern')
      await page.keyboard.type('rm *')
      await page.keyboard.press('Tab')
      expect(await focused(page)).toBe('Action')
      await page.keyboard.press('ArrowDown')
      await tabTo(page, 'Add rule')
      await page.keyboard.press('Enter')
      await until(() => JSON.stringify(readJson(projectFile)) === JSON.stringify({ permission: { bash: { 'rm *': 'deny' } } }), 'the block rule in the project file')
      const row = rules.locator('tbody[data-permission="bash"] tr[data-layer="project"][data-pattern="rm *"]')
      await row.waitFor()
      expect(await row.getByRole('combobox').inputValue()).toBe('deny')
      await screenshot(page, 'settings-page-03-rule-added')
      await page.keyboard.press('Escape')
      await settings.waitFor({ state: 'detached' })

      // The runtime obeys: the command is refused without asking, the file stays, the model is told.
      shared.fake.enqueue({ toolCalls: [{ name: 'bash', args: { command: 'rm a.txt', description: 'Delete a.txt' } }] }, { text: 'It was blocked.' })
      const input = ui.chat().getByTestId('chat-input')
      await input.fill('Delete a.txt')
      await input.press('Enter')
      await ui.waitForChat('It was blocked.')
      expect(await ui.chat().getByTestId('permission-dialog').count()).toBe(0)
      expect(existsSync(join(project, 'a.txt'))).toBe(true)
      expect(JSON.stringify(shared.fake.requests.at(-1)?.body)).toContain('is denied')
      await screenshot(page, 'settings-page-04-blocked-turn')

      // Change it to "Ask first" in its row: the file says so and the next attempt asks.
      await page.keyboard.press('Control+Comma')
      await settings.waitFor()
      await page.keyboard.type('running commands')
      await until(async () => (await groups()).join() === 'bash,bash_unsandboxed', 'the groups about running commands')
      await tabTo(page, 'Action for Running commands — rm * (This project)')
      await page.keyboard.press('ArrowUp')
      await until(() => JSON.stringify(readJson(projectFile)) === JSON.stringify({ permission: { bash: { 'rm *': 'ask' } } }), 'the rule changed to ask')
      await screenshot(page, 'settings-page-05-rule-changed')
      await page.keyboard.press('Escape')
      await page.keyboard.press('Escape')
      await settings.waitFor({ state: 'detached' })
      shared.fake.enqueue({ toolCalls: [{ name: 'bash', args: { command: 'rm a.txt', description: 'Delete a.txt' } }] })
      await input.fill('Delete a.txt again')
      await input.press('Enter')
      const ask = ui.chat().locator('[data-testid="permission-dialog"][data-permission="bash"]')
      await ask.waitFor({ timeout: 30_000 })
      await until(async () => await ask.getByTestId('permission-reject').isEnabled(), 'armed', 20_000)
      await ask.getByTestId('permission-reject').click()
      await ask.waitFor({ state: 'detached' })
      expect(existsSync(join(project, 'a.txt'))).toBe(true)

      // Delete it from its row: gone from the file and the table.
      await page.keyboard.press('Control+Comma')
      await settings.waitFor()
      await page.keyboard.type('running commands')
      await tabTo(page, 'Delete rule: Running commands — rm * (This project)')
      await page.keyboard.press('Enter')
      await until(() => JSON.stringify(readJson(projectFile)) === JSON.stringify({ permission: {} }), 'the rule deleted from the file')
      await rules.locator('tr[data-layer="project"]').first().waitFor({ state: 'detached' })

      // Sandbox: the real availability and a switch that writes the user's settings.
      await page.keyboard.press('Escape')
      await tabTo(page, 'Appearance')
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown')
      expect(await focused(page)).toBe('Sandbox')
      const sandbox = settings.getByTestId('settings-sandbox')
      await sandbox.waitFor()
      expect(await sandbox.getByTestId('sandbox-state').innerText()).toContain('Off — available on this computer (bubblewrap)')
      // Plain words: no config keys, no "edit the config file" instructions.
      expect(await sandbox.innerText()).not.toMatch(/sandbox\.\w|allowedDomains|autoAllow|allowUnsandboxedRetry|allowUnixSockets|(edit|set)\b.*hotaru\.json/i)
      const toggle = sandbox.getByRole('switch', { name: 'Run commands in a sandbox' })
      expect(await toggle.getAttribute('aria-checked')).toBe('false')
      await tabTo(page, 'sandbox-switch')
      await page.keyboard.press('Space')
      await until(async () => (await toggle.getAttribute('aria-checked')) === 'true', 'switched on')
      expect(await sandbox.getByTestId('sandbox-state').innerText()).toContain('On, using bubblewrap')
      expect(readJson(userFile)).toEqual({ sandbox: { enabled: true } })
      await screenshot(page, 'settings-page-06-sandbox-on')
      await page.keyboard.press('Space')
      await until(async () => (await toggle.getAttribute('aria-checked')) === 'false', 'switched off')
      expect(readJson(userFile)).toEqual({ sandbox: { enabled: false } })

      // Changing a built-in rule saves the choice in the user's settings, as a rule that comes after it.
      await typeSearch(page, 'repeating')
      await tabTo(page, 'Action for Repeating the same tool call — Anything (Built in)')
      await page.keyboard.press('ArrowDown')
      await until(() => JSON.stringify(readJson(userFile)) === JSON.stringify({ sandbox: { enabled: false }, permission: { doom_loop: { '*': 'deny' } } }), 'the override in the user file')
      await rules.locator('tbody[data-permission="doom_loop"] tr[data-layer="user"]').waitFor()
      await page.keyboard.press('Escape')

      // The dark theme, chosen with the keyboard: the selects are drawn in it, not by the system.
      await tabTo(page, 'Appearance')
      await page.keyboard.press('Enter')
      await tabTo(page, 'theme-system')
      await page.keyboard.press('ArrowRight')
      await page.keyboard.press('ArrowRight')
      expect(await page.evaluate('document.documentElement.dataset.theme')).toBe('dark')
      await tabTo(page, 'Permissions')
      await page.keyboard.press('Enter')
      await rules.waitFor()
      const drawn = await page.evaluate(`(() => {
        const style = getComputedStyle(document.querySelector('.permission-rules tbody[data-permission="bash"] tr[data-pattern="*"] select'))
        return [style.backgroundColor, style.colorScheme, style.appearance, style.color].join(' | ')
      })()`)
      // The theme's background, its colour scheme (the open list is dark too), no system drawing, "Ask first" in the warning colour.
      expect(drawn).toBe('rgb(30, 30, 32) | dark | none | rgb(227, 179, 65)')
      await screenshot(page, 'settings-page-07-dark')

      await page.keyboard.press('Escape')
      await settings.waitFor({ state: 'detached' })
      expect(errors).toEqual([])
    } catch (error) {
      await screenshot(page, 'settings-page-failure').catch(() => undefined)
      console.error('page errors:', errors, '\nserve stderr:', ui.served.stderr().slice(-3000))
      throw error
    } finally {
      await ui.close()
    }
  })
})
