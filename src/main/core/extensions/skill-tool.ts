import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { defineTool, ToolError, type Tool } from '../tools'
import description from './skill.txt?raw'
import { loadSkillBody, SKILL_FILE, type SkillInfo } from './skills'

export const SKILL_TOOL_ID = 'skill'
/** Enough to show what a skill ships without flooding the context with a vendored tree. */
const MAX_LISTED_FILES = 100
const MAX_DEPTH = 4
const SKIPPED_DIRS = new Set(['.git', 'node_modules', '__pycache__'])

const parameters = z.object({
  name: z.string().min(1).describe('The skill\'s name, as listed in the system prompt'),
})

/**
 * The skill's other files by absolute path, breadth first so the top-level ones come
 * first when the list is cut; files more than MAX_DEPTH folders down are not listed.
 */
export async function skillFiles(dir: string): Promise<{ files: string[]; more: number }> {
  const files: string[] = []
  let more = 0
  let level = [dir]
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = []
    for (const folder of level) {
      const entries = await readdir(folder, { withFileTypes: true })
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        const path = join(folder, entry.name)
        if (entry.isDirectory()) {
          if (!SKIPPED_DIRS.has(entry.name)) next.push(path)
          continue
        }
        if (depth === 0 && entry.name === SKILL_FILE) continue
        if (files.length < MAX_LISTED_FILES) files.push(path)
        else more++
      }
    }
    level = next
  }
  return { files, more }
}

/**
 * The `skill` tool over the skills found for this turn. It does not ask: the skill's
 * own text is what the user installed for the model to follow. Its other files go
 * through `read`, with the usual permission (outside the project that is an
 * `external_directory` ask).
 */
export function createSkillTool(skills: readonly SkillInfo[]): Tool {
  return defineTool({
    id: SKILL_TOOL_ID,
    mutatesFiles: false,
    description,
    parameters,
    async execute(args) {
      const skill = skills.find((s) => s.name === args.name)
      if (!skill) {
        const names = skills.map((s) => s.name).join(', ') || '(none)'
        throw new ToolError(`There is no skill named "${args.name}". Available skills: ${names}.`)
      }
      const body = await loadSkillBody(skill)
      const { files, more } = await skillFiles(skill.dir)
      const listing =
        files.length === 0
          ? 'The skill has no other files.'
          : [
              'Other files of this skill (read them with the read tool using these absolute paths):',
              ...files.map((f) => `- ${f}`),
              ...(more > 0 ? [`- … and ${more} more (use the list tool on the folder)`] : []),
            ].join('\n')
      return {
        title: `Skill ${skill.name}`,
        output: `<skill name="${skill.name}" directory="${skill.dir}">\n${body}\n</skill>\n\n${listing}`,
        metadata: { name: skill.name, dir: skill.dir, file: skill.file, files: files.length + more },
      }
    },
  })
}
