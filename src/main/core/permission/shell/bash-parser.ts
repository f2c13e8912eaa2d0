import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { setFlagsFromString } from 'node:v8'
import type { Node, Parser, Tree } from 'web-tree-sitter'
import { nextTask } from '../../util/next-task'

export type { Node as SyntaxNode }

/**
 * The one bash grammar of the permission checks: tree-sitter-bash, run through
 * web-tree-sitter (WebAssembly, no native build). Both `.wasm` files are read with
 * `fs` and handed over as bytes, so they load the same from node_modules, from the
 * bundled CLI and from inside the packaged app's asar archive. Loaded once, lazily
 * (see `warmBashParser`); a failed load is retried on the next call.
 */
let loading: Promise<Parser> | undefined

/**
 * WebAssembly in this process stays on V8's baseline compiler (both flags are needed; set before
 * the grammar compiles). Left to tier up, V8 hands the grammar's hot functions (its lexer is one
 * huge switch) to its optimizing compiler in the background: about 500 MB and 1–3 s of a core,
 * which a one-shot `hotaru run` then waited for at exit. Baseline code parses a command line in
 * about 30 µs, faster than the tiering run (which pays for the compile).
 */
function baselineWasmOnly(): void {
  setFlagsFromString('--no-wasm-tier-up')
  setFlagsFromString('--no-wasm-dynamic-tiering')
}

async function load(): Promise<Parser> {
  baselineWasmOnly()
  const require = createRequire(import.meta.url)
  // The runtime's JavaScript loads here too, not with the module: a turn reaches its first request without it.
  const [{ Language, Parser }, runtime, grammar] = await Promise.all([
    import('web-tree-sitter'),
    readFile(require.resolve('web-tree-sitter/tree-sitter.wasm')),
    readFile(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm')),
  ])
  await Parser.init({ wasmBinary: runtime })
  const language = await Language.load(grammar)
  const parser = new Parser()
  parser.setLanguage(language)
  // V8 compiles a WebAssembly function on its first call: the first parse compiled much of the
  // grammar (15–45 ms on the event loop) inside the first command's permission check. One parse of
  // a line that takes the common paths, in a task of its own, does that while loading.
  await nextTask()
  parser.parse(WARM_UP_LINE)?.delete()
  return parser
}

const WARM_UP_LINE = `cd src && FOO=1 ls -la "$HOME" 'a b' | grep -E "x|y" > out.txt 2>&1; echo $(date) \${#x}; for f in *.ts; do wc -l "$f"; done`

function parser(): Promise<Parser> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}

/** Whether the grammar was loaded, or is loading, in this process. */
export function bashGrammarRequested(): boolean {
  return loading !== undefined
}

/**
 * Starts loading the grammar in the background (when a turn starts), so the
 * first command of a turn does not wait for it. A failure is not lost: the next
 * check loads again and reports it to its caller.
 */
export function warmBashParser(): void {
  void parser().then(
    () => undefined,
    () => undefined,
  )
}

/** Parses bash synchronously once loaded. */
export interface BashParser {
  /**
   * Parses `script` and hands the tree to `use`; the tree's WebAssembly memory is
   * freed afterwards, so `use` must not keep nodes.
   */
  parse<T>(script: string, use: (root: Node) => T): T
}

/** The parser, loading the grammar on first use (a project opening may start it early). */
export async function loadBashParser(): Promise<BashParser> {
  const instance = await parser()
  return {
    parse(script, use) {
      const tree: Tree | null = instance.parse(script)
      if (!tree) throw new Error('the bash parser returned no tree')
      try {
        return use(tree.rootNode)
      } finally {
        tree.delete()
      }
    },
  }
}
