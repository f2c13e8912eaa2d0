import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SearchFileResult, SearchSummary } from '@shared/schema/search'
import { testServices } from '../support/services'
import { tempDir, writeTree } from '../support/temp'

function setup() {
  const services = testServices()
  const root = writeTree(tempDir(), {
    '.gitignore': 'dist/\n',
    'src/app.ts': 'export const answer = 42\nconst Answer = "answer"\n',
    'src/util.ts': 'export function answerOf(x: number) { return x }\n',
    'docs/notes.md': 'the answer is 42 — ünïcode answer\n',
    'dist/bundle.js': 'answer answer answer\n',
    'node_modules/x/index.js': 'answer\n',
  })
  const project = services.projects.openFolder(root)
  return { services, root, project }
}

/** Runs a search through the service and collects its streamed events until `done`. */
function collect(services: ReturnType<typeof setup>['services'], projectId: string, searchId: string, query: Parameters<typeof services.search.start>[2]) {
  const files: SearchFileResult[] = []
  return new Promise<{ files: SearchFileResult[]; done: SearchSummary }>((resolve) => {
    const off = services.bus.subscribe((event) => {
      const payload = event.envelope.payload as { searchId: string }
      if (payload.searchId !== searchId) return
      if (event.channel === 'search:results') files.push(...(event.envelope.payload as { files: SearchFileResult[] }).files)
      if (event.channel === 'search:done') {
        off.dispose()
        resolve({ files, done: event.envelope.payload as SearchSummary })
      }
    })
    services.search.start(projectId, searchId, query)
  })
}

describe('search service', () => {
  it('lists project files from rg, without ignored ones, and notices new files', async () => {
    const { services, root, project } = setup()
    const first = await services.search.files(project.id)
    expect(first.files).toEqual(['.gitignore', 'docs/notes.md', 'src/app.ts', 'src/util.ts'])
    writeFileSync(join(root, 'src/new.ts'), '')
    services.bus.publish('fs:changed', { changes: [{ kind: 'created', path: 'src/new.ts' }], invalidated: [] }, project.id)
    expect((await services.search.files(project.id)).files).toContain('src/new.ts')
  })

  it('streams matches grouped by file with character ranges; case and whole-word options apply', async () => {
    const { services, project } = setup()
    const plain = await collect(services, project.id, 's1', { query: 'answer', regex: false, caseSensitive: false, wholeWord: false })
    expect(plain.files.map((f) => f.path).sort()).toEqual(['docs/notes.md', 'src/app.ts', 'src/util.ts'])
    expect(plain.done).toMatchObject({ files: 3, matches: 4, cancelled: false, truncated: false })
    const notes = plain.files.find((f) => f.path === 'docs/notes.md')
    const line = notes?.matches[0]
    expect(line?.ranges.map(([s, e]) => line.text.slice(s, e))).toEqual(['answer', 'answer'])
    const cased = await collect(services, project.id, 's2', { query: 'Answer', regex: false, caseSensitive: true, wholeWord: false })
    expect(cased.done.matches).toBe(1)
    const word = await collect(services, project.id, 's3', { query: 'answer', regex: false, caseSensitive: false, wholeWord: true })
    expect(word.files.map((f) => f.path).sort()).toEqual(['docs/notes.md', 'src/app.ts'])
  })

  it('filters by include and exclude globs, reports a bad regex, and cancels', async () => {
    const { services, project } = setup()
    const included = await collect(services, project.id, 'i1', { query: 'answer', regex: false, caseSensitive: false, wholeWord: false, include: ['*.ts'], exclude: ['src/util.ts'] })
    expect(included.files.map((f) => f.path)).toEqual(['src/app.ts'])
    const regex = await collect(services, project.id, 'r1', { query: 'answer\\s*=\\s*\\d+', regex: true, caseSensitive: false, wholeWord: false })
    expect(regex.files.map((f) => f.path)).toEqual(['src/app.ts'])
    const bad = await collect(services, project.id, 'r2', { query: '(unclosed', regex: true, caseSensitive: false, wholeWord: false })
    expect(bad.done.error).toBeTruthy()
    const cancelled = collect(services, project.id, 'c1', { query: 'answer', regex: false, caseSensitive: false, wholeWord: false })
    expect(services.search.cancel('c1')).toBe(true)
    expect((await cancelled).done.cancelled).toBe(true)
  })
})
