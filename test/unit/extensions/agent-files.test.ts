import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BUILTIN_AGENTS, resolveAgents } from '../../../src/main/core/agent/agents'
import { loadAgentFiles, mergeAgentFiles, parseAgentFile, subagentsPromptBlock } from '../../../src/main/core/extensions/agent-files'
import { ToolRegistry, builtinTools } from '../../../src/main/core/tools'
import { tempDir, writeTree } from '../../support/temp'

describe('parseAgentFile', () => {
  it('reads every field; the body is the prompt', () => {
    const parsed = parseAgentFile(
      'reviewer',
      [
        '---',
        'description: Reviews diffs for bugs',
        'model: anthropic/claude-sonnet-4-5',
        'mode: subagent',
        'tools: {"bash": false, "mcp_*": false}',
        'permission: {"edit": "deny", "bash": {"*": "ask", "git diff *": "allow"}}',
        'maxTurns: 12',
        '---',
        '',
        'You review code.',
        '',
        'Be terse.',
        '',
      ].join('\n'),
    )
    expect(parsed).toEqual({
      prompt: 'You review code.\n\nBe terse.',
      override: {
        description: 'Reviews diffs for bugs',
        model: 'anthropic/claude-sonnet-4-5',
        mode: 'subagent',
        tools: { bash: false, 'mcp_*': false },
        permission: { edit: 'deny', bash: { '*': 'ask', 'git diff *': 'allow' } },
        maxTurns: 12,
      },
    })
  })

  it('takes tools as a comma list or indented lines, and permission as indented lines', () => {
    expect(parseAgentFile('a', '---\ntools: read, grep,glob\n---\nP').override.tools).toEqual({ '*': false, read: true, grep: true, glob: true })
    expect(parseAgentFile('a', '---\ntools: ["read"]\n---\nP').override.tools).toEqual({ '*': false, read: true })
    const nested = parseAgentFile('a', '---\ntools:\n  bash: false\n  read: true\npermission:\n  edit: ask\n  webfetch: deny\n---\nP')
    expect(nested.override).toEqual({ tools: { bash: false, read: true }, permission: { edit: 'ask', webfetch: 'deny' } })
    expect(parseAgentFile('a', '---\ntools: {bash: false}\n---\nP').override.tools).toEqual({ bash: false })
    expect(parseAgentFile('a', '---\ntools:\n  - read\n  - grep\n---\nP').override.tools).toEqual({ '*': false, read: true, grep: true })
    const yamlPermission = parseAgentFile('a', '---\npermission:\n  bash:\n    "*": ask\n    "git diff *": allow\n---\nP')
    expect(yamlPermission.override.permission).toEqual({ bash: { '*': 'ask', 'git diff *': 'allow' } })
  })

  it('reads a folded description, and a description with an unquoted colon leniently with a notice', () => {
    expect(parseAgentFile('a', '---\ndescription: >-\n  Reviews diffs\n  for bugs.\n---\nP')).toEqual({ prompt: 'P', override: { description: 'Reviews diffs for bugs.' } })
    const lenient = parseAgentFile('a', '---\ndescription: Reviews: diffs, tests\nmode: subagent\n---\nP')
    expect(lenient.override).toEqual({ description: 'Reviews: diffs, tests', mode: 'subagent' })
    expect(lenient.notice).toMatch(/not valid YAML \(line 2: /)
  })

  it('accepts a file without frontmatter as a prompt with defaults', () => {
    expect(parseAgentFile('plain', 'Just a prompt.\n')).toEqual({ prompt: 'Just a prompt.', override: {} })
  })

  it.each([
    ['---\nmodel: sonnet\n---\nP', /`model`: expected "provider\/model"/],
    ['---\nmode: all\n---\nP', /`mode`: /],
    ['---\nmaxTurns: 0\n---\nP', /`maxTurns` must be a positive whole number/],
    ['---\ntools: {"bash": "no"}\n---\nP', /`tools.bash` must be true or false, not "no"/],
    ['---\ntools: [read, 3: x]\n---\nP', /`tools` list: /],
    ['---\ntools:\n  bash: nope\n---\nP', /`tools.bash` must be true or false/],
    ['---\npermission: {"edit": "maybe"}\n---\nP', /`permission`: /],
    ['---\ntemperature: 0.2\n---\nP', /unknown key\(s\) `temperature`/],
    ['---\nname: other\n---\nP', /differs from the file name/],
    ['---\ndescription: x\n---\n\n', /no body/],
  ])('refuses %j', (text, error) => {
    expect(() => parseAgentFile('agent', text)).toThrow(error)
  })
})

describe('loadAgentFiles and mergeAgentFiles', () => {
  function dirs(): { projectRoot: string; globalConfigDir: string } {
    return { projectRoot: tempDir('hotaru-agents-p-'), globalConfigDir: tempDir('hotaru-agents-g-') }
  }

  it('loads global then project files and reports broken ones', async () => {
    const loc = dirs()
    writeTree(loc.globalConfigDir, {
      'agents/reviewer.md': '---\ndescription: user reviewer\nmodel: openai/gpt-5\n---\nUser prompt.',
      'agents/notes.txt': 'not an agent',
    })
    writeTree(loc.projectRoot, {
      '.hotaru/agents/reviewer.md': '---\ndescription: project reviewer\n---\nProject prompt.',
      '.hotaru/agents/broken.md': '---\nmode: sideways\n---\nX',
      '.hotaru/agents/bad name.md': 'X',
    })
    const { agents, errors } = await loadAgentFiles(loc)
    expect(agents.map((a) => [a.name, a.scope, a.prompt])).toEqual([
      ['reviewer', 'global', 'User prompt.'],
      ['reviewer', 'project', 'Project prompt.'],
    ])
    expect(errors).toEqual([
      { file: join(loc.projectRoot, '.hotaru/agents/bad name.md'), error: expect.stringContaining('not a usable agent name') },
      { file: join(loc.projectRoot, '.hotaru/agents/broken.md'), error: expect.stringContaining('`mode`') },
    ])
    const merged = mergeAgentFiles(resolveAgents({}), agents)
    // The project file applies last; the model set only by the user's file stays.
    expect(merged.get('reviewer')).toEqual({
      name: 'reviewer',
      description: 'project reviewer',
      mode: 'primary',
      prompt: 'Project prompt.',
      model: 'openai/gpt-5',
      tools: {},
      permission: undefined,
      maxTurns: undefined,
      readOnly: false,
    })
  })

  it('overrides a built-in agent: the body replaces its prompt, the rest is kept unless set', async () => {
    const loc = dirs()
    writeTree(loc.projectRoot, { '.hotaru/agents/explore.md': '---\ntools: {"*": false, "read": true, "task": true}\nmaxTurns: 5\n---\nExplore differently.' })
    const { agents } = await loadAgentFiles(loc)
    const builtin = BUILTIN_AGENTS.find((a) => a.name === 'explore')
    const merged = mergeAgentFiles(resolveAgents({ agent: { explore: { permission: { bash: 'deny' } } } }), agents)
    const explore = merged.get('explore')
    expect(explore).toMatchObject({ prompt: 'Explore differently.', mode: 'subagent', description: builtin?.description, readOnly: true, maxTurns: 5, permission: { bash: 'deny' } })
    // The file's keys come last so its "*" does not override its own "task": true.
    expect(Object.keys(explore?.tools ?? {}).slice(-3)).toEqual(['*', 'read', 'task'])
    const ids = new ToolRegistry(builtinTools({ rg: null })).forAgent('explore', explore?.tools).map((t) => t.id)
    expect(ids).toContain('read')
    expect(ids).not.toContain('bash')
  })

  it('turns a comma list into an allow-list the registry applies', async () => {
    const loc = dirs()
    writeTree(loc.projectRoot, { '.hotaru/agents/searcher.md': '---\ndescription: finds things\nmode: subagent\ntools: read, grep, glob\n---\nSearch.' })
    const { agents } = await loadAgentFiles(loc)
    const merged = mergeAgentFiles(resolveAgents({}), agents)
    const searcher = merged.get('searcher')
    expect(searcher?.mode).toBe('subagent')
    const ids = new ToolRegistry(builtinTools({ rg: null })).forAgent('searcher', searcher?.tools).map((t) => t.id)
    expect(ids.sort()).toEqual(['glob', 'grep', 'read'])
    const block = subagentsPromptBlock(merged.values())
    expect(block).toContain('- searcher: finds things')
    expect(block).toContain('- explore: ')
    expect(block).not.toContain('- build:')
  })
})
