import { describe, expect, it } from 'vitest'
import { screenshot, useBrowser } from '../support/browser'
import { runHotaru } from '../support/cli'
import { servedPage } from '../support/served-page'
import { tempDir, writeTree } from '../support/temp'
import { fixtureServer } from '../integration/mcp/helpers'

describe('MCP resources and prompts in the composer (hotaru serve + fake LLM)', () => {
  const shared = useBrowser({ fakeLlm: true })

  it('attaches a resource picked under @ and renders a prompt picked under / with its argument, both reaching the model', { timeout: 120_000 }, async () => {
    const project = writeTree(tempDir('hotaru-e2e-mcp-composer-'), {
      'hotaru.json': JSON.stringify({ mcp: { fixture: fixtureServer() } }),
    })
    const served = await servedPage(shared)
    const { page, errors, chat } = served
    try {
      // MCP servers of a project start only once it is trusted.
      expect((await runHotaru(['trust', '--dir', project], served.env)).code).toBe(0)
      await served.openProject(project)
      const input = chat().getByTestId('chat-input')

      await input.fill('Summarize @fixture:read')
      const mentions = chat().getByTestId('mention-suggestions')
      const resource = mentions.getByRole('option').filter({ hasText: '@fixture:readme' })
      await resource.waitFor({ timeout: 30_000 })
      expect(await resource.innerText()).toContain('A short text resource.')
      await screenshot(page, 'mcp-composer-01-resource')
      await resource.click()
      await chat().locator('[data-testid="composer-attachment"][data-state="ready"]').waitFor()
      expect(await input.inputValue()).toBe('Summarize @fixture:readme ')

      shared.fake.enqueue({ text: 'Summarized.' })
      await input.press('Enter')
      await chat().getByText('Summarized.').waitFor({ timeout: 30_000 })
      expect(JSON.stringify(shared.fake.requests.at(-1)?.body)).toContain('Hello from the fixture.')
      expect(await chat().getByTestId('composer-attachment').count()).toBe(0)

      // A prompt with a required argument asks for it inline, then lands in the input.

      await input.fill('/fixture:gr')
      const prompt = chat().getByTestId('slash-suggestions').getByRole('option').filter({ hasText: '/fixture:greet' })
      await prompt.waitFor({ timeout: 30_000 })
      await prompt.click()
      const form = chat().getByRole('form', { name: 'Arguments of /fixture:greet' })
      await form.getByRole('button', { name: 'Insert' }).click()
      expect(await form.getByRole('alert').innerText()).toContain('Required: name')
      await form.getByLabel('name *').fill('Ada')
      await screenshot(page, 'mcp-composer-02-prompt-form')
      await form.getByRole('button', { name: 'Insert' }).click()
      await form.waitFor({ state: 'detached' })
      expect(await input.inputValue()).toContain('Say hello to Ada.')
      shared.fake.enqueue({ text: 'Hello, Ada!' })
      await input.press('Enter')
      await chat().getByText('Hello, Ada!').waitFor({ timeout: 30_000 })
      expect(JSON.stringify(shared.fake.requests.at(-1)?.body)).toContain('Say hello to Ada.')
      await screenshot(page, 'mcp-composer-03-sent')
      expect(errors).toEqual([])
    } catch (error) {
      await screenshot(page, 'mcp-composer-failure').catch(() => undefined)
      console.error('page errors:', errors, '\nserve stderr:', served.served.stderr().slice(-3000))
      throw error
    } finally {
      await served.close()
    }
  })
})
