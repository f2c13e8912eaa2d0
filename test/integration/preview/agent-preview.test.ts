import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm, type FakeTurn } from '../../fixtures/fake-llm'
import { fakeProviderEnv, runHotaru } from '../../support/cli'
import { tempDir, writeTree } from '../../support/temp'
import { isAlive } from '../../../src/main/core/process/tree'
import { imageDimensions } from '../../../src/main/core/images'

// The agent, scripted by the fake server, checks its work in the running app: it starts the preview
// (a real dev server process from the launch file), breaks the page, sees the error in the console
// and a screenshot, fixes it and sees the error gone. All through `hotaru run`, as a user runs it.

/** A small dev server: static files on $PORT, its pid written down so the test can look for it afterwards. */
const SERVER = `
const http = require('node:http')
const fs = require('node:fs')
const path = require('node:path')
fs.writeFileSync('server.pid', String(process.pid))
const types = { '.html': 'text/html', '.js': 'text/javascript' }
http.createServer((req, res) => {
  const file = path.join(__dirname, 'site', req.url === '/' ? 'index.html' : req.url)
  fs.readFile(file, (error, body) => {
    if (error) { res.writeHead(404); res.end('not found'); return }
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'text/plain', 'cache-control': 'no-store' })
    res.end(body)
  })
}).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('dev server on ' + process.env.PORT))
`

const PAGE = '<!doctype html><html><body><h1 id="greeting">Hello</h1><script src="/app.js"></script></body></html>'
const WORKING = "document.getElementById('greeting').textContent = 'Hello, preview'\n"
const BROKEN = "document.getElementById('greting').textContent = 'Hello, preview'\n"

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

function project(): string {
  return writeTree(tempDir('hotaru-preview-app-'), {
    'server.js': SERVER,
    'site/index.html': PAGE,
    'site/app.js': WORKING,
    '.hotaru/launch.json': JSON.stringify({ configurations: [{ name: 'web', command: 'node server.js' }] }),
  })
}

type Block = Record<string, unknown>
type AnthropicBody = { messages: Array<{ role: string; content: string | Block[] }> }

/** The tool_result blocks of the last user message of a Messages request. */
function toolResults(body: unknown): Block[] {
  const last = (body as AnthropicBody).messages.at(-1)
  return Array.isArray(last?.content) ? last.content.filter((b) => b.type === 'tool_result') : []
}

function resultText(block: Block | undefined): string {
  const content = block?.content
  if (typeof content === 'string') return content
  return Array.isArray(content) ? (content as Block[]).filter((b) => b.type === 'text').map((b) => String(b.text)).join('\n') : ''
}

async function trusted(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const trust = await runHotaru(['trust', '--dir', dir], env)
  expect(trust.code, trust.stderr).toBe(0)
}

