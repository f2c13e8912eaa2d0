import { extname } from 'node:path'

/** How a built-in server is obtained when the project does not have it. */
export interface NpmSource {
  /** The package that provides the server's executable. */
  package: string
  /** Other packages installed next to it (typescript for typescript-language-server). */
  with?: string[]
}

/** One entry of the catalog: which files it serves and how to start it. */
export interface ServerSpec {
  id: string
  /** For status lines: "TypeScript", "Python (pyright)". */
  name: string
  extensions: string[]
  /** Executable name, looked up in the project's node_modules/.bin, the app's install dir, then PATH. */
  bin: string
  args: string[]
  /** Present for npm-distributed servers (installable on demand); absent: PATH only. */
  npm?: NpmSource
  initializationOptions?: Record<string, unknown>
  /** Added by `lsp` config rather than built in. */
  custom?: boolean
  /**
   * The server stays silent when a file's problems did not change (typescript-language-server
   * skips "still no errors"), so a changed file is closed and re-opened to get a report every time.
   */
  reopenToRecheck?: boolean
}

/**
 * The built-in servers. npm-distributed ones come from the project, the app's
 * data dir (installed on demand) or PATH; Go, Rust and C/C++ only from PATH,
 * since their servers ship with those toolchains.
 */
export const BUILTIN_SERVERS: readonly ServerSpec[] = [
  {
    id: 'typescript',
    name: 'TypeScript',
    extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
    bin: 'typescript-language-server',
    args: ['--stdio'],
    npm: { package: 'typescript-language-server', with: ['typescript'] },
    reopenToRecheck: true,
  },
  {
    id: 'pyright',
    name: 'Python (pyright)',
    extensions: ['.py', '.pyi'],
    bin: 'pyright-langserver',
    args: ['--stdio'],
    npm: { package: 'pyright' },
  },
  {
    id: 'json',
    name: 'JSON',
    extensions: ['.json', '.jsonc'],
    bin: 'vscode-json-language-server',
    args: ['--stdio'],
    npm: { package: 'vscode-langservers-extracted' },
    initializationOptions: { provideFormatter: false },
  },
  {
    id: 'css',
    name: 'CSS',
    extensions: ['.css', '.scss', '.less'],
    bin: 'vscode-css-language-server',
    args: ['--stdio'],
    npm: { package: 'vscode-langservers-extracted' },
  },
  {
    id: 'html',
    name: 'HTML',
    extensions: ['.html', '.htm'],
    bin: 'vscode-html-language-server',
    args: ['--stdio'],
    npm: { package: 'vscode-langservers-extracted' },
  },
  {
    id: 'yaml',
    name: 'YAML',
    extensions: ['.yaml', '.yml'],
    bin: 'yaml-language-server',
    args: ['--stdio'],
    npm: { package: 'yaml-language-server' },
  },
  {
    id: 'bash',
    name: 'Bash',
    extensions: ['.sh', '.bash'],
    bin: 'bash-language-server',
    args: ['start'],
    npm: { package: 'bash-language-server' },
  },
  { id: 'gopls', name: 'Go (gopls)', extensions: ['.go'], bin: 'gopls', args: [] },
  { id: 'rust-analyzer', name: 'Rust (rust-analyzer)', extensions: ['.rs'], bin: 'rust-analyzer', args: [] },
  {
    id: 'clangd',
    name: 'C/C++ (clangd)',
    extensions: ['.c', '.h', '.cc', '.cpp', '.cxx', '.hpp', '.hh', '.hxx'],
    bin: 'clangd',
    args: [],
  },
]

const LANGUAGE_IDS: Record<string, string> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'typescriptreact',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascriptreact',
  '.py': 'python',
  '.pyi': 'python',
  '.json': 'json',
  '.jsonc': 'jsonc',
  '.css': 'css',
  '.scss': 'scss',
  '.less': 'less',
  '.html': 'html',
  '.htm': 'html',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.sh': 'shellscript',
  '.bash': 'shellscript',
  '.go': 'go',
  '.rs': 'rust',
  '.c': 'c',
  '.h': 'c',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.cxx': 'cpp',
  '.hpp': 'cpp',
  '.hh': 'cpp',
  '.hxx': 'cpp',
}

/** The LSP language id of a file (`typescriptreact` for `.tsx`); unknown extensions use the extension itself. */
export function languageIdOf(path: string): string {
  const ext = extname(path).toLowerCase()
  return LANGUAGE_IDS[ext] ?? ext.slice(1)
}
