import { RG_COMMON_ARGS, bundledRipgrep, runRipgrepRecords } from '../tools/search/ripgrep'
import { walkProject } from '../tools/search/walk'

/** Quick Open and @-mentions stop listing here; the UI says the list is cut. */
export const MAX_INDEXED_FILES = 50_000

/** Even without watcher news, a list older than this is rebuilt on the next request. */
const MAX_AGE_MS = 60_000

export interface FileList {
  files: string[]
  truncated: boolean
}

/**
 * A project's file paths from one `rg --files` (gitignore-aware, hidden files
 * included, .git and node_modules left out), sorted, built on demand and again
 * after the watcher reports files created or deleted. Without the ripgrep
 * binary the same walk runs in JavaScript.
 */
export class ProjectFileIndex {
  private list: FileList | null = null
  private builtAt = 0
  private building: Promise<FileList> | null = null
  private readonly controller = new AbortController()

  constructor(
    private readonly root: string,
    private readonly rg: string | null = bundledRipgrep(),
  ) {}

  /** Files were created, deleted or renamed (or ignore rules changed): the next request rebuilds. */
  invalidate(): void {
    this.list = null
  }

  async files(): Promise<FileList> {
    if (this.list && Date.now() - this.builtAt < MAX_AGE_MS) return this.list
    this.building ??= this.build().finally(() => {
      this.building = null
    })
    return this.building
  }

  private async build(): Promise<FileList> {
    const files = this.rg ? await this.withRipgrep(this.rg) : this.withWalk()
    const truncated = files.length > MAX_INDEXED_FILES
    const list = { files: files.slice(0, MAX_INDEXED_FILES).sort(), truncated }
    this.list = list
    this.builtAt = Date.now()
    return list
  }

  private async withRipgrep(rg: string): Promise<string[]> {
    const files: string[] = []
    const options = { separators: [0], maxFieldBytes: 64 * 1024 }
    const run = await runRipgrepRecords(rg, [...RG_COMMON_ARGS, '--files', '--null'], this.root, this.controller.signal, options, (fields) => {
      const path = fields[0]?.bytes.toString('utf8') ?? ''
      if (path && files.length <= MAX_INDEXED_FILES) files.push(path.replace(/^\.\//, ''))
    })
    if (run.code === 2 && files.length === 0) throw new Error(`listing files failed: ${run.stderr.trim() || 'ripgrep exited with an error'}`)
    return files
  }

  private withWalk(): string[] {
    const files: string[] = []
    walkProject(this.root, '', (entry) => {
      if (!entry.isDir) files.push(entry.rel)
      return files.length > MAX_INDEXED_FILES ? 'stop' : undefined
    }, this.controller.signal)
    return files
  }

  dispose(): void {
    this.controller.abort()
  }
}
