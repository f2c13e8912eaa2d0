import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm'
import { ROOT } from './cli'

export const SCREENSHOTS = join(ROOT, 'test-output', 'e2e')
const CHROMIUM = process.env.HOTARU_CHROMIUM ?? '/usr/bin/chromium'

/** Debian Chromium, headless, no background network; playwright gives each launch a fresh profile. */
export async function launchBrowser(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  return {
    browser,
    async close() {
      await browser.close()
    },
  }
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) })
}

/** Collects page errors, console errors and renderer crashes so a test can assert there were none. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (e) => {
    // Monaco's diff editor rejects its pending diff with this message when it is closed mid-computation
    // (a known Monaco behaviour, nothing of ours failed).
    if (e.message === 'no diff result available') return
    errors.push(`pageerror: ${e.message}`)
  })
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`)
  })
  // A renderer process that died leaves a blank page and no page error: name it among the errors.
  page.on('crash', () => errors.push('crash: the page’s renderer process crashed'))
  return errors
}

/**
 * One Chromium (and, with `fakeLlm`, one fake LLM server) for the tests of a
 * `describe` block: launched in `beforeAll`, closed in `afterAll`. Read the
 * fields inside tests, once the hooks have run.
 */
export function useBrowser(options: { fakeLlm?: boolean } = {}): { readonly browser: Browser; readonly fake: FakeLlm } {
  let launched: Awaited<ReturnType<typeof launchBrowser>> | undefined
  let fake: FakeLlm | undefined
  beforeAll(async () => {
    launched = await launchBrowser()
    if (options.fakeLlm) fake = await startFakeLlm()
  })
  afterAll(async () => {
    await launched?.close()
    await fake?.close()
  })
  return {
    get browser() {
      if (!launched) throw new Error('the browser starts in beforeAll')
      return launched.browser
    },
    get fake() {
      if (!fake) throw new Error('useBrowser({ fakeLlm: true }) starts the fake LLM server')
      return fake
    },
  }
}
