import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm'
import { fakeProviderEnv, ROOT, runHotaru, startServe } from '../support/cli'
import { tempDir } from '../support/temp'
import { until } from '../support/until'

// What a command loads decides how fast it starts: each provider SDK, the MCP SDK and the
// language-server command live in chunks of their own, loaded only by the commands that use them.
const RECORDER = pathToFileURL(join(ROOT, 'test/fixtures/record-loads.mjs')).href

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

/** Runs `hotaru args…` and returns the files its main thread loaded, relative to the project root, and when each began. */
async function loadsOf(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; files: string[]; at: Map<string, number> }> {
  const log = join(tempDir(), 'loads.txt')
  const result = await runHotaru(args, { ...env, NODE_OPTIONS: `--import ${RECORDER}`, HOTARU_TEST_LOADS: log })
  return { code: result.code, stdout: result.stdout, ...recordedLoads(log) }
}

/** What the recorder wrote at the process's exit. */
function recordedLoads(log: string): { files: string[]; at: Map<string, number> } {
  const root = pathToFileURL(ROOT).href + '/'
  const at = new Map<string, number>()
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    const space = line.indexOf(' ')
    const url = line.slice(space + 1)
    if (space > 0 && url.startsWith(root) && !at.has(url.slice(root.length))) at.set(url.slice(root.length), Number(line.slice(0, space)))
  }
  return { files: [...at.keys()], at }
}

/** Files of the language-server protocol library (in whichever chunk the bundler put it). */
const protocolFiles = (files: string[]): string[] =>
  files.filter((f) => f.startsWith('out/cli/') && readFileSync(join(ROOT, f), 'utf8').includes('textDocument/publishDiagnostics'))

/** The file that holds `text` (a function of ours), in whichever chunk the bundler put it. */
const fileWith = (files: string[], text: string): string | undefined =>
  files.find((f) => f.startsWith('out/cli/') && readFileSync(join(ROOT, f), 'utf8').includes(text))

/** `node_modules/@scope/pkg/…` → `@scope`, `node_modules/pkg/…` → `pkg`. */
const packageOf = (file: string): string => file.split('/')[1] ?? file

const chunk = (files: string[], name: string): string[] => files.filter((f) => new RegExp(`^out/cli/assets/${name}-[\\w-]+\\.js$`).test(f))

describe('modules a command loads', () => {
  it('run --help loads neither the core nor any provider SDK', async () => {
    const dataDir = tempDir()
    const { code, stdout, files } = await loadsOf(['run', '--help'], fakeProviderEnv({ anthropicBaseURL: 'http://127.0.0.1:9', openaiBaseURL: 'http://127.0.0.1:9/v1' }, dataDir))
    expect(code).toBe(0)
    expect(stdout).toMatch(/hotaru run/)
    expect(files).toContain('out/cli/main.js')
    for (const name of ['services', 'anthropic-kit', 'openai-kit', 'mcp', 'lsp']) expect(chunk(files, name)).toEqual([])
    expect(files.filter((f) => f.startsWith('node_modules/'))).toEqual([])
  })

  it('run over Anthropic loads the Anthropic SDK alone, no MCP or language-server code', async () => {
    // A hosted model's time to its first token.
    const server = await startFakeLlm({ turns: [{ text: 'Hi there.', latencyMs: 600 }] })
    servers.push(server)
    const project = tempDir()
    const { code, stdout, files, at } = await loadsOf(['run', '--dir', project, '--model', 'anthropic/claude-sonnet-4-6', 'hello'], fakeProviderEnv(server, tempDir()))
    expect(code).toBe(0)
    expect(stdout).toContain('Hi there.')
    expect(chunk(files, 'services')).toHaveLength(1)
    expect(chunk(files, 'anthropic-kit')).toHaveLength(1)
    // Of the SDK's APIs, only Messages is built and loaded (not files, models, skills, admin…).
    const sdk = readFileSync(join(ROOT, chunk(files, 'anthropic-kit')[0] ?? ''), 'utf8')
    expect(sdk).toContain('/v1/messages')
    for (const endpoint of ['/v1/files', '/v1/models', '/v1/skills']) expect(sdk).not.toContain(endpoint)
    for (const name of ['openai-kit', 'mcp', 'lsp']) expect(chunk(files, name)).toEqual([])
    // The language-server protocol library loads with the first language server, and this turn edits nothing.
    expect(protocolFiles(files)).toEqual([])
    // The shell checker's grammar loads while the request waits for the model, not before it.
    const grammar = [...at].filter(([file]) => file.startsWith('node_modules/web-tree-sitter/')).map(([, time]) => time)
    expect(grammar.length).toBeGreaterThan(0)
    expect(Math.min(...grammar)).toBeGreaterThanOrEqual(server.requests[0]?.at ?? Infinity)
    // The system prompt's `git status` starts before the core's modules load, not after them.
    const gitRun = fileWith(files, 'function prefetchGitStatus(')
    const [services] = chunk(files, 'services')
    expect(at.get(gitRun ?? '')).toBeLessThan(at.get(services ?? '') ?? -Infinity)
    // Only native addons and WASM-backed packages stay outside the bundle.
    const packages = new Set(files.filter((f) => f.startsWith('node_modules/')).map(packageOf))
    for (const name of packages) expect(['better-sqlite3', 'bindings', 'file-uri-to-path', '@lydell', 'web-tree-sitter', 'tree-sitter-bash']).toContain(name)
    // Every file of the bundle it loads is plain ASCII: a single other character makes V8 keep the whole file
    // as a two-byte string.
    const bundle = files.filter((f) => f.startsWith('out/cli/'))
    expect(bundle.length).toBeGreaterThan(3)
    expect(bundle.filter((f) => readFileSync(join(ROOT, f)).some((byte) => byte > 0x7f))).toEqual([])
  })

  it('run over OpenAI loads the OpenAI SDK and not the Anthropic one', async () => {
    const server = await startFakeLlm({ turns: [{ text: 'Hi there.' }] })
    servers.push(server)
    const { code, files } = await loadsOf(['run', '--dir', tempDir(), '--model', 'openai/gpt-4.1', 'hello'], fakeProviderEnv(server, tempDir()))
    expect(code).toBe(0)
    expect(chunk(files, 'openai-kit')).toHaveLength(1)
    expect(chunk(files, 'anthropic-kit')).toEqual([])
  })

  it('serve loads what a first turn needs right after it starts, before any message: the SDK of the project\'s model, the language-server client, the bash grammar', async () => {
    const project = tempDir()
    const dataDir = tempDir()
    const log = join(tempDir(), 'loads.txt')
    writeFileSync(join(project, 'hotaru.json'), JSON.stringify({ model: 'openai/gpt-4.1' }))
    const env = { ...fakeProviderEnv({ anthropicBaseURL: 'http://127.0.0.1:9', openaiBaseURL: 'http://127.0.0.1:9/v1' }, dataDir), NODE_OPTIONS: `--import ${RECORDER}`, HOTARU_TEST_LOADS: log, HOTARU_LOG: 'info' }
    const served = await startServe(['--port', '0', '--dir', project], env)
    let stdout = ''
    served.child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    try {
      await until(() => stdout.includes('[warm-up] done'), 'the warm-up ends')
    } finally {
      await served.stop()
    }
    const { files } = recordedLoads(log)
    expect(chunk(files, 'openai-kit')).toHaveLength(1)
    expect(chunk(files, 'anthropic-kit')).toEqual([])
    expect(protocolFiles(files).length).toBeGreaterThan(0)
    expect(files.some((f) => f.startsWith('node_modules/web-tree-sitter/'))).toBe(true)
  })
})
