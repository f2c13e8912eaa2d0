import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createSkillTool } from '../../../src/main/core/extensions/skill-tool'
import { discoverSkills, skillsPromptBlock, type SkillLocations } from '../../../src/main/core/extensions/skills'
import { runTool } from '../../../src/main/core/tools'
import { readTool } from '../../../src/main/core/tools/read'
import { tempDir, writeTree } from '../../support/temp'
import { testContext } from '../tools/context'

const skill = (name: string, description: string, body = `Instructions of ${name}.`): string =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`

function locations(): SkillLocations {
  const home = tempDir('hotaru-home-')
  return { projectRoot: tempDir('hotaru-project-'), homeDir: home, globalConfigDir: join(home, '.config', 'hotaru') }
}

describe('discoverSkills', () => {
  it('finds skills in every folder, project first, and the project wins a name clash', async () => {
    const loc = locations()
    writeTree(loc.projectRoot, {
      '.hotaru/skills/deploy/SKILL.md': skill('deploy', 'Project deploy steps'),
      '.claude/skills/review/SKILL.md': skill('review', 'Project review checklist'),
      '.agents/skills/deploy/SKILL.md': skill('deploy', 'Shadowed by .hotaru'),
    })
    writeTree(loc.globalConfigDir, { 'skills/release/SKILL.md': skill('release', 'User release notes') })
    writeTree(loc.homeDir, {
      '.claude/skills/review/SKILL.md': skill('review', 'User review (shadowed)'),
      '.agents/skills/pdf/SKILL.md': skill('pdf', 'Work with PDF files'),
    })
    const found = await discoverSkills(loc)
    expect(found.errors).toEqual([])
    expect(found.skills.map((s) => [s.name, s.description, s.scope])).toEqual([
      ['deploy', 'Project deploy steps', 'project'],
      ['review', 'Project review checklist', 'project'],
      ['release', 'User release notes', 'global'],
      ['pdf', 'Work with PDF files', 'home'],
    ])
    expect(found.skills[0]?.dir).toBe(join(loc.projectRoot, '.hotaru/skills/deploy'))
    expect(found.shadowed).toEqual([
      { name: 'deploy', file: join(loc.projectRoot, '.agents/skills/deploy/SKILL.md'), by: join(loc.projectRoot, '.hotaru/skills/deploy/SKILL.md') },
      { name: 'review', file: join(loc.homeDir, '.claude/skills/review/SKILL.md'), by: join(loc.projectRoot, '.claude/skills/review/SKILL.md') },
    ])
  })

  it('reports invalid skills and skips them', async () => {
    const loc = locations()
    const dir = join(loc.projectRoot, '.hotaru/skills')
    writeTree(dir, {
      'no-front/SKILL.md': '# just text\n',
      'no-desc/SKILL.md': '---\nname: no-desc\n---\nbody\n',
      'bad-name/SKILL.md': skill('Bad Name', 'x'),
      'folded/SKILL.md': '---\nname: folded\ndescription: >-\n  Fill PDF forms\n  and merge files.\ntags:\n  - pdf\n---\nbody\n',
      'colons/SKILL.md': '---\nname: colons\ndescription: Use for: forms, checkboxes\n---\nbody\n',
      'broken/SKILL.md': '---\nname: broken\ndescription: [a, b\n  - c\n---\nbody\n',
      'empty/SKILL.md': '---\nname: empty\ndescription: nothing below\n---\n\n',
      'missing/notes.md': 'no SKILL.md here',
      'README.md': 'a file next to the skill folders is not a skill',
      'good/SKILL.md': skill('good', 'Works'),
      'unnamed/SKILL.md': '---\ndescription: named after its folder\n---\nbody\n',
    })
    const found = await discoverSkills(loc)
    expect(found.skills.map((s) => [s.name, s.description])).toEqual([
      ['colons', 'Use for: forms, checkboxes'],
      ['folded', 'Fill PDF forms and merge files.'],
      ['good', 'Works'],
      ['unnamed', 'named after its folder'],
    ])
    expect(found.errors).toEqual([
      { file: join(dir, 'bad-name/SKILL.md'), error: expect.stringContaining('invalid name "Bad Name"') },
      { file: join(dir, 'broken/SKILL.md'), error: expect.stringMatching(/^line \d: /) },
      { file: join(dir, 'colons/SKILL.md'), error: expect.stringContaining('not valid YAML (line 3: '), used: true },
      { file: join(dir, 'empty/SKILL.md'), error: expect.stringContaining('no instructions') },
      { file: join(dir, 'missing'), error: 'no SKILL.md in this skill folder' },
      { file: join(dir, 'no-desc/SKILL.md'), error: expect.stringContaining('`description` is missing') },
      { file: join(dir, 'no-front/SKILL.md'), error: expect.stringContaining('no frontmatter') },
    ])
  })

  it('lists names and descriptions for the system prompt', async () => {
    const loc = locations()
    writeTree(loc.projectRoot, { '.hotaru/skills/a/SKILL.md': skill('a', 'Does A\u0020 well') })
    const { skills } = await discoverSkills(loc)
    const block = skillsPromptBlock(skills)
    expect(block).toMatch(/^<skills>\n/)
    expect(block).toContain('`skill` tool')
    expect(block).toContain('- a: Does A well')
    expect(skillsPromptBlock([])).toBe('')
  })
})

describe('skill tool', () => {
  it('returns the body, the folder and the other files, which read can open', async () => {
    const loc = locations()
    writeTree(loc.projectRoot, {
      '.hotaru/skills/forms/SKILL.md': skill('forms', 'Fill forms', 'Step 1: read reference.md.'),
      '.hotaru/skills/forms/reference.md': 'field list',
      '.hotaru/skills/forms/scripts/fill.py': 'print(1)',
    })
    const { skills } = await discoverSkills(loc)
    const ctx = testContext(loc.projectRoot)
    const result = await runTool(createSkillTool(skills), { name: 'forms' }, ctx)
    expect(result.error).toBeUndefined()
    expect(result.output).toContain(`<skill name="forms" directory="${join(loc.projectRoot, '.hotaru/skills/forms')}">\nStep 1: read reference.md.\n</skill>`)
    expect(result.output).not.toContain('SKILL.md')
    const reference = join(loc.projectRoot, '.hotaru/skills/forms/reference.md')
    expect(result.output).toContain(`- ${reference}`)
    expect(result.output).toContain(`- ${join(loc.projectRoot, '.hotaru/skills/forms/scripts/fill.py')}`)
    expect(result.metadata).toMatchObject({ name: 'forms', files: 2 })
    expect(ctx.asks).toEqual([])
    const read = await runTool(readTool, { filePath: reference }, ctx)
    expect(read.error).toBeUndefined()
    expect(read.output).toContain('field list')
  })

  it('reads a skill outside the project through read with an external_directory ask', async () => {
    const loc = locations()
    writeTree(loc.homeDir, { '.claude/skills/pdf/SKILL.md': skill('pdf', 'PDF'), '.claude/skills/pdf/forms.md': 'form help' })
    const { skills } = await discoverSkills(loc)
    const ctx = testContext(loc.projectRoot)
    const result = await runTool(createSkillTool(skills), { name: 'pdf' }, ctx)
    const file = join(loc.homeDir, '.claude/skills/pdf/forms.md')
    expect(result.output).toContain(`- ${file}`)
    const read = await runTool(readTool, { filePath: file }, ctx)
    expect(read.output).toContain('form help')
    expect(ctx.asks.map((a) => a.permission)).toContain('external_directory')
  })

  it('names the available skills when asked for an unknown one, and re-reads an edited body', async () => {
    const loc = locations()
    writeTree(loc.projectRoot, { '.hotaru/skills/a/SKILL.md': skill('a', 'A') })
    const { skills } = await discoverSkills(loc)
    const tool = createSkillTool(skills)
    const ctx = testContext(loc.projectRoot)
    const unknown = await runTool(tool, { name: 'b' }, ctx)
    expect(unknown.error?.name).toBe('ToolError')
    expect(unknown.output).toBe('There is no skill named "b". Available skills: a.')
    writeTree(loc.projectRoot, { '.hotaru/skills/a/SKILL.md': skill('a', 'A', 'New text.') })
    expect((await runTool(tool, { name: 'a' }, ctx)).output).toContain('New text.')
  })
})
