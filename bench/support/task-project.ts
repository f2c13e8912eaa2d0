import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FakeTurn, FakeTurnSource } from '../../test/fixtures/fake-llm'

/** The two source files the scripted agent task reads and edits. */
export const TASK_FIXTURE: Record<string, string> = {
  'src/app.ts': 'export function app() {\n  return 1\n}\n',
  'src/util.ts': 'export function add(a: number, b: number) {\n  return a + b\n}\n',
}

export function writeFile(root: string, path: string, content: string): void {
  const abs = join(root, path)
  mkdirSync(join(abs, '..'), { recursive: true })
  writeFileSync(abs, content)
}

export function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.email=bench@example.com', '-c', 'user.name=bench', ...args], { cwd, stdio: 'ignore' })
}

/**
 * The task fixture, alone or inside `bulk` small text files in nested folders; committed to git
 * and packed, as a cloned repository is. Left to itself, the commit of tens of thousands of loose
 * objects starts `git gc --auto` in the background, which then repacks for seconds while the
 * measured runs go on.
 */
export function makeTaskProject(dir: string, bulk: number): void {
  for (const [path, content] of Object.entries(TASK_FIXTURE)) writeFile(dir, path, content)
  for (let i = 0; i < bulk; i++) {
    writeFile(dir, `pages/p${i % 40}/s${Math.floor(i / 40) % 25}/page${i}.md`, `# Page ${i}\n\nSome text of page ${i}.\n\n- item ${i % 7}\n`)
  }
  git(dir, 'init', '-q', '-b', 'main')
  git(dir, 'add', '-A')
  git(dir, '-c', 'gc.auto=0', 'commit', '-q', '-m', 'fixture')
  git(dir, 'gc', '-q')
}

/**
 * The task fixture added to a clone of a real repository (`source`: a path or URL git can clone), committed:
 * the tree's real file sizes and layout instead of a generated one. Returns how many files it holds.
 */
export function makeTaskProjectFrom(dir: string, source: string): number {
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', source, dir], { stdio: 'ignore' })
  for (const [path, content] of Object.entries(TASK_FIXTURE)) writeFile(dir, path, content)
  git(dir, 'add', ...Object.keys(TASK_FIXTURE))
  git(dir, '-c', 'gc.auto=0', 'commit', '-q', '-m', 'task fixture')
  return execFileSync('git', ['ls-files', '-z'], { cwd: dir, maxBuffer: 256 * 1024 * 1024 }).toString().split('\0').filter(Boolean).length
}

/**
 * A fresh copy of `template` at `dir`: new inodes and change times, so git's index no longer matches the
 * files' stat data (as after a copy or a fresh checkout) and the first `git status` and snapshot look at every file.
 */
export function copyTaskProject(template: string, dir: string): void {
  execFileSync('cp', ['-a', `${template}/.`, dir])
}

/** Back to the committed fixture: the task's edits undone, its new files gone. */
export function resetTaskProject(dir: string): void {
  git(dir, 'reset', '-q', '--hard')
  git(dir, 'clean', '-q', '-fd')
}

/**
 * Fake LLM answers that play `steps` in order to the task's requests (those that carry tools).
 * Side requests (titles, topic checks of an agent's small model) get a short answer and do not
 * take a step. `spare` answers are left for side requests beyond the steps.
 */
export function taskAnswers(steps: FakeTurn[], spare: number): FakeTurnSource[] {
  const queue = [...steps]
  return Array.from({ length: steps.length + spare }, () => (request) => {
    const body = request.body as { tools?: unknown[] } | undefined
    if (!body?.tools || body.tools.length === 0) return { text: 'ok' }
    return queue.shift() ?? { text: 'done' }
  })
}
