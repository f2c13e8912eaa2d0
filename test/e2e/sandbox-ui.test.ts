import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { screenshot, useBrowser } from '../support/browser'
import { until } from '../support/until'
import { servedPage } from '../support/served-page'
import { tempDir } from '../support/temp'

describe('sandbox in the UI (hotaru serve + fake LLM)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('shows the shield on sandboxed tool cards with what was blocked, and the sandbox settings', { timeout: 120_000 }, async () => {
    const served = await servedPage(shared, {
      userConfig: { sandbox: { enabled: true, autoAllow: true, network: { allowedDomains: ['registry.npmjs.org'] } } },
      viewport: { width: 1400, height: 900 },
    })
    const { page, errors, chat } = served
    const home = served.env.HOME as string
    const project = tempDir('hotaru-e2e-sbx-project-')
    try {
      await served.openProject(project)

      // autoAllow needs no bash ask, but naming a path outside the project still asks; allowed once, the sandbox still stops the write.
      shared.fake.enqueue({ toolCalls: [{ name: 'bash', args: { command: `echo inside > ok.txt; touch "${home}/escape"`, description: 'Try to write' } }] }, { text: 'Done.' })
      const input = chat().getByTestId('chat-input')
      await input.fill('Write somewhere')
      await input.press('Enter')
      const ask = chat().locator('[data-testid="permission-dialog"][data-permission="external_directory"]')
      await ask.waitFor({ timeout: 30_000 })
      await until(async () => await ask.getByTestId('permission-once').isEnabled(), 'armed', 20_000)
      await ask.getByTestId('permission-once').click()
      const card = chat().locator('[data-testid="tool-card"][data-tool="bash"][data-status="completed"]')
      await card.waitFor({ timeout: 30_000 })
      expect(await chat().locator('[data-testid="permission-dialog"][data-permission="bash"]').count()).toBe(0)
      await card.getByTestId('sandbox-badge').waitFor()
      await until(async () => (await card.getByTestId('sandbox-blocked').count()) > 0, 'blocked notes in the card', 20_000)
      expect(await card.getByTestId('sandbox-blocked').innerText()).toContain(`write outside the project: ${home}/escape`)
      await screenshot(page, 'sandbox-ui-01-card')

      await page.keyboard.press('Control+Shift+P')
      await page.getByPlaceholder('Type a command').fill('open settings')
      await page.keyboard.press('Enter')
      const settings = page.getByTestId('settings-dialog')
      await settings.waitFor()
      await settings.getByTestId('settings-nav-sandbox').click()
      const section = settings.getByTestId('settings-sandbox')
      await section.waitFor()
      expect(await section.getByTestId('sandbox-state').innerText()).toContain('On, using bubblewrap')
      expect(await section.getByRole('switch', { name: 'Run commands in a sandbox' }).getAttribute('aria-checked')).toBe('true')
      expect(await section.getByTestId('sandbox-deps').innerText()).toContain('bubblewrap')
      expect(await section.getByTestId('sandbox-deps').innerText()).toContain('seccomp filter — refuses unix sockets (EPERM)')
      expect(await section.getByTestId('sandbox-network').innerText()).toContain('registry.npmjs.org')
      expect(await section.getByTestId('sandbox-denied').innerText()).toContain(join(home, '.ssh'))
      expect(await section.getByTestId('sandbox-writable').innerText()).toContain(project)
      await screenshot(page, 'sandbox-ui-02-settings')
      expect(errors).toEqual([])
    } catch (error) {
      await screenshot(page, 'sandbox-ui-failure').catch(() => undefined)
      console.error('page errors:', errors, '\nserve stderr:', served.served.stderr().slice(-3000))
      throw error
    } finally {
      await served.close()
    }
  })
})
