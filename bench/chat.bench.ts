/**
 * Agent chat benchmark (headless Chromium against `hotaru serve`, the built app, the fake LLM):
 *  - streaming: 5,000 text deltas at ~1,000/s into the chat — longest main-thread task, final DOM text;
 *  - history: open a 2,000-message session with 500 tool cards — time until the last message is on
 *    screen and the main thread is free again, long tasks, JS heap.
 * Prints progress on stderr and one JSON object as the last line of stdout. Needs `npm run build` first.
 */
import './support/app-modules'

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { startFakeLlm } from '../test/fixtures/fake-llm'
import { launchBrowser } from '../test/support/browser'
import { startServe } from '../test/support/cli'

type PartOf<T extends string> = Extract<import('../src/shared/schema/session').Part, { type: T }>

const { createServices } = await import('../src/main/core/services')

const DELTAS = Number(process.env.BENCH_CHAT_DELTAS ?? 5_000)
const DELTA_MS = Number(process.env.BENCH_CHAT_DELTA_MS ?? 1)
const MESSAGES = Number(process.env.BENCH_CHAT_MESSAGES ?? 2_000)
const TOOL_CARDS = Number(process.env.BENCH_CHAT_TOOLS ?? 500)
const log = (...args: unknown[]): void => console.error('[bench:chat]', ...args)
const round = (n: number): number => Math.round(n * 10) / 10

function scratch(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix))
}

/** Runs a script in the page. Strings, not functions: tsx would add helpers the page does not have. */
function inPage<T>(page: Page, script: string): Promise<T> {
  return page.evaluate<T>(script)
}

const WATCH_LONG_TASKS = `(() => {
  window.__longTasks = []
  window.__longTaskObserver?.disconnect()
  window.__longTaskObserver = new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration) })
  window.__longTaskObserver.observe({ type: 'longtask', buffered: false })
})()`

/** Words with a paragraph break every 40 words: markdown blocks, as real answers have. */
function streamChunks(count: number): string[] {
  return Array.from({ length: count }, (_, i) => (i % 40 === 39 ? `w${i}\n\n` : `w${i} `))
}

/** A session the size of a long working day, written straight into the store the server will read. */
async function seedHistory(dataDir: string, project: string): Promise<string> {
  const services = createServices({ dataDir, transport: 'serve' })
  const { id: projectId } = services.projects.openFolder(project)
  const store = services.sessions
  const big = store.create({ projectId, agent: 'build', model: 'anthropic/claude-sonnet-4-6', title: 'Long history' })
  const pairs = MESSAGES / 2
  const toolEvery = Math.max(1, Math.floor(pairs / TOOL_CARDS))
  let tools = 0
  const base = Date.now() - MESSAGES * 1000
  for (let i = 0; i < pairs; i++) {
    const at = base + i * 2000
    const user = store.addMessage({ sessionId: big.id, role: 'user', agent: 'build', model: big.model, createdAt: at, completedAt: at })
    store.addPart<PartOf<'text'>>({ sessionId: big.id, messageId: user.id, type: 'text', text: `Question ${i}: what does module ${i % 97} do?` })
    const reply = store.addMessage({
      sessionId: big.id,
      role: 'assistant',
      agent: 'build',
      model: big.model,
      createdAt: at + 10,
      completedAt: at + 900,
      usage: { input: 1200 + i, output: 80, cacheRead: 0, cacheWrite: 0 },
      cost: 0.004,
    })
    if (i % toolEvery === 0 && tools < TOOL_CARDS) {
      tools++
      const bash = i % 2 === 0
      store.addPart<PartOf<'tool'>>({
        sessionId: big.id,
        messageId: reply.id,
        type: 'tool',
        callId: `call_${i}`,
        tool: bash ? 'bash' : 'read',
        state: {
          status: 'completed',
          input: bash ? { command: `rg -n module${i} src`, description: 'search' } : { filePath: `src/module-${i}.ts` },
          output: Array.from({ length: 30 }, (_, l) => `src/module-${i}.ts:${l + 1}: export const value${l} = ${l}`).join('\n'),
          title: bash ? `rg -n module${i} src` : `src/module-${i}.ts`,
          metadata: bash ? { output: 'ok', exitCode: 0 } : {},
          startedAt: at + 20,
          endedAt: at + 140,
        },
      })
    }
    const text = store.addPart<PartOf<'text'>>({
      sessionId: big.id,
      messageId: reply.id,
      type: 'text',
      text: `Module **${i % 97}** handles part ${i} of the pipeline.\n\n- it reads \`input-${i}\`\n- it writes \`output-${i}\`\n\nThe last line of reply ${i}.`,
    })
    store.endPart(text.id)
  }
  // A newer, short session: the chat opens it first, so the benchmark measures opening the long one.
  const small = store.create({ projectId, agent: 'build', model: big.model, title: 'Short session' })
  const hello = store.addMessage({ sessionId: small.id, role: 'user', agent: 'build', model: big.model, completedAt: Date.now() })
  store.addPart<PartOf<'text'>>({ sessionId: small.id, messageId: hello.id, type: 'text', text: 'hello' })
  store.flush()
  const last = store.messages(big.id).at(-1)?.info.id ?? ''
  await services.dispose()
  log(`seeded ${MESSAGES} messages with ${tools} tool calls`)
  return `${big.id} ${last}`
}

