import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { getProcessor } from 'sh-syntax'

/**
 * The bash grammar check, by mvdan/sh compiled to WebAssembly (sh-syntax). Its
 * JavaScript AST keeps only statement ranges and redirects, so it serves as the
 * judge of what is valid bash while `ShellCommandParser` finds the commands. The
 * package's own `parse` recompiles the module on every call; compiling once and
 * instantiating per call cuts the cost of a check several times.
 */
/** The slice of the WebAssembly API used here (the node typings do not declare the global). */
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>
  instantiate(module: object, imports: object): Promise<object>
}

const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly
let compiled: Promise<object> | undefined

function wasmModule(): Promise<object> {
  compiled ??= (async () => {
    const path = createRequire(import.meta.url).resolve('sh-syntax/main.wasm')
    return wasm.compile(await readFile(path))
  })()
  return compiled
}

type GetWasm = Parameters<typeof getProcessor>[0]

const instantiate = async (imports: object): Promise<object> => wasm.instantiate(await wasmModule(), imports)
const processor = getProcessor(instantiate as unknown as GetWasm)

/** Rejects with the parser's message when `script` is not valid bash. */
export async function checkBashGrammar(script: string): Promise<void> {
  await processor(script, { keepComments: false })
}