describe('the agent previews the app it builds', () => {
  it('starts the preview, sees a screenshot and the console error it introduced, fixes it and sees it gone; no server is left', async () => {
    const turns: FakeTurn[] = [
      { toolCalls: [{ name: 'preview_start', args: {} }] },
      { toolCalls: [{ name: 'read', args: { filePath: 'site/app.js' } }] },
      { toolCalls: [{ name: 'write', args: { filePath: 'site/app.js', content: BROKEN } }] },
      { toolCalls: [{ name: 'preview_console', args: { reload: true } }] },
      { toolCalls: [{ name: 'preview_screenshot', args: {} }] },
      { toolCalls: [{ name: 'write', args: { filePath: 'site/app.js', content: WORKING } }] },
      { toolCalls: [{ name: 'preview_console', args: { reload: true } }] },
      { toolCalls: [{ name: 'preview_screenshot', args: { visibleText: 'Hello, preview' } }] },
      { text: 'The greeting works again.' },
    ]
    const server = await startFakeLlm({ turns })
    servers.push(server)
    const dir = project()
    const env = fakeProviderEnv(server, tempDir('hotaru-data-'), { HOTARU_CHROMIUM: '/usr/bin/chromium' })
    await trusted(dir, env)
    const result = await runHotaru(['run', '--dir', dir, '--model', 'anthropic/claude-sonnet-4-6', '--yes', 'fix', 'the', 'greeting'], env)
    expect(result.stderr).not.toMatch(/error:/i)
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('The greeting works again.')

    const requests = server.requests.filter((r) => r.api === 'anthropic')
    expect(requests.map((r) => r.status)).toEqual(Array(9).fill(200))
    const offered = (requests[0]?.body as { tools: Array<{ name: string }> }).tools.map((t) => t.name)
    expect(offered).toEqual(expect.arrayContaining(['preview_start', 'preview_status', 'preview_screenshot', 'preview_console', 'preview_navigate', 'preview_click', 'preview_type']))

    const started = resultText(toolResults(requests[1]?.body)[0])
    expect(started).toMatch(/^The preview "web" \(launch\.json\) is ready at http:\/\/127\.0\.0\.1:\d+\/ \(output in terminal t\d+\)\.$/)

    const broken = resultText(toolResults(requests[4]?.body)[0])
    expect(broken).toContain('1 error(s)')
    expect(broken).toMatch(/\[error exception\] TypeError: Cannot set properties of null \(setting 'textContent'\)[\s\S]*app\.js:1/)

    // The screenshot reaches the model as an image block inside the tool result, downscaled to 1024 wide.
    const shot = toolResults(requests[5]?.body)[0]
    const image = (shot?.content as Block[]).find((b) => b.type === 'image') as { source: { type: string; media_type: string; data: string } } | undefined
    expect(image?.source).toMatchObject({ type: 'base64', media_type: 'image/jpeg' })
    expect(imageDimensions(Buffer.from(image?.source.data ?? '', 'base64'), 'image/jpeg')).toEqual({ width: 1024, height: 640 })
    expect(resultText(shot)).toMatch(/^Screenshot of the viewport at http:\/\/127\.0\.0\.1:\d+\/ \(1024×640\) is attached\.$/)

    expect(resultText(toolResults(requests[7]?.body)[0])).toBe('The console is empty: no messages, errors or failed requests.')
    // The fixed page shows the greeting the script sets.
    expect(resultText(toolResults(requests[8]?.body)[0])).toMatch(/^Screenshot of "Hello, preview"/)

    // `hotaru run` closed the project: the dev server is gone.
    const pid = Number(readFileSync(join(dir, 'server.pid'), 'utf8'))
    expect(isAlive(pid)).toBe(false)
    // Nine model requests, each with a real tool behind it (a dev server, Chromium): longer than most tests.
  }, 120_000)

  // Chat Completions (gpt-4.1) takes the image in a user message after the tool result; Responses (gpt-5.1) as input_image.
  it.each([
    ['openai/gpt-4.1', 'openai'],
    ['openai/gpt-5.1', 'responses'],
  ] as const)('a screenshot reaches %s as an image the API takes', async (model, api) => {
    const server = await startFakeLlm({ turns: [{ toolCalls: [{ name: 'preview_start', args: {} }] }, { toolCalls: [{ name: 'preview_screenshot', args: {} }] }, { text: 'Looks right.' }] })
    servers.push(server)
    const dir = project()
    const env = fakeProviderEnv(server, tempDir('hotaru-data-'), { HOTARU_CHROMIUM: '/usr/bin/chromium' })
    await trusted(dir, env)
    const result = await runHotaru(['run', '--dir', dir, '--model', model, '--yes', 'look'], env)
    expect(result.code, result.stderr).toBe(0)
    const last = server.requests.filter((r) => r.api !== 'control').at(-1)
    expect(last?.status).toBe(200)
    expect(last?.api).toBe(api)
    const jpegDataUrl = expect.stringMatching(/^data:image\/jpeg;base64,\/9j\//)
    if (api === 'openai') {
      const messages = (last?.body as { messages: Array<{ role: string; content: unknown }> }).messages
      const toolIndex = messages.findLastIndex((m) => m.role === 'tool')
      expect(messages[toolIndex]?.content).toMatch(/^Screenshot of the viewport at .* is attached\.\n\[image 1 of this result is attached in the next user message\]$/)
      const follow = messages[toolIndex + 1] as { role: string; content: Block[] }
      expect(follow.role).toBe('user')
      expect(follow.content.find((p) => p.type === 'image_url')).toMatchObject({ image_url: { url: jpegDataUrl } })
    } else {
      const input = (last?.body as { input: Block[] }).input
      const output = input.findLast((item) => item.type === 'function_call_output')?.output as Block[]
      expect(output.find((p) => p.type === 'input_image')).toMatchObject({ image_url: jpegDataUrl })
    }
  })

  it('a model without vision gets a note instead of the screenshot', async () => {
    const server = await startFakeLlm({ turns: [{ toolCalls: [{ name: 'preview_start', args: {} }] }, { toolCalls: [{ name: 'preview_screenshot', args: {} }] }, { text: 'Noted.' }] })
    servers.push(server)
    const dir = project()
    const env = fakeProviderEnv(server, tempDir('hotaru-data-'), { HOTARU_CHROMIUM: '/usr/bin/chromium', DEEPSEEK_API_KEY: 'sk-test', DEEPSEEK_BASE_URL: server.openaiBaseURL })
    await trusted(dir, env)
    const result = await runHotaru(['run', '--dir', dir, '--model', 'deepseek/deepseek-chat', '--yes', 'look'], env)
    expect(result.code, result.stderr).toBe(0)
    const last = server.requests.filter((r) => r.api !== 'control').at(-1)
    const text = JSON.stringify(last?.body)
    expect(text).not.toContain('base64')
    expect(text).toMatch(/\[image omitted: [\w/.-]*deepseek-chat does not accept images\]/)
  })
})
