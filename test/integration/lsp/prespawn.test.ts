import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { getPriority } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { nativeTypescriptBinary } from '../../../src/main/core/lsp/locate'
import { discardPrespawned, prespawnServer, takePrespawned, typescriptLaunchAhead } from '../../../src/main/core/lsp/prespawn'
import { useEnvironmentPath } from '../../../src/main/core/mcp/shell-path'
import { descendants, isAlive } from '../../../src/main/core/process/tree'
import { BACKGROUND_NICENESS } from '../../../src/main/core/util/thread-priority'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'
import { waitFor } from './helpers'

/** An environment with no config of the user's: only the project's own can name `lsp`. */
function cleanEnv(): NodeJS.ProcessEnv {
  const home = tempDir()
  return { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), HOTARU_MANAGED_CONFIG_DIR: join(home, 'managed'), HOTARU_CONFIG_CONTENT: '' }
}

/** This process's running `tsgo --lsp` processes. */
function nativeServers(): number[] {
  return descendants(process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('--lsp')
    } catch {
      // It ended between the listing and the read.
      return false
    }
  })
}

beforeAll(() => {
  // As every `hotaru` command does: servers get the PATH of the environment they start with.
  useEnvironmentPath()
})

afterEach(async () => {
  await discardPrespawned()
})

describe.runIf(process.platform === 'linux' && nativeTypescriptBinary() !== undefined)('the TypeScript server started ahead of the core', () => {
  it('is the one the project then uses, and it checks the project', async () => {
    const root = writeTree(tempDir(), { 'src/app.ts': 'export const n: number = "one"\n' })
    const env = cleanEnv()
    const launch = typescriptLaunchAhead(root, env)
    expect(launch?.command).toBe(nativeTypescriptBinary())
    prespawnServer(launch!)
    await waitFor(() => nativeServers().length === 1)
    const [early] = nativeServers()

    const services = testServices({ env, lsp: { startWithProject: true } })
    const lsp = services.lsp.for(services.projects.openFolder(root))
    await waitFor(() => lsp.statuses().find((s) => s.id === 'typescript')?.state === 'ready')
    expect(lsp.statuses().find((s) => s.id === 'typescript')?.pid).toBe(early)
    expect(nativeServers()).toEqual([early])
    const report = await lsp.touch([join(root, 'src/app.ts')], { waitMs: 60_000 })
    expect(report.files.flatMap((f) => f.errors.map((d) => d.message)).join('\n')).toMatch(/not assignable to type 'number'/)
  }, 120_000)

  it('runs at background priority from its start, so its start does not compete with the core loading', async () => {
    const root = writeTree(tempDir(), { 'src/app.ts': 'export const a = 1\n' })
    prespawnServer(typescriptLaunchAhead(root, cleanEnv())!)
    await waitFor(() => nativeServers().length === 1)
    const [early] = nativeServers()
    await waitFor(() => getPriority(early) === BACKGROUND_NICENESS, 10_000)
    // Its session's scheduling group too: a process of another session competes with this one as an equal otherwise.
    if (existsSync('/proc/self/autogroup')) expect(readFileSync(`/proc/${early}/autogroup`, 'utf8')).toMatch(new RegExp(`nice ${BACKGROUND_NICENESS}$`, 'm'))
  }, 60_000)

  it('is ended when nobody takes it, or when the launch asked for is another', async () => {
    const root = writeTree(tempDir(), { 'src/app.ts': 'export const a = 1\n' })
    const launch = typescriptLaunchAhead(root, cleanEnv())!
    prespawnServer(launch)
    await waitFor(() => nativeServers().length === 1)
    const [first] = nativeServers()
    await discardPrespawned()
    await waitFor(() => !isAlive(first!))

    prespawnServer(launch)
    await waitFor(() => nativeServers().length === 1)
    const [second] = nativeServers()
    expect(await takePrespawned({ ...launch, cwd: tempDir() })).toBeUndefined()
    await waitFor(() => !isAlive(second!))
    expect(nativeServers()).toEqual([])
  }, 60_000)

  it('is not started in a folder without TypeScript or JavaScript, with a TypeScript of its own, or whose config names lsp', () => {
    const env = cleanEnv()
    expect(typescriptLaunchAhead(writeTree(tempDir(), { 'README.md': '# notes\n' }), env)).toBeUndefined()
    expect(typescriptLaunchAhead(writeTree(tempDir(), { 'package.json': '{}' }), env)).toBeDefined()

    const own = writeTree(tempDir(), { 'src/a.ts': 'export {}\n', 'node_modules/typescript/lib/tsserver.js': '' })
    expect(typescriptLaunchAhead(own, env)).toBeUndefined()

    const off = writeTree(tempDir(), { 'src/a.ts': 'export {}\n', '.hotaru/hotaru.jsonc': '{\n  // no servers here\n  "lsp": false\n}\n' })
    expect(typescriptLaunchAhead(off, env)).toBeUndefined()

    const plain = writeTree(tempDir(), { 'src/a.ts': 'export {}\n' })
    expect(typescriptLaunchAhead(plain, { ...env, HOTARU_CONFIG_CONTENT: '{"lsp": {"typescript": {"disabled": true}}}' })).toBeUndefined()
    const userConfig = join(env.XDG_CONFIG_HOME!, 'hotaru')
    mkdirSync(userConfig, { recursive: true })
    writeFileSync(join(userConfig, 'hotaru.json'), '{ "lsp": false }')
    expect(typescriptLaunchAhead(plain, env)).toBeUndefined()
  })

  it('is not started, and nothing waits, when a config file is a FIFO', () => {
    const root = writeTree(tempDir(), { 'src/a.ts': 'export {}\n' })
    execFileSync('mkfifo', [join(root, 'hotaru.json')])
    expect(typescriptLaunchAhead(root, cleanEnv())).toBeUndefined()
  })
})
