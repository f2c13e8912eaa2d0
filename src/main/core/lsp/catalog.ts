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
  /** What the server is told when it asks for its settings (`workspace/configuration`), by section. */
  settings?: Record<string, unknown>
  /** Added by `lsp` config rather than built in. */
  custom?: boolean
  /**
   * The server stays silent when a file's problems did not change (typescript-language-server
   * skips "still no errors"), so a changed file is closed and re-opened to get a report every time.
   */
  reopenToRecheck?: boolean
  /**
   * Files at a project's root that say it is written in this server's language: a trusted project that has
   * one (or a source file of the language in its root or `src/`) starts the server as it opens, so it has
   * loaded the project by the time the agent edits. Servers without markers start on first use.
   */
  markers?: string[]
}

/** A server distributed on npm that speaks LSP over stdio. */
function npmServer(
  id: string,
  name: string,
  extensions: string[],
  bin: string,
  npm: NpmSource,
  extra: Partial<Pick<ServerSpec, 'args' | 'initializationOptions' | 'settings' | 'reopenToRecheck' | 'markers'>> = {},
): ServerSpec {
  return { id, name, extensions, bin, args: ['--stdio'], npm, ...extra }
}

/** A server that ships with its language's toolchain: found on PATH only. */
function toolchainServer(id: string, name: string, extensions: string[], bin: string, markers?: string[]): ServerSpec {
  return { id, name, extensions, bin, args: [], ...(markers ? { markers } : {}) }
}

const JS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']
const LANGSERVERS_EXTRACTED: NpmSource = { package: 'vscode-langservers-extracted' }

/**
 * The built-in servers. npm-distributed ones come from the project, the app's
 * data dir (installed on demand) or PATH; Go, Rust and C/C++ only from PATH,
 * since their servers ship with those toolchains.
 */
export const BUILTIN_SERVERS: readonly ServerSpec[] = [
  npmServer(
    'typescript',
    'TypeScript',
    JS_EXTENSIONS,
    'typescript-language-server',
    { package: 'typescript-language-server', with: ['typescript'] },
    {
      reopenToRecheck: true,
      markers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
      // No automatic type acquisition: it runs `npm install` of `@types` packages the folder's imports and
      // package.json name, in the background, on every project without a typings cache.
      initializationOptions: { disableAutomaticTypingAcquisition: true },
      settings: { 'js/ts': { tsserver: { automaticTypeAcquisition: { enabled: false } } }, typescript: { disableAutomaticTypeAcquisition: true } },
    },
  ),
  npmServer('pyright', 'Python (pyright)', ['.py', '.pyi'], 'pyright-langserver', { package: 'pyright' }, {
    markers: ['pyproject.toml', 'pyrightconfig.json', 'setup.py', 'requirements.txt'],
  }),
  npmServer('json', 'JSON', ['.json', '.jsonc'], 'vscode-json-language-server', LANGSERVERS_EXTRACTED, {
    initializationOptions: { provideFormatter: false },
  }),
  npmServer('css', 'CSS', ['.css', '.scss', '.less'], 'vscode-css-language-server', LANGSERVERS_EXTRACTED),
  npmServer('html', 'HTML', ['.html', '.htm'], 'vscode-html-language-server', LANGSERVERS_EXTRACTED),
  npmServer('yaml', 'YAML', ['.yaml', '.yml'], 'yaml-language-server', { package: 'yaml-language-server' }),
  npmServer('bash', 'Bash', ['.sh', '.bash'], 'bash-language-server', { package: 'bash-language-server' }, {
    args: ['start'],
  }),
  toolchainServer('gopls', 'Go (gopls)', ['.go'], 'gopls', ['go.mod']),
  toolchainServer('rust-analyzer', 'Rust (rust-analyzer)', ['.rs'], 'rust-analyzer', ['Cargo.toml']),
  toolchainServer('clangd', 'C/C++ (clangd)', ['.c', '.h', '.cc', '.cpp', '.cxx', '.hpp', '.hh', '.hxx'], 'clangd'),
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
