import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import type { useBrowser } from './browser'
import { watchErrors } from './browser'
import { startServe, type Served } from './cli'
import { tempDir, writeTree } from './temp'

export interface ServedPage {
  page: Page
  served: Served
  /** Page and console errors seen so far. */
  errors: string[]
  env: Record<string, string>
  /** Opens a folder as a tab through the UI and waits for its empty chat. */
  openProject(path: string): Promise<void>
  /** The active project tab's view and its chat panel. */
  view(): Locator
  chat(): Locator
  /**
   * Waits for `text` in the active chat; on timeout the error carries what the chat, the server's
   * stderr and the fake LLM show, so a failure in CI says where the turn stood.
   */
  waitForChat(text: string, timeout?: number): Promise<void>
  close(): Promise<void>
}

/**
 * `hotaru serve` with a throwaway data dir and home (the user config written from `userConfig`), the
 * Anthropic provider pointed at the shared fake LLM server, and a connected page in the shared Chromium.
 */
export async function servedPage(
  shared: ReturnType<typeof useBrowser>,
  options: { userConfig?: unknown; env?: Record<string, string>; viewport?: { width: number; height: number } } = {},
): Promise<ServedPage> {
  const home = writeTree(tempDir('hotaru-e2e-home-'), options.userConfig ? { '.config/hotaru/hotaru.json': JSON.stringify(options.userConfig) } : {})
  const env = {
    HOTARU_DATA_DIR: tempDir('hotaru-e2e-data-'),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: shared.fake.anthropicBaseURL,
    SHELL: '/bin/bash',
    ...options.env,
  }
  const served = await startServe(['--port', '0'], env)
  const page = await shared.browser.newPage({ viewport: options.viewport ?? { width: 1500, height: 900 } })
  const errors = watchErrors(page)
  const view = (): Locator => page.locator('[data-testid="project-view"][data-active="true"]')
  const chat = (): Locator => view().getByTestId('chat-panel')
  try {
    await page.goto(served.url)
    await page.getByText('Connected').waitFor()
  } catch (error) {
    await page.close()
    await served.stop()
    throw error
  }
  return {
    page,
    served,
    errors,
    env,
    view,
    chat,
    async openProject(path) {
      const input = page.getByTestId('open-path-input')
      if (!(await input.isVisible())) await page.getByRole('button', { name: 'Open a folder' }).click()
      await input.fill(path)
      await page.getByTestId('open-path-submit').click()
      await chat().getByTestId('chat-empty').waitFor()
    },
    async waitForChat(text, timeout = 60_000) {
      try {
        await chat().getByText(text).waitFor({ timeout })
      } catch (error) {
        const shown = await chat().innerText({ timeout: 5_000 }).catch((e: unknown) => `(unreadable: ${String(e)})`)
        const fake = shared.fake
        const requests = fake.requests.map((r) => `${r.method} ${r.path} → ${r.status ?? '…'}`).join('\n')
        throw new Error(
          `"${text}" did not appear in the chat within ${timeout} ms.\n--- chat ---\n${shown}\n--- fake LLM: ${fake.pending()} turns left; requests ---\n${requests}\n--- serve stderr (tail) ---\n${served.stderr().slice(-6000)}`,
          { cause: error },
        )
      }
    },
    async close() {
      await page.close()
      await served.stop()
    },
  }
}
