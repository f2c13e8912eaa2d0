import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { folderArguments } from '../../../src/main/electron/folder-args'
import { rendererFile } from '../../../src/main/electron/renderer-files'
import { tempDir } from '../../support/temp'

describe('folders on the command line', () => {
  it('opens the directories named after the executable (and the app path under `electron .`), relative to the cwd', () => {
    const cwd = tempDir()
    mkdirSync(join(cwd, 'app'))
    writeFileSync(join(cwd, 'notes.txt'), 'x')
    expect(folderArguments(['/opt/Hotaru/hotaru', 'app', '--no-sandbox', 'notes.txt', 'missing', 'app'], cwd, false)).toEqual([join(cwd, 'app')])
    expect(folderArguments(['/usr/bin/electron', '.', 'app'], cwd, true)).toEqual([join(cwd, 'app')])
    expect(folderArguments(['/opt/Hotaru/hotaru'], cwd, false)).toEqual([])
  })
})

function rendererBuild(): string {
  const root = tempDir()
  mkdirSync(join(root, 'assets'))
  writeFileSync(join(root, 'index.html'), '<!doctype html>')
  writeFileSync(join(root, 'assets', 'a.js'), '')
  return root
}

describe('app:// files', () => {
  it('serves files of the renderer build and index.html for /', () => {
    const root = rendererBuild()
    expect(rendererFile(root, 'app://hotaru/')).toEqual({ status: 200, file: join(root, 'index.html') })
    expect(rendererFile(root, 'app://hotaru/assets/a.js')).toEqual({ status: 200, file: join(root, 'assets', 'a.js') })
  })

  it('refuses traversal, other hosts and malformed paths; a missing file or a directory is a 404', () => {
    const root = rendererBuild()
    // The URL parser already folds `%2e%2e` segments, so this names <root>/etc/passwd: not there.
    expect(rendererFile(root, 'app://hotaru/%2e%2e/%2e%2e/etc/passwd').status).toBe(404)
    expect(rendererFile(root, 'app://hotaru/..%2f..%2fetc%2fpasswd').status).toBe(403)
    expect(rendererFile(root, 'app://other/index.html').status).toBe(403)
    expect(rendererFile(root, 'app://hotaru/%E0%A4%A').status).toBe(400)
    expect(rendererFile(root, 'app://hotaru/index.html%00.js').status).toBe(400)
    expect(rendererFile(root, 'app://hotaru/nope.js').status).toBe(404)
    expect(rendererFile(root, 'app://hotaru/assets').status).toBe(404)
  })
})
