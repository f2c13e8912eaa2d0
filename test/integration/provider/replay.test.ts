import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type LoadedCase, type WireExpectation, loadCases } from '../../fixtures/replay/case'
import { type ReplayServer, type ReplayedRequest, startReplayServer } from '../../fixtures/replay/server'
import { assistantMessages, reasoningItemsSent, requestKeys, thinkingSent, toolCallsSent } from '../../fixtures/replay/wire'
import { type CliResult, runHotaru } from '../../support/cli'
import { tempDir, writeTree } from '../../support/temp'

/**
 * Recorded provider traffic (test/fixtures/replay/cases) replayed through the real `hotaru run`
 * and the real SDKs: what the user sees, and what the client sends next on the wire.
 */

const servers: ReplayServer[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})

const PRESET_KEYS = ['ANTHROPIC', 'OPENAI', 'DEEPSEEK', 'MOONSHOT', 'KIMI', 'OPENROUTER', 'OLLAMA', 'LMSTUDIO']

function substitute(value: unknown, url: string): unknown {
  if (typeof value === 'string') return value.replaceAll('{replay}', url)
  if (Array.isArray(value)) return value.map((item) => substitute(item, url))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, url)]))
  }
  return value
}

/** Every provider points at the replay server with a test key; nothing of the machine's own setup leaks in. */
function replayEnv(loaded: LoadedCase, url: string, dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: dataDir,
    XDG_CONFIG_HOME: resolve(dataDir, 'config'),
    HOTARU_DATA_DIR: dataDir,
    HOTARU_CONFIG_CONTENT: JSON.stringify(substitute(loaded.replay.config ?? {}, url)),
  }
  for (const name of PRESET_KEYS) {
    env[`${name}_API_KEY`] = 'sk-replay'
    // The Anthropic SDK appends /v1/messages to its base; the OpenAI SDK appends /chat/completions.
    env[`${name}_BASE_URL`] = name === 'ANTHROPIC' ? url : `${url}/v1`
  }
  for (const [key, value] of Object.entries(loaded.replay.env ?? {})) env[key] = String(substitute(value, url))
  return env
}

async function replay(loaded: LoadedCase): Promise<{ runs: CliResult[]; server: ReplayServer; project: string }> {
  const server = await startReplayServer(loaded.replay.responses)
  servers.push(server)
  const dataDir = tempDir()
  const project = writeTree(tempDir(), loaded.replay.files ?? { 'README.md': 'A project.\n' })
  const env = replayEnv(loaded, server.url, dataDir)
  const runs: CliResult[] = []
  for (const [index, prompt] of loaded.replay.prompts.entries()) {
    const args = ['run', '--dir', project, '--model', loaded.replay.model, '--yes', ...(index > 0 ? ['--continue'] : []), prompt]
    runs.push(await runHotaru(args, env, project))
  }
  return { runs, server, project }
}

function checkWire(expectation: WireExpectation, request: ReplayedRequest | undefined, label: string): void {
  expect(request, `${label}: no such request`).toBeDefined()
  if (!request) return
  if (expectation.path !== undefined) expect(request.path, label).toBe(expectation.path)
  if (expectation.toolCalls) {
    const sent = toolCallsSent(request.body)
    expect(
      sent.map((call) => ({ name: call.name, arguments: call.arguments })),
      `${label}: tool calls sent back`,
    ).toEqual(expectation.toolCalls.map((call) => ({ name: call.name, arguments: call.arguments })))
    expectation.toolCalls.forEach((call, i) => {
      if (call.id !== undefined) expect(sent[i]?.id, `${label}: id of call ${i}`).toBe(call.id)
      if ('extraContent' in call) expect(sent[i]?.extra ?? null, `${label}: extra_content of call ${i}`).toEqual(call.extraContent)
    })
    expect(new Set(sent.map((call) => call.id)).size, `${label}: distinct call ids`).toBe(sent.length)
    expect(sent.every((call) => call.answered), `${label}: every call has its result`).toBe(true)
  }
  for (const wanted of expectation.reasoning ?? []) {
    const messages = assistantMessages(request.body)
    const candidates = wanted.message === undefined ? messages : [messages[wanted.message]]
    const found = candidates.some((m) => typeof m?.[wanted.field] === 'string' && (m[wanted.field] as string).startsWith(wanted.startsWith))
    expect(found, `${label}: ${wanted.field} starting "${wanted.startsWith}" sent back`).toBe(true)
  }
  if (expectation.reasoningItems) {
    const sent = reasoningItemsSent(request.body)
    expect(sent.map((item) => item.id), `${label}: reasoning items sent back`).toEqual(expectation.reasoningItems.map((item) => item.id))
    expectation.reasoningItems.forEach((item, i) => {
      expect(sent[i]?.encryptedContent.startsWith(item.encryptedStartsWith), `${label}: encrypted content of reasoning item ${i}`).toBe(true)
    })
  }
  if (expectation.thinking) {
    const sent = thinkingSent(request.body)
    expect(sent.length, `${label}: thinking blocks sent back`).toBe(expectation.thinking.length)
    expectation.thinking.forEach((block, i) => {
      expect(sent[i]?.thinking.startsWith(block.startsWith), `${label}: thinking ${i}`).toBe(true)
      expect(sent[i]?.signature, `${label}: signature ${i}`).toBe(block.signature)
    })
  }
  if (expectation.absentKeys) {
    const keys = requestKeys(request.body)
    for (const key of expectation.absentKeys) expect(keys.has(key), `${label}: "${key}" must not be sent`).toBe(false)
  }
  if (expectation.has) expect(request.body, label).toMatchObject(expectation.has)
}

describe('recorded provider traffic through hotaru run', () => {
  for (const loaded of loadCases()) {
    it(`${loaded.name}: ${loaded.replay.description}`, async () => {
      const { runs, server, project } = await replay(loaded)
      const { expect: wanted } = loaded.replay
      const stdout = runs.map((r) => r.stdout).join('')
      const stderr = runs.map((r) => r.stderr).join('')
      const last = runs[runs.length - 1]
      expect(last?.code, `exit code; stderr:\n${stderr}`).toBe(wanted.exitCode)
      for (const text of wanted.stdout) expect(stdout, 'stdout').toContain(text)
      for (const text of wanted.stderr) expect(stderr, 'stderr').toContain(text)
      for (const pattern of wanted.stderrNot) expect(stderr, 'stderr').not.toMatch(new RegExp(pattern, 'i'))
      const api = server.requests.filter((r) => r.method !== 'GET')
      if (wanted.requests !== undefined) {
        expect(api.length, 'requests made').toBe(wanted.requests)
        expect(server.pending(), 'recorded responses left unused').toBe(0)
      }
      for (const [path, content] of Object.entries(wanted.files)) {
        expect(existsSync(join(project, path)) ? readFileSync(join(project, path), 'utf8') : undefined, path).toBe(content)
      }
      for (const expectation of wanted.wire) checkWire(expectation, api[expectation.request], `request ${expectation.request}`)
    })
  }
})
