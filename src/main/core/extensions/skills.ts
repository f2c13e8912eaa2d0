import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DOT_HOTARU_DIR } from '../config/locations'
import { parseFrontmatter, stringField } from './frontmatter'
import { listDir, uniqueDirs } from './scan'
import { errorMessage, type ExtensionError, type ExtensionScope } from './types'

export const SKILL_FILE = 'SKILL.md'
/** As in the Agent Skills format: lowercase letters, digits and hyphens. */
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const MAX_NAME = 64
const MAX_DESCRIPTION = 1024

export interface SkillInfo {
  name: string
  description: string
  /** Absolute path of the SKILL.md. */
  file: string
  /** Absolute path of the skill's folder (its other files are read from there). */
  dir: string
  scope: ExtensionScope
}

export interface SkillShadow {
  name: string
  /** The SKILL.md that is not used. */
  file: string
  /** The SKILL.md used instead. */
  by: string
}

export interface SkillDiscovery {
  skills: SkillInfo[]
  errors: ExtensionError[]
  /** Skills hidden by one of the same name found earlier (project over home). */
  shadowed: SkillShadow[]
}

export interface SkillLocations {
  projectRoot: string
  homeDir: string
  globalConfigDir: string
}

/**
 * The folders searched, first wins on a name clash: the project's own, then the
 * user's. `.claude/skills` and `.agents/skills` are read so skills written for
 * other agents work unchanged.
 */
export function skillDirs({ projectRoot, homeDir, globalConfigDir }: SkillLocations): Array<{ dir: string; scope: ExtensionScope }> {
  return uniqueDirs([
    { dir: join(projectRoot, DOT_HOTARU_DIR, 'skills'), scope: 'project' },
    { dir: join(projectRoot, '.claude', 'skills'), scope: 'project' },
    { dir: join(projectRoot, '.agents', 'skills'), scope: 'project' },
    { dir: join(globalConfigDir, 'skills'), scope: 'global' },
    { dir: join(homeDir, '.claude', 'skills'), scope: 'home' },
    { dir: join(homeDir, '.agents', 'skills'), scope: 'home' },
  ])
}

/** Name, description and body of a SKILL.md; throws with a message for the user when it is not valid. */
export function parseSkill(text: string, folderName: string): { name: string; description: string; body: string; notice?: string } {
  const { data, body, present, notice } = parseFrontmatter(text)
  if (!present) throw new Error('no frontmatter: the file must start with a `---` block holding `name` and `description`')
  const name = stringField(data, 'name') ?? folderName
  if (name.length > MAX_NAME || !SKILL_NAME.test(name)) {
    throw new Error(`invalid name "${name}": use lowercase letters, digits and single hyphens, at most ${MAX_NAME} characters`)
  }
  const description = stringField(data, 'description')
  if (!description) throw new Error('`description` is missing: it tells the model when to use the skill')
  if (description.length > MAX_DESCRIPTION) throw new Error(`\`description\` is longer than ${MAX_DESCRIPTION} characters`)
  if (body.trim() === '') throw new Error('the skill has no instructions after the frontmatter')
  return { name, description, body, ...(notice ? { notice } : {}) }
}

/** Finds every skill; broken ones are listed in `errors` and left out. */
export async function discoverSkills(locations: SkillLocations): Promise<SkillDiscovery> {
  const errors: ExtensionError[] = []
  const shadowed: SkillShadow[] = []
  const byName = new Map<string, SkillInfo>()
  for (const { dir, scope } of skillDirs(locations)) {
    for (const entry of await listDir(dir, errors)) {
      if (!entry.isDirectory) continue
      const file = join(entry.path, SKILL_FILE)
      let text: string
      try {
        text = await readFile(file, 'utf8')
      } catch (error) {
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT'
        errors.push({ file: missing ? entry.path : file, error: missing ? `no ${SKILL_FILE} in this skill folder` : errorMessage(error) })
        continue
      }
      let parsed: ReturnType<typeof parseSkill>
      try {
        parsed = parseSkill(text, entry.name)
      } catch (error) {
        errors.push({ file, error: errorMessage(error) })
        continue
      }
      if (parsed.notice) errors.push({ file, error: parsed.notice, used: true })
      const existing = byName.get(parsed.name)
      if (existing) {
        shadowed.push({ name: parsed.name, file, by: existing.file })
        continue
      }
      byName.set(parsed.name, { name: parsed.name, description: parsed.description, file, dir: entry.path, scope })
    }
  }
  return { skills: [...byName.values()], errors, shadowed }
}

/** Reads a skill's instructions now, so an edit since discovery is picked up. */
export async function loadSkillBody(skill: SkillInfo): Promise<string> {
  const text = await readFile(skill.file, 'utf8')
  return parseSkill(text, skill.name).body.trim()
}

/**
 * The system prompt block that lists the skills. Only names and descriptions, so
 * many skills cost little; the model loads one with the `skill` tool when a task
 * calls for it. Empty when there are no skills.
 */
export function skillsPromptBlock(skills: readonly SkillInfo[]): string {
  if (skills.length === 0) return ''
  return [
    '<skills>',
    'Skills are instructions for particular tasks. When a task matches a skill\'s description, call the `skill` tool',
    'with its name before you start, then follow what it says. The tool also lists the skill\'s other files by',
    'absolute path: read them with the `read` tool when the instructions refer to them.',
    '',
    ...skills.map((s) => `- ${s.name}: ${s.description.replace(/\s+/g, ' ').trim()}`),
    '</skills>',
  ].join('\n')
}
