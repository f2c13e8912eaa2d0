import { loadMonaco, type MonacoApi } from '../../editor'
import { sanitize } from './render'

const FENCE_ALIASES: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  console: 'shell',
  py: 'python',
  rb: 'ruby',
  rs: 'rust',
  yml: 'yaml',
  md: 'markdown',
  'c++': 'cpp',
  'c#': 'csharp',
  cs: 'csharp',
  kt: 'kotlin',
  ps1: 'powershell',
}

/** Monaco's language id for a fence name, or null when Monaco has no such language. */
function languageId(monaco: MonacoApi, fence: string): string | null {
  const wanted = FENCE_ALIASES[fence] ?? fence
  for (const language of monaco.languages.getLanguages()) {
    if (language.id === wanted) return language.id
    if (language.aliases?.some((a) => a.toLowerCase() === wanted)) return language.id
    if (language.extensions?.includes(`.${fence}`)) return language.id
  }
  return null
}

/**
 * Highlights the code blocks under `root` with Monaco's tokenizer (the editor's
 * own colours). Monaco loads on the first code block; blocks stay plain until then.
 */
export async function colorizeCode(root: HTMLElement): Promise<void> {
  const blocks = [...root.querySelectorAll<HTMLElement>('.md-code[data-lang]:not([data-colorized])')].filter((b) => b.dataset.lang)
  if (blocks.length === 0) return
  const monaco = await loadMonaco()
  for (const block of blocks) {
    block.dataset.colorized = 'true'
    const code = block.querySelector('code')
    const id = languageId(monaco, block.dataset.lang ?? '')
    if (!code || !id) continue
    const text = code.textContent ?? ''
    const html = await monaco.editor.colorize(text, id, { tabSize: 2 })
    // The block may have been re-rendered meanwhile: colour only the text it still shows.
    if (!code.isConnected || code.textContent !== text) continue
    // Monaco's markup uses non-breaking spaces: "Copy" must still give the code as written.
    code.dataset.raw = text
    code.innerHTML = sanitize(html)
  }
}
