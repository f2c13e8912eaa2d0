import { ESLint } from 'eslint'
import tseslint from 'typescript-eslint'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { electronImportChains } from '../support/boundary'
import { tempDir, writeTree } from '../support/temp'

const ROOT = resolve(import.meta.dirname, '../..')
const ISOLATED = ['src/main/core', 'src/cli', 'src/shared'].map((d) => join(ROOT, d))

describe('core isolation: nothing under core, cli or shared reaches electron', () => {
  it('holds for the whole tree, including transitive imports', () => {
    expect(electronImportChains(ROOT, ISOLATED, { '@shared/': join(ROOT, 'src/shared') })).toEqual([])
  })

  it('catches a direct and an indirect electron import (the check can fail)', () => {
    const root = writeTree(tempDir(), {
      'core/direct.ts': "import { app } from 'electron'\n",
      'core/indirect.ts': "import { win } from '../shell/window'\n",
      'core/clean.ts': "import { x } from './util'\n",
      'core/util.ts': 'export const x = 1\n',
      'shell/window.ts': "import { BrowserWindow } from 'electron'\nexport const win = BrowserWindow\n",
    })
    const chains = electronImportChains(root, [join(root, 'core')], {})
    expect(chains).toHaveLength(2)
    expect(chains).toContain('core/direct.ts → electron')
    expect(chains).toContain('core/indirect.ts → shell/window.ts → electron')
  })

  it('the lint rule fails the build for an electron import under src/main/core', async () => {
    // The snippets are not files of the TypeScript project: the type-aware rules are off for them (the import rule is what is tested).
    const eslint = new ESLint({ cwd: ROOT, overrideConfig: [{ files: ['**/*.ts'], ...tseslint.configs.disableTypeChecked }] })
    const [result] = await eslint.lintText("import { app } from 'electron'\nexport const a = app\n", {
      filePath: join(ROOT, 'src/main/core/added-by-mistake.ts'),
    })
    expect(result?.messages.map((m) => m.ruleId)).toContain('no-restricted-imports')
    const [shell] = await eslint.lintText("import { app } from 'electron'\nexport const a = app\n", {
      filePath: join(ROOT, 'src/main/electron/fine.ts'),
    })
    expect(shell?.messages.filter((m) => m.ruleId === 'no-restricted-imports')).toEqual([])
  })
})
