import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { DirEntry } from '@shared/schema/fs'
import { EventBus } from '../../../src/main/core/bus/bus'
import { checkEvent } from '../../../src/main/core/bus/event-check'
import { ProjectInstance } from '../../../src/main/core/project/instance'
import { tempDir, writeTree } from '../../support/temp'
import { until } from '../../support/until'

const open: ProjectInstance[] = []
afterEach(async () => {
  for (const project of open.splice(0)) await project.dispose()
})

/**
 * What the file tree does with a project's root: list it once, then follow `fs:changed`
 * (created/deleted entries; an invalidated folder is listed again).
 */
function rootShownBy(project: ProjectInstance, bus: EventBus): () => string[] {
  let entries: DirEntry[] = []
  bus.on('fs:changed', ({ changes, invalidated }) => {
    if (invalidated.length > 0) {
      entries = project.list('').entries
      return
    }
    for (const change of changes) {
      if (change.path.includes('/')) continue
      entries = entries.filter((e) => e.path !== change.path)
      if (change.kind !== 'deleted' && change.entry) entries.push(change.entry)
    }
  })
  entries = project.list('').entries
  return () => entries.map((e) => e.name).sort()
}

describe('a folder listed while its watcher starts', () => {
  it('shows a file created after the listing, before the watcher reached the folder', async () => {
    const root = writeTree(tempDir('hotaru-listing-'), { 'README.md': '# x\n' })
    const bus = new EventBus({ check: checkEvent })
    const project = new ProjectInstance({ id: 'abcdef0123456789', root, name: 'x' }, bus)
    open.push(project)
    // The first listing starts the watcher; the file lands before chokidar has watched anything.
    const shown = rootShownBy(project, bus)
    writeFileSync(join(root, 'late.txt'), 'late\n')
    expect(shown()).toEqual(['README.md'])
    await project.watchFiles().whenReady()
    await until(() => shown().includes('late.txt'), 'the late file in the listing', 5_000)
    expect(shown()).toEqual(['late.txt', 'README.md'].sort())
  })
})