async function openProject(page: Page, url: string, project: string): Promise<void> {
  await page.goto(url)
  await page.getByText('Connected').waitFor()
  // Seeding opened the folder as a tab, so it is normally restored; the welcome page shows until then.
  const restored = await page
    .getByTestId('chat-input')
    .waitFor({ timeout: 5_000 })
    .then(() => true)
    .catch(() => false)
  if (restored) return
  await page.getByTestId('open-path-input').fill(project)
  await page.getByTestId('open-path-submit').click()
  await page.getByTestId('chat-input').waitFor()
}

/** Lets start-up work (the editor loads Monaco in the background) finish before anything is measured. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle')
  await inPage(page, WATCH_LONG_TASKS)
  for (let quiet = 0; quiet < 10; ) {
    await page.waitForTimeout(100)
    const tasks = await inPage<number>(page, 'window.__longTasks.splice(0).length')
    quiet = tasks === 0 ? quiet + 1 : 0
  }
}

async function streamBench(page: Page, fakeEnqueue: (turn: { text: string[]; dripMs: number }) => void) {
  const chunks = streamChunks(DELTAS)
  fakeEnqueue({ text: chunks, dripMs: DELTA_MS })
  await page.getByTestId('new-session').click()
  await page.getByTestId('chat-empty').waitFor()
  await inPage(page, WATCH_LONG_TASKS)
  const start = Date.now()
  await page.getByTestId('chat-input').fill('Stream a long answer')
  await page.getByTestId('chat-input').press('Enter')
  await page.locator('[data-testid="assistant-message"][data-complete="true"]').waitFor({ timeout: 120_000 })
  const ms = Date.now() - start
  const longTasks = await inPage<number[]>(page, 'window.__longTasks')
  const shown = await inPage<string>(page, `document.querySelector('[data-testid="assistant-message"] .md').innerText`)
  const normalize = (s: string): string => s.replace(/\s+/g, ' ').trim()
  const correct = normalize(shown) === normalize(chunks.join(''))
  log(`streaming: ${DELTAS} deltas in ${ms} ms, longest task ${round(Math.max(0, ...longTasks))} ms, DOM ${correct ? 'correct' : 'WRONG'}`)
  return {
    deltas: DELTAS,
    ms,
    deltasPerSecond: Math.round(DELTAS / (ms / 1000)),
    longestTaskMs: round(Math.max(0, ...longTasks)),
    longTasksOver50ms: longTasks.filter((d) => d > 50).length,
    finalDomCorrect: correct,
  }
}

async function historyBench(page: Page, sessionId: string, lastMessageId: string) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('HeapProfiler.collectGarbage')
  const heapBefore = (await cdp.send('Runtime.getHeapUsage')).usedSize
  await page.getByTestId('sessions-toggle').click()
  await page.locator(`[data-testid="session-item"][data-session-id="${sessionId}"]`).waitFor()
  await inPage(page, WATCH_LONG_TASKS)
  // Clicked from inside the page so the clock starts with the click, not with the protocol round trip.
  const interactiveMs = await inPage<number>(
    page,
    `new Promise((resolve) => {
      const start = performance.now()
      document.querySelector('[data-testid="session-item"][data-session-id="${sessionId}"]').click()
      const poll = () => {
        if (!document.querySelector('[data-message-id="${lastMessageId}"]')) return requestAnimationFrame(poll)
        // On screen; interactive once the main thread gets to a fresh task after the next frame.
        requestAnimationFrame(() => {
          const channel = new MessageChannel()
          channel.port1.onmessage = () => resolve(performance.now() - start)
          channel.port2.postMessage(null)
        })
      }
      poll()
    })`,
  )
  await page.waitForTimeout(500)
  const longTasks = await inPage<number[]>(page, 'window.__longTasks')
  const rows = await inPage<number>(page, `document.querySelectorAll('[data-testid="message-list"] .chat-row').length`)
  await cdp.send('HeapProfiler.collectGarbage')
  const heapAfter = (await cdp.send('Runtime.getHeapUsage')).usedSize
  // Scrolling to the top and back must not drop frames into long tasks either.
  await inPage(page, WATCH_LONG_TASKS)
  await inPage(
    page,
    `new Promise((resolve) => {
      const el = document.querySelector('[data-testid="message-list"]')
      let step = 0
      const tick = () => {
        el.scrollTop = el.scrollHeight * (1 - (step % 40) / 40)
        if (++step < 120) requestAnimationFrame(tick)
        else resolve(null)
      }
      tick()
    })`,
  )
  const scrollTasks = await inPage<number[]>(page, 'window.__longTasks')
  log(`history: interactive in ${round(interactiveMs)} ms, ${rows} rows in the DOM, heap +${round((heapAfter - heapBefore) / 1048576)} MB`)
  return {
    messages: MESSAGES,
    toolCards: TOOL_CARDS,
    interactiveMs: round(interactiveMs),
    longestTaskMs: round(Math.max(0, ...longTasks)),
    renderedRows: rows,
    heapUsedMB: round(heapAfter / 1048576),
    heapGrowthMB: round((heapAfter - heapBefore) / 1048576),
    scrollLongestTaskMs: round(Math.max(0, ...scrollTasks)),
  }
}

async function main(): Promise<void> {
  const fake = await startFakeLlm()
  const home = scratch('hotaru-bench-home-')
  const dataDir = scratch('hotaru-bench-data-')
  const project = scratch('hotaru-bench-chat-')
  const [sessionId = '', lastMessageId = ''] = (await seedHistory(dataDir, project)).split(' ')
  const served = await startServe(['--port', '0'], {
    HOTARU_DATA_DIR: dataDir,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    ANTHROPIC_API_KEY: 'bench-key',
    ANTHROPIC_BASE_URL: fake.anthropicBaseURL,
  })
  const { browser, close } = await launchBrowser()
  try {
    const page = await browser.newPage({ viewport: { width: 1500, height: 900 } })
    await openProject(page, served.url, project)
    await settle(page)
    const history = await historyBench(page, sessionId, lastMessageId)
    const streaming = await streamBench(page, (turn) => fake.enqueue(turn))
    const result = {
      streaming: { ...streaming, pass: streaming.longestTaskMs <= 50 && streaming.finalDomCorrect },
      history: { ...history, pass: history.interactiveMs <= 500 },
    }
    process.stdout.write(`${JSON.stringify(result)}\n`)
  } finally {
    await close()
    await served.stop()
    await fake.close()
    for (const dir of [home, dataDir, project]) rmSync(dir, { recursive: true, force: true })
  }
}

await main()
