import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import type { FakeLlm } from '../fixtures/fake-llm'
import { watchErrors } from './browser'
import { startServe, type Served } from './cli'
import { tempDir } from './temp'

/** The environment of a `hotaru serve` for a browser test: its own data dir, `home`, the fake LLM as Anthropic. */
export function serveEnv(home: string, fake: FakeLlm): NodeJS.ProcessEnv {
  return {
    HOTARU_DATA_DIR: tempDir('hotaru-e2e-data-'),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: fake.anthropicBaseURL,
    SHELL: '/bin/bash',
  }
}

/** Starts `hotaru serve` with `env`, opens its page (connected) and the folder `project` in it. */
export async function openServedProject(browser: Browser, env: NodeJS.ProcessEnv, project: string): Promise<{ served: Served; page: Page; errors: string[] }> {
  const served = await startServe(['--port', '0'], env)
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  const errors = watchErrors(page)
  try {
    await page.goto(served.url)
    await page.getByText('Connected').waitFor()
    await page.getByTestId('open-path-input').fill(project)
    await page.getByTestId('open-path-submit').click()
    await page.locator('[data-testid="project-view"][data-active="true"] [data-testid="chat-empty"]').waitFor()
  } catch (error) {
    console.error('page errors:', errors, '\nserve stderr:', served.stderr().slice(-3000))
    await page.close()
    await served.stop()
    throw error
  }
  return { served, page, errors }
}
